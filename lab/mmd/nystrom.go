package mmd

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/lowrank"
)

// Nystrom is the Nyström MMD of thesis §4.5: on the pooled sample F = X ∪ Z, with s landmarks S
// drawn uniformly from F, the MMD² for the regularised Nyström kernel
// k̂(a, b) = k(a, S) K_S⁺ k(S, b) + λ δ_a(b) (eq. 4.7), which by Lemma 5 is
//
//	MMD²_k̂ = vᵀ (K_FS K_S⁺ K_FSᵀ + λI) v = uᵀ K_S⁺ u + λ ||v||²,
//
// where v is the difference of the two empirical distributions on F (v_a = #{a in X}/n −
// #{a in Z}/m) and u = K_FSᵀ v = (1/n) Σ_i k(S, x_i) − (1/m) Σ_j k(S, z_j). By Lemma 4 it is a
// distance between empirical distributions when λ > 0 (positive whenever they differ, even for
// a kernel that is not characteristic); with λ = 0 it is the plain Nyström approximation, and
// with every point of F as a landmark it equals the exact MMD² of eq. (4.2).
//
// Points are identified by their index: the same index in x and z is the same point (its weights
// cancel in v), two indices holding equal values are different points for the λ term. K_S⁺ is
// the pseudo-inverse through the symmetric eigendecomposition, eigenvalues at or below
// lowrank.DefaultCutoff·λ_max dropped. Works for any Points (vectors, graphs). Time
// O((n + m)s d + s³) for vectors; memory O(s²), plus 4096(s + d) values per core for the chunks
// of kernel rows (and gathered vectors), plus O(N) for the λ term (N = p.Len()).
type Nystrom struct {
	// Landmarks is the number s of landmarks, at most n + m; 0 selects DefaultSize(min(n, m)).
	Landmarks int
	// Lambda is the regularisation λ ≥ 0 of eq. (4.7); 0 gives the unregularised approximation.
	Lambda float64
}

// Name returns "nystrom".
func (Nystrom) Name() string { return "nystrom" }

// nystromChunk is the number of sample points whose kernel values against the landmarks are
// computed at once.
const nystromChunk = 4096

// MMD2 draws the landmarks as positions in the concatenation x‖z with
// [lowrank.UniformLandmarks](rng, n+m, s) and returns uᵀ K_S⁺ u + λ||v||². The sums of u are
// computed in chunks of points on all cores and added in chunk order (independent of the number of
// goroutines).
//
// Errors: nil ctx, points or rng, empty samples, an index out of range, Landmarks < 0 or > n+m,
// λ negative or not finite, a landmark matrix without a positive eigenvalue, an error of p.Block,
// a non-finite estimate, cancellation.
func (ny Nystrom) MMD2(ctx context.Context, rng *rand.Rand, p Points, x, z []int) (float64, error) {
	if err := checkSamples("Nystrom", ctx, p, x, z); err != nil {
		return 0, err
	}
	if err := checkRNG("Nystrom", rng); err != nil {
		return 0, err
	}
	n, m := len(x), len(z)
	s := ny.Landmarks
	if s == 0 {
		s = DefaultSize(min(n, m))
	}
	if s < 1 || s > n+m {
		return 0, fmt.Errorf("mmd: Nystrom: %d landmarks for a pooled sample of %d points, want 1 ≤ s ≤ %d", s, n+m, n+m)
	}
	if ny.Lambda < 0 || math.IsNaN(ny.Lambda) || math.IsInf(ny.Lambda, 0) {
		return 0, fmt.Errorf("mmd: Nystrom: λ = %g, want a finite λ ≥ 0", ny.Lambda)
	}
	pos, err := lowrank.UniformLandmarks(rng, n+m, s)
	if err != nil {
		return 0, fmt.Errorf("mmd: Nystrom: %w", err)
	}
	landmarks := make([]int, s)
	for a, i := range pos {
		if i < n {
			landmarks[a] = x[i]
		} else {
			landmarks[a] = z[i-n]
		}
	}
	values, vectors, err := landmarkEigen(p, landmarks)
	if err != nil {
		return 0, err
	}
	ux, err := meanKernelRows(ctx, p, x, landmarks)
	if err != nil {
		return 0, err
	}
	uz, err := meanKernelRows(ctx, p, z, landmarks)
	if err != nil {
		return 0, err
	}
	u := mat.NewVecDense(s, nil)
	for j := range s {
		u.SetVec(j, ux[j]-uz[j])
	}
	var t mat.VecDense
	t.MulVec(vectors.T(), u) // coordinates of u in the eigenbasis of K_S
	cut := lowrank.DefaultCutoff * values[len(values)-1]
	var mmd2 float64
	for i, l := range values {
		if l > cut {
			mmd2 += t.AtVec(i) * t.AtVec(i) / l
		}
	}
	if ny.Lambda > 0 {
		mmd2 += ny.Lambda * weightDifferenceNorm2(p.Len(), x, z)
	}
	return finiteEstimate("Nystrom", mmd2)
}

