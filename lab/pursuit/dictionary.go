package pursuit

import (
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// Dictionary is a linear operator D: ℝⁿ → ℝᵈ whose n columns d_1, …, d_n are the atoms. The
// solvers need only these products, so a dictionary can be a matrix ([DenseDictionary]) or any
// operator that is cheaper to apply than to store (a fast transform, a product of factors).
// The solvers call the methods from one goroutine at a time.
type Dictionary interface {
	// Dims returns the signal dimension d and the number of atoms n.
	Dims() (d, n int)
	// Apply sets dst (length d) to D·coef for coef of length n.
	Apply(dst, coef []float64) error
	// ApplyTranspose sets dst (length n) to Dᵀ·r for r of length d: the correlation
	// ⟨d_j, r⟩ of r with every atom.
	ApplyTranspose(dst, r []float64) error
	// ColumnNorms sets dst (length n) to the Euclidean norms ‖d_j‖₂ of the atoms.
	ColumnNorms(dst []float64) error
}

// AtomReader is implemented by dictionaries that can copy out one atom more cheaply than Apply
// on a unit vector, which is what the solvers use otherwise.
type AtomReader interface {
	// Atom copies atom j into dst (length d).
	Atom(dst []float64, j int) error
}

// DenseDictionary is a dictionary held as an explicit matrix, atom by atom (each atom
// contiguous). It needs 8·d·n bytes, plus d·n bytes for an 8-bit copy that speeds up the search
// for the atom most correlated with a residual on amd64 processors with AVX2 and FMA (see the
// package documentation); both are built once by the constructor. It is
// read-only afterwards, so any number of solvers may use it at the same time.
type DenseDictionary struct {
	d, n   int
	atoms  []float64 // atom j is atoms[j*d : (j+1)*d]
	norms  []float64
	screen *correlationScreen // nil when the 8-bit kernel is unavailable
}

// NewDenseDictionary copies the d×n matrix m, whose columns are the atoms, into a dictionary.
// A transposed matrix (m = a.T() for an n×d *mat.Dense a whose rows are the atoms) is copied
// without transposition. Every entry must be finite. Time O(dn), memory as for
// [DenseDictionary]; m is not retained.
func NewDenseDictionary(m mat.Matrix) (*DenseDictionary, error) {
	if m == nil {
		return nil, fmt.Errorf("pursuit: NewDenseDictionary: matrix is nil")
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("pursuit: NewDenseDictionary: matrix is a nil %T", m)
	}
	d, n := m.Dims()
	if d == 0 || n == 0 {
		return nil, fmt.Errorf("pursuit: NewDenseDictionary: matrix is empty (%d×%d)", d, n)
	}
	// A lazy matrix may declare dimensions whose copy no machine holds.
	if err := memlimit.Check("pursuit: NewDenseDictionary", fmt.Sprintf("the %d×%d dictionary", d, n), 8, d, n); err != nil {
		return nil, err
	}
	var fill func(atoms []float64, j0, j1 int)
	switch t := m.(type) {
	case *mat.Dense:
		// Transposition by tiles of 8 rows × 64 atoms: each atom receives a whole cache line
		// of 8 values at a time, read from a 4 KiB tile that stays in cache.
		raw := t.RawMatrix()
		fill = func(atoms []float64, j0, j1 int) {
			for i0 := 0; i0 < d; i0 += 8 {
				i1 := min(d, i0+8)
				for j := j0; j < j1; j++ {
					dst := atoms[j*d+i0 : j*d+i1]
					for k := range dst {
						dst[k] = raw.Data[(i0+k)*raw.Stride+j]
					}
				}
			}
		}
	case mat.Transpose:
		if a, ok := t.Matrix.(*mat.Dense); ok {
			raw := a.RawMatrix()
			fill = func(atoms []float64, j0, j1 int) {
				for j := j0; j < j1; j++ {
					copy(atoms[j*d:(j+1)*d], raw.Data[j*raw.Stride:j*raw.Stride+d])
				}
			}
		}
	}
	if fill == nil {
		fill = func(atoms []float64, j0, j1 int) {
			for j := j0; j < j1; j++ {
				for i := range d {
					atoms[j*d+i] = m.At(i, j)
				}
			}
		}
	}
	dd, bad := buildDense(d, n, func(atoms []float64, j0, j1 int) int {
		fill(atoms, j0, j1)
		for k, v := range atoms[j0*d : j1*d] {
			if v-v != 0 { // NaN or ±Inf
				return j0*d + k
			}
		}
		return -1
	})
	if bad >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: NewDenseDictionary: entry [%d,%d] = %g, want finite values", bad%d, bad/d, m.At(bad%d, bad/d))
	}
	return dd, nil
}

// buildBlock is the number of atoms per task when a DenseDictionary is built, fixed so that
// random atoms do not depend on the number of goroutines.
const buildBlock = 64

// buildDense allocates a d×n DenseDictionary and builds it on all cores, block by block: fill
// writes atoms j0..j1−1 into the atom-major storage and returns the storage index of a
// non-finite value (or −1), then the block's norms and 8-bit copy are computed while
// its atoms are still in cache. It returns the dictionary, or the smallest offending index.
func buildDense(d, n int, fill func(atoms []float64, j0, j1 int) int) (*DenseDictionary, int) {
	dd := &DenseDictionary{d: d, n: n, atoms: make([]float64, d*n), norms: make([]float64, n)}
	var sb *screenBuilder
	if screenKernelAvailable {
		sb = newScreenBuilder(d, n)
	}
	blocks := (n + buildBlock - 1) / buildBlock
	badAt := make([]int, blocks)
	parallel.For(blocks, func(_, b int) {
		j0, j1 := b*buildBlock, min(n, (b+1)*buildBlock)
		if badAt[b] = fill(dd.atoms, j0, j1); badAt[b] >= 0 {
			return
		}
		for j := j0; j < j1; j++ {
			dd.norms[j] = norm2(dd.atom(j))
			if sb != nil {
				sb.encode(j, dd.atom(j))
			}
		}
	})
	for _, bad := range badAt {
		if bad >= 0 {
			return nil, bad
		}
	}
	if sb != nil {
		dd.screen = sb.finish(dd.norms)
	}
	return dd, -1
}

