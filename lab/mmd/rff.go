package mmd

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// RFF is the random-Fourier-feature MMD of Zhao and Meng (2015), thesis §4.2: with s frequencies
// ω_j drawn from the kernel's spectral density and the map
// φ(x) = (1/√s)(cos ω_1ᵀx, …, cos ω_sᵀx, sin ω_1ᵀx, …, sin ω_sᵀx) ([lowrank.RFF.TransformCosSin]),
//
//	MMD²_RFF = ||(1/n) Σ_i φ(x_i) − (1/m) Σ_j φ(z_j)||²,
//
// the exact MMD² (eq. 4.2) for the approximate kernel k̂(x, z) = (1/s) Σ_j cos(ω_jᵀ(x − z)),
// whose expectation over the frequencies is k. (The thesis prints the factor √(2/s), which would
// make k̂ estimate 2k: an OCR or typing slip; 1/√s is Zhao and Meng's and Rahimi and Recht's.)
// Each of the s terms of the average lies in [0, 4], so by Hoeffding's inequality the estimate is
// within 4√(ln(2/δ)/(2s)) of the exact V-statistic with probability 1 − δ.
//
// Only shift-invariant kernels on vectors have such features: the points must be Vectors with a
// [kernel.Gaussian] or [kernel.Laplace] (l1) kernel; any other Points (graphs, a precomputed Gram
// matrix) or kernel is an error. Time O((n + m)sd), memory O(sd) plus about 5 MiB per core.
type RFF struct {
	// Features is the number s of random frequencies (the map has 2s columns); 0 selects
	// DefaultSize(min(n, m)).
	Features int
}

// Name returns "rff".
func (RFF) Name() string { return "rff" }

// rffChunk is the number of rows mapped at once: 8192 rows of 2s features stay in cache.
const rffChunk = 8192

// MMD2 draws the frequencies with [lowrank.NewRFFGaussian] or NewRFFLaplace(rng, d, s, σ) and
// returns the squared distance between the mean feature vectors of x and z, computed in chunks of
// rows on all cores and added in chunk order (independent of the number of goroutines).
//
// Errors: points that are not Vectors, a kernel other than Gaussian or Laplace, nil ctx or rng,
// empty samples, an index out of range, Features < 0, features whose memory exceeds the
// allocation limit (lab/internal/memlimit), cancellation.
func (r RFF) MMD2(ctx context.Context, rng *rand.Rand, p Points, x, z []int) (float64, error) {
	if err := checkSamples("RFF", ctx, p, x, z); err != nil {
		return 0, err
	}
	v, ok := p.(*Vectors)
	if !ok {
		return 0, fmt.Errorf("mmd: RFF: random Fourier features exist only for shift-invariant kernels on vectors (mmd.Vectors with a Gaussian or Laplace kernel), not for %T: use Nystrom, Block, Linear or Exact", p)
	}
	if err := checkRNG("RFF", rng); err != nil {
		return 0, err
	}
	s := r.Features
	if s == 0 {
		s = DefaultSize(min(len(x), len(z)))
	}
	if s < 0 {
		return 0, fmt.Errorf("mmd: RFF: %d features, want ≥ 1 (0 = DefaultSize)", s)
	}
	_, d := v.x.Dims()
	// The frequencies (d×s) and, per core, the features of one chunk of rows (rows×2s).
	rows := min(rffChunk, max(len(x), len(z)))
	if err := memlimit.Check("mmd: RFF", fmt.Sprintf("%d random features of %d-dimensional points", s, d), 8, s, d+2*rows*runtime.GOMAXPROCS(0)); err != nil {
		return 0, err
	}
	var features *lowrank.RFF
	var err error
	switch k := v.kernel.(type) {
	case kernel.Gaussian:
		features, err = lowrank.NewRFFGaussian(rng, d, s, k.Sigma)
	case *kernel.Gaussian:
		features, err = lowrank.NewRFFGaussian(rng, d, s, k.Sigma)
	case kernel.Laplace:
		features, err = lowrank.NewRFFLaplace(rng, d, s, k.Sigma)
	case *kernel.Laplace:
		features, err = lowrank.NewRFFLaplace(rng, d, s, k.Sigma)
	default:
		return 0, fmt.Errorf("mmd: RFF: the kernel %s is not shift-invariant with known random features (Gaussian or Laplace): use Nystrom, Block, Linear or Exact", v.kernel.Name())
	}
	if err != nil {
		return 0, fmt.Errorf("mmd: RFF: %w", err)
	}
	mx, err := meanFeatures(ctx, v, features, x)
	if err != nil {
		return 0, err
	}
	mz, err := meanFeatures(ctx, v, features, z)
	if err != nil {
		return 0, err
	}
	var sum float64
	for j, a := range mx {
		sum += (a - mz[j]) * (a - mz[j])
	}
	return finiteEstimate("RFF", sum)
}

// meanFeatures returns (1/|idx|) Σ_{i in idx} φ(x_i) for the cos/sin map of features.
func meanFeatures(ctx context.Context, v *Vectors, features *lowrank.RFF, idx []int) ([]float64, error) {
	cols := 2 * features.Features()
	chunks := (len(idx) + rffChunk - 1) / rffChunk
	sums := make([]float64, chunks*cols)
	err := forEach(ctx, chunks, func() func(int) error {
		return func(c int) error {
			rows, release := v.rows(idx[c*rffChunk : min(len(idx), (c+1)*rffChunk)])
			phi, err := features.TransformCosSin(rows)
			release()
			if err != nil {
				return fmt.Errorf("mmd: RFF: %w", err)
			}
			addColumns(sums[c*cols:(c+1)*cols], phi.RawMatrix().Data, cols)
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return meanOfChunks(sums, cols, len(idx)), nil
}

// addColumns adds the rows of the row-major matrix data (cols columns, contiguous) into sum.
func addColumns(sum, data []float64, cols int) {
	for r := 0; r < len(data); r += cols {
		for j, v := range data[r : r+cols] {
			sum[j] += v
		}
	}
}

// meanOfChunks adds the per-chunk column sums (consecutive runs of cols values) in chunk order and
// divides by count.
func meanOfChunks(sums []float64, cols, count int) []float64 {
	mean := make([]float64, cols)
	for c := 0; c < len(sums); c += cols {
		for j, v := range sums[c : c+cols] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(count)
	}
	return mean
}