// landmarkEigen returns the eigenvalues (increasing) and eigenvectors of K_S, made exactly
// symmetric from its upper triangle.
func landmarkEigen(p Points, landmarks []int) ([]float64, *mat.Dense, error) {
	s := len(landmarks)
	block := mat.NewDense(s, s, nil)
	if err := p.Block(block, landmarks, landmarks); err != nil {
		return nil, nil, err
	}
	sym := mat.NewSymDense(s, nil)
	for i := range s {
		for j := i; j < s; j++ {
			sym.SetSym(i, j, block.At(i, j))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, nil, fmt.Errorf("mmd: Nystrom: the eigendecomposition of the %d×%d landmark kernel matrix did not converge", s, s)
	}
	values := eig.Values(nil)
	if values[s-1] <= 0 || math.IsNaN(values[s-1]) {
		return nil, nil, fmt.Errorf("mmd: Nystrom: the landmark kernel matrix has no positive eigenvalue (largest %g)", values[s-1])
	}
	var vectors mat.Dense
	eig.VectorsTo(&vectors)
	return values, &vectors, nil
}

// meanKernelRows returns (1/|idx|) Σ_{i in idx} k(p_i, S) for the landmarks S.
func meanKernelRows(ctx context.Context, p Points, idx, landmarks []int) ([]float64, error) {
	s := len(landmarks)
	chunks := (len(idx) + nystromChunk - 1) / nystromChunk
	sums := make([]float64, chunks*s)
	err := forEach(ctx, chunks, func() func(int) error {
		buf := make([]float64, nystromChunk*s)
		return func(c int) error {
			rows := idx[c*nystromChunk : min(len(idx), (c+1)*nystromChunk)]
			dst := mat.NewDense(len(rows), s, buf[:len(rows)*s])
			if err := p.Block(dst, rows, landmarks); err != nil {
				return err
			}
			addColumns(sums[c*s:(c+1)*s], dst.RawMatrix().Data, s)
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return meanOfChunks(sums, s, len(idx)), nil
}

// weightDifferenceNorm2 returns ||v||² = Σ_a (#{a in x}/n − #{a in z}/m)² over the distinct
// indices a of x and z (points of a set of N), in O(N + n + m).
func weightDifferenceNorm2(N int, x, z []int) float64 {
	cx, cz := make([]int32, N), make([]int32, N)
	for _, i := range x {
		cx[i]++
	}
	for _, j := range z {
		cz[j]++
	}
	n, m := float64(len(x)), float64(len(z))
	var sum float64
	for _, idx := range [][]int{x, z} {
		for _, i := range idx {
			if cx[i] == 0 && cz[i] == 0 {
				continue // counted already
			}
			d := float64(cx[i])/n - float64(cz[i])/m
			sum += d * d
			cx[i], cz[i] = 0, 0
		}
	}
	return sum
}
