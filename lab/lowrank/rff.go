package lowrank

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// RFF is a random Fourier feature map (Rahimi and Recht 2007; the lecture notes and the HSE lecture) for a
// shift-invariant kernel k(x, z) = E_ω[cos(ωᵀ(x − z))], ω drawn from the kernel's spectral
// density (Bochner's theorem). With D frequencies ω_j (the columns of a d×D matrix) and phases
// b_j ~ U[0, 2π):
//
//   - Transform gives Φ(x) = √(2/D) cos(ωᵀx + b), D columns (scikit-learn's RBFSampler);
//   - TransformCosSin gives Φ(x) = (1/√D)(cos ωᵀx, sin ωᵀx), 2D columns, the map of the HSE
//     lecture, whose inner products Σ_j cos(ω_jᵀ(x − z))/D have a lower variance.
//
// Each term of Φ(x)·Φ(z) is bounded, so the estimate converges at the O(1/√D) rate (Hoeffding).
// Memory: the d×D frequencies and D phases; Transform adds only its result.
type RFF struct {
	frequencies *mat.Dense // ω, d×D
	phases      []float64  // b, D
}

// NewRFFGaussian draws features random features for the Gaussian kernel
// exp(−||x − z||²/(2σ²)) = exp(−γ||x − z||²) on d-dimensional inputs: ω ~ N(0, σ⁻² I) (that is
// N(0, 2γI), the lecture notes and scikit-learn's RBFSampler) and b ~ U[0, 2π). The d·D normal draws come
// first (row by row of ω), then the D phases.
//
// Errors: nil rng, d < 1, features < 1, sigma not finite and > 0, a d×features matrix above the
// allocation limit (lab/internal/memlimit).
func NewRFFGaussian(rng *rand.Rand, d, features int, sigma float64) (*RFF, error) {
	if err := checkRFF("NewRFFGaussian", rng, d, features, sigma); err != nil {
		return nil, err
	}
	inv := 1 / sigma
	return newRFF(rng, d, features, func() float64 { return rng.NormFloat64() * inv }), nil
}

// NewRFFLaplace draws random features for the Laplace kernel with the l1 norm,
// exp(−||x − z||₁/σ) (the form of the lecture notes and of [kernel.Laplace]). The kernel is a product over
// coordinates of exp(−|δ_p|/σ), whose spectral density is the Cauchy density of scale 1/σ,
// σ/(π(1 + σ²ω²)); so each ω_ij = tan(π(u − 1/2))/σ with u ~ U(0, 1), and b ~ U[0, 2π) as for
// the Gaussian. The lecture notes print the density as 1/(π(1 + ω_p²/2γ)), an OCR-garbled form: for
// exp(−γ|δ|) the Cauchy scale is γ (here 1/σ). The Laplace kernel with the Euclidean norm would
// need a multivariate Cauchy law instead; it is not offered.
//
// Errors as for [NewRFFGaussian].
func NewRFFLaplace(rng *rand.Rand, d, features int, sigma float64) (*RFF, error) {
	if err := checkRFF("NewRFFLaplace", rng, d, features, sigma); err != nil {
		return nil, err
	}
	inv := 1 / sigma
	return newRFF(rng, d, features, func() float64 { return math.Tan(math.Pi*(rng.Float64()-0.5)) * inv }), nil
}

func checkRFF(op string, rng *rand.Rand, d, features int, sigma float64) error {
	switch {
	case rng == nil:
		return fmt.Errorf("lowrank: %s: %w", op, laberr.ErrNilRand)
	case d < 1:
		return fmt.Errorf("lowrank: %s: input dimension %d, want at least 1", op, d)
	case features < 1:
		return fmt.Errorf("lowrank: %s: %d features, want at least 1", op, features)
	case !(sigma > 0) || math.IsInf(sigma, 0) || math.IsInf(1/sigma, 0):
		return fmt.Errorf("lowrank: %s: bandwidth sigma = %g, want a finite value > 0", op, sigma)
	}
	return memlimit.Check("lowrank: "+op, fmt.Sprintf("the %d×%d frequencies", d, features), 8, d+1, features)
}

// NewRFF returns the feature map with the given frequencies ω (d×D, one column per frequency)
// and phases b (D values), both copied: to reuse or reproduce a draw (read it back with
// Frequencies and Phases), or to use frequencies drawn from another spectral density. Like
// scikit-learn's RBFSampler.random_weights_ and random_offset_.
//
// Errors: nil or empty frequencies, NaN or ±Inf in either, len(phases) ≠ D.
func NewRFF(frequencies mat.Matrix, phases []float64) (*RFF, error) {
	const op = "NewRFF"
	omega, err := finiteDense(op, "frequencies", frequencies)
	if err != nil {
		return nil, err
	}
	_, features := omega.Dims()
	if len(phases) != features {
		return nil, laberr.Errorf(laberr.ErrShape, "lowrank: %s: %d phases for %d frequencies, want one per frequency (column)", op, len(phases), features)
	}
	for j, v := range phases {
		if v-v != 0 {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "lowrank: %s: phase %d = %g, want finite values", op, j, v)
		}
	}
	if omega == frequencies {
		omega = mat.DenseCopyOf(omega)
	}
	return &RFF{frequencies: omega, phases: append([]float64(nil), phases...)}, nil
}

