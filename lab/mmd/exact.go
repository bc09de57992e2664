package mmd

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Exact is the exact (biased, V-statistic) estimate of thesis eq. (4.2):
//
//	MMD²(X, Z) = (1/n²) Σ_ij k(x_i, x_j) + (1/m²) Σ_ij k(z_i, z_j) − (2/nm) Σ_ij k(x_i, z_j),
//
// the squared RKHS distance between the two empirical mean embeddings, so never negative up to
// rounding, and 0 for identical samples.
//
// The three double sums are computed over 512×512 tiles of the kernel matrix, spread over all
// cores, each tile summed as soon as it is computed, so no n×n matrix is formed; the within-sample
// sums use only the tiles on and above the diagonal (half the work). Time O((n + m)² d) for
// vectors (O(n²) kernel values); memory 2 MiB per core plus a list of the (n + m)²/512² tiles.
// Tile sums are added in a fixed order, so the result does not depend on the number of
// goroutines.
type Exact struct{}

// Name returns "exact".
func (Exact) Name() string { return "exact" }

// MMD2 returns the exact MMD² of eq. (4.2); rng is not used and may be nil.
//
// Errors: nil ctx or points (a zero Vectors or Precomputed has no points), empty samples, an
// index out of range, an error of p.Block, a non-finite estimate, cancellation.
func (Exact) MMD2(ctx context.Context, _ *rand.Rand, p Points, x, z []int) (float64, error) {
	if err := checkSamples("Exact", ctx, p, x, z); err != nil {
		return 0, err
	}
	return exactMMD2(ctx, p, x, z)
}

// tileSize is the side of the kernel tiles of the exact MMD (2 MiB each): large enough for
// efficient matrix products, small enough to stay in cache while the tile is summed.
const tileSize = 512

// tile is one block of a double sum: the kernel values between rows and cols, counted weight
// times into term (0: within x, 1: within z, 2: between x and z).
type tile struct {
	rows, cols []int
	weight     float64
	term       int
}

// exactMMD2 computes eq. (4.2) for valid samples.
func exactMMD2(ctx context.Context, p Points, x, z []int) (float64, error) {
	tiles := withinTiles(nil, x, 0)
	tiles = withinTiles(tiles, z, 1)
	for i := 0; i < len(x); i += tileSize {
		for j := 0; j < len(z); j += tileSize {
			tiles = append(tiles, tile{rows: x[i:min(len(x), i+tileSize)], cols: z[j:min(len(z), j+tileSize)], weight: 1, term: 2})
		}
	}
	// Each worker's buffer holds the largest tile, not a full 512×512 one: small samples (linear
	// MMD calls this on √n points per decision) would otherwise spend their time allocating.
	largest := 0
	for _, t := range tiles {
		largest = max(largest, len(t.rows)*len(t.cols))
	}
	sums := make([]float64, len(tiles))
	err := forEach(ctx, len(tiles), func() func(int) error {
		buf := make([]float64, largest)
		return func(t int) error {
			rows, cols := tiles[t].rows, tiles[t].cols
			dst := mat.NewDense(len(rows), len(cols), buf[:len(rows)*len(cols)])
			if err := p.Block(dst, rows, cols); err != nil {
				return err
			}
			var s float64
			for _, v := range dst.RawMatrix().Data {
				s += v
			}
			sums[t] = s
			return nil
		}
	})
	if err != nil {
		return 0, err
	}
	var terms [3]float64
	for t, s := range sums {
		terms[tiles[t].term] += tiles[t].weight * s
	}
	n, m := float64(len(x)), float64(len(z))
	return finiteEstimate("Exact", terms[0]/(n*n)+terms[1]/(m*m)-2*terms[2]/(n*m))
}

// withinTiles appends the tiles of Σ_ij k(s_i, s_j): those on and above the diagonal, the
// off-diagonal ones counted twice. A diagonal tile passes the same slice as rows and cols, so
// that Points may compute it as a symmetric block.
func withinTiles(tiles []tile, s []int, term int) []tile {
	for i := 0; i < len(s); i += tileSize {
		rows := s[i:min(len(s), i+tileSize)]
		tiles = append(tiles, tile{rows: rows, cols: rows, weight: 1, term: term})
		for j := i + tileSize; j < len(s); j += tileSize {
			tiles = append(tiles, tile{rows: rows, cols: s[j:min(len(s), j+tileSize)], weight: 2, term: term})
		}
	}
	return tiles
}