// NewGaussianDictionary draws a d×n dictionary of independent standard normal entries and
// scales every atom to unit norm (the random dictionaries of the thesis's §5.4). The atoms are
// drawn on all cores, 64 at a time, each block from its own stream seeded from rng, so the
// result depends on rng only, not on the number of goroutines. Memory as for [DenseDictionary].
func NewGaussianDictionary(rng *rand.Rand, d, n int) (*DenseDictionary, error) {
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "pursuit: NewGaussianDictionary: rng is nil")
	}
	if d <= 0 || n <= 0 {
		return nil, fmt.Errorf("pursuit: NewGaussianDictionary: size %d×%d, want d > 0 and n > 0", d, n)
	}
	if err := memlimit.Check("pursuit: NewGaussianDictionary", fmt.Sprintf("the %d×%d dictionary", d, n), 8, d, n); err != nil {
		return nil, err
	}
	seed := rng.Uint64()
	dd, _ := buildDense(d, n, func(atoms []float64, j0, j1 int) int {
		stream := rand.New(rand.NewPCG(seed, uint64(j0/buildBlock)))
		for j := j0; j < j1; j++ {
			atom := atoms[j*d : (j+1)*d]
			for {
				for i := range atom {
					atom[i] = stream.NormFloat64()
				}
				if nrm := norm2(atom); nrm > 0 {
					blas64.Scal(1/nrm, blas64.Vector{N: d, Inc: 1, Data: atom})
					break
				}
			}
		}
		return -1
	})
	return dd, nil
}

// Dims returns the signal dimension d and the number of atoms n.
func (dd *DenseDictionary) Dims() (d, n int) { return dd.d, dd.n }

// atom returns atom j (shared storage, not to be modified).
func (dd *DenseDictionary) atom(j int) []float64 { return dd.atoms[j*dd.d : (j+1)*dd.d] }

// Atom copies atom j into dst (length d).
func (dd *DenseDictionary) Atom(dst []float64, j int) error {
	if j < 0 || j >= dd.n {
		return fmt.Errorf("pursuit: DenseDictionary.Atom: atom %d, want an index in [0, %d)", j, dd.n)
	}
	if len(dst) != dd.d {
		return laberr.Errorf(laberr.ErrShape, "pursuit: DenseDictionary.Atom: len(dst) = %d, want d = %d", len(dst), dd.d)
	}
	copy(dst, dd.atom(j))
	return nil
}

// Apply sets dst (length d) to D·coef (coef of length n), skipping zero coefficients.
func (dd *DenseDictionary) Apply(dst, coef []float64) error {
	if len(dst) != dd.d || len(coef) != dd.n {
		return laberr.Errorf(laberr.ErrShape, "pursuit: DenseDictionary.Apply: len(dst) = %d, len(coef) = %d, want %d and %d", len(dst), len(coef), dd.d, dd.n)
	}
	clear(dst)
	out := blas64.Vector{N: dd.d, Inc: 1, Data: dst}
	for j, c := range coef {
		if c != 0 {
			blas64.Axpy(c, blas64.Vector{N: dd.d, Inc: 1, Data: dd.atom(j)}, out)
		}
	}
	return nil
}

// correlationBlock is the number of atoms per task in the parallel products with all atoms,
// fixed so that results do not depend on the number of goroutines.
const correlationBlock = 256

// ApplyTranspose sets dst (length n) to Dᵀ·r (r of length d) on all cores.
func (dd *DenseDictionary) ApplyTranspose(dst, r []float64) error {
	if len(dst) != dd.n || len(r) != dd.d {
		return laberr.Errorf(laberr.ErrShape, "pursuit: DenseDictionary.ApplyTranspose: len(dst) = %d, len(r) = %d, want %d and %d", len(dst), len(r), dd.n, dd.d)
	}
	dd.correlations(dst, r)
	return nil
}

// correlations sets dst[j] = ⟨d_j, r⟩, one dot product per atom (the same computation as the
// screened search's verification, so both searches see identical values), on all cores.
func (dd *DenseDictionary) correlations(dst, r []float64) {
	parallel.For((dd.n+correlationBlock-1)/correlationBlock, func(_, b int) {
		for j := b * correlationBlock; j < min(dd.n, (b+1)*correlationBlock); j++ {
			dst[j] = dot(dd.atom(j), r)
		}
	})
}

// ColumnNorms sets dst (length n) to the atom norms.
func (dd *DenseDictionary) ColumnNorms(dst []float64) error {
	if len(dst) != dd.n {
		return laberr.Errorf(laberr.ErrShape, "pursuit: DenseDictionary.ColumnNorms: len(dst) = %d, want n = %d", len(dst), dd.n)
	}
	copy(dst, dd.norms)
	return nil
}

// Matrix returns the dictionary as a d×n gonum matrix (a view of its storage, not a copy), for
// use with gonum/mat; it must not be modified. It is nil for the zero DenseDictionary (one not
// made by [NewDenseDictionary] or [NewGaussianDictionary]).
func (dd *DenseDictionary) Matrix() mat.Matrix {
	if dd == nil || dd.n == 0 || dd.d == 0 {
		return nil
	}
	return mat.NewDense(dd.n, dd.d, dd.atoms).T()
}