// Frequencies returns a copy of ω (d×D, one column per frequency); nil for the zero RFF.
func (r *RFF) Frequencies() *mat.Dense {
	if r == nil || r.frequencies == nil {
		return nil
	}
	return mat.DenseCopyOf(r.frequencies)
}

// Phases returns a copy of the phases b (D values; TransformCosSin does not use them).
func (r *RFF) Phases() []float64 {
	if r == nil {
		return nil
	}
	return append([]float64(nil), r.phases...)
}

func newRFF(rng *rand.Rand, d, features int, frequency func() float64) *RFF {
	omega := mat.NewDense(d, features, nil)
	raw := omega.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] = frequency()
	}
	phases := make([]float64, features)
	for j := range phases {
		phases[j] = 2 * math.Pi * rng.Float64()
	}
	return &RFF{frequencies: omega, phases: phases}
}

// Features returns D, the number of random frequencies.
func (r *RFF) Features() int {
	if r == nil {
		return 0
	}
	return len(r.phases)
}

// Transform returns √(2/D) cos(Xω + b), n×D, for the rows of X (n×d). Errors as for
// TransformInto.
func (r *RFF) Transform(X mat.Matrix) (*mat.Dense, error) {
	var dst mat.Dense
	if err := r.transformInto("RFF.Transform", &dst, X, false); err != nil {
		return nil, err
	}
	return &dst, nil
}

// TransformInto writes √(2/D) cos(Xω + b) into dst, which must be n×D or empty (then resized),
// so that loops can reuse one large buffer; dst must not share memory with X. Rows are computed
// in blocks on all cores: one matrix product (GEMM) and one batched cosine per block.
// Errors: an RFF not made by [NewRFF], [NewRFFGaussian] or [NewRFFLaplace], nil dst, nil or empty X,
// NaN or ±Inf, X with a column count other than d, a dst of the wrong shape (left unchanged
// then), and ωᵀx so large that it overflows (the cosine of ±Inf is NaN; dst unspecified then).
func (r *RFF) TransformInto(dst *mat.Dense, X mat.Matrix) error {
	return r.transformInto("RFF.TransformInto", dst, X, false)
}

// TransformCosSin returns (1/√D)(cos Xω, sin Xω), n×2D: columns j < D hold the cosines and
// columns D + j the sines (the phases b are not used). Errors as for TransformInto.
func (r *RFF) TransformCosSin(X mat.Matrix) (*mat.Dense, error) {
	var dst mat.Dense
	if err := r.transformInto("RFF.TransformCosSin", &dst, X, true); err != nil {
		return nil, err
	}
	return &dst, nil
}

// rffBlockElements is the size of the row blocks of the feature maps (2 MiB): they stay in cache
// between the product and the cosine.
const rffBlockElements = 1 << 18

func (r *RFF) transformInto(op string, dst *mat.Dense, X mat.Matrix, cosSin bool) error {
	if r == nil || r.frequencies == nil {
		return laberr.Errorf(laberr.ErrNotFitted, "lowrank: %s: no frequencies drawn (make the RFF with NewRFF, NewRFFGaussian or NewRFFLaplace)", op)
	}
	d, features := r.frequencies.Dims()
	cols := features
	if cosSin {
		cols = 2 * features
	}
	x, err := featureMapArgs(op, dst, X, d, "the frequencies", cols)
	if err != nil {
		return err
	}
	n, _ := x.Dims()
	xRaw, out, omega := x.RawMatrix(), dst.RawMatrix(), r.frequencies.RawMatrix()
	blockRows := max(1, min(n, rffBlockElements/cols))
	return parallel.Blocks(n, blockRows, func(_, i0, i1 int) error {
		// out[i0:i1, :D] = X[i0:i1] · ω
		block := rowBlock(out, i0, i1)
		block.Cols = features
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, rowBlock(xRaw, i0, i1), omega, 0, block)
		for i := i0; i < i1; i++ {
			row := out.Data[i*out.Stride : i*out.Stride+cols]
			if cosSin {
				sinCosScale(row[:features], row[features:], 1/math.Sqrt(float64(features)))
			} else {
				cosShiftScale(row, r.phases, math.Sqrt(2/float64(features)))
			}
			for j, v := range row {
				if v-v != 0 {
					return laberr.Errorf(laberr.ErrNonFinite, "lowrank: %s: feature %d of row %d is %g: ωᵀx overflows; rescale X", op, j, i, v)
				}
			}
		}
		return nil
	})
}
