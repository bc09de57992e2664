package pursuit

import (
	"fmt"
	"math"
	"reflect"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// selector finds the atom most correlated with a residual, for one solve.
type selector struct {
	op      string
	dict    Dictionary
	dense   *DenseDictionary // non-nil: the matrix fast paths apply
	d, n    int
	norms   []float64
	weights [2][]float64 // per screenMode: 1, or 1/‖d_j‖ (0 for zero atoms)
	corr    []float64    // Dᵀr for the exact search
	unit    []float64    // unit coefficient vector for atoms read through Apply
	buf     screenBuffers
}

// newSelector validates dict and y for solver op and prepares the searches.
func newSelector(op string, dict Dictionary, y []float64) (*selector, error) {
	if dict == nil {
		return nil, fmt.Errorf("pursuit: %s: dictionary is nil", op)
	}
	if v := reflect.ValueOf(dict); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("pursuit: %s: dictionary is a nil %T", op, dict)
	}
	d, n := dict.Dims()
	if d <= 0 || n <= 0 {
		return nil, fmt.Errorf("pursuit: %s: dictionary is %d×%d, want d > 0 and n > 0", op, d, n)
	}
	if len(y) != d {
		return nil, laberr.Errorf(laberr.ErrShape, "pursuit: %s: len(y) = %d, want the signal dimension d = %d", op, len(y), d)
	}
	if i := firstNonFinite(y); i >= 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: y[%d] = %g, want finite values", op, i, y[i])
	}
	if nrm := norm2(y); math.IsInf(nrm, 0) {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: ‖y‖ overflows (entries near MaxFloat64); rescale y", op)
	}
	s := &selector{op: op, dict: dict, d: d, n: n, norms: make([]float64, n)}
	if err := dict.ColumnNorms(s.norms); err != nil {
		return nil, fmt.Errorf("pursuit: %s: column norms: %w", op, err)
	}
	for j, v := range s.norms {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("pursuit: %s: norm of atom %d = %g, want a finite value ≥ 0", op, j, v)
		}
	}
	raw := make([]float64, n)
	normalized := make([]float64, n)
	for j, v := range s.norms {
		raw[j] = 1
		if v > 0 {
			normalized[j] = 1 / v
		}
	}
	s.weights = [2][]float64{raw, normalized}
	if dd := denseOf(dict); dd != nil {
		s.dense = dd
		if dd.screen != nil {
			s.buf = newScreenBuffers(dd.screen, n)
		}
	}
	return s, nil
}

// denseOf returns the matrix behind dict when it is a DenseDictionary or a GramDictionary (whose
// fast paths the selector then takes), nil otherwise.
func denseOf(dict Dictionary) *DenseDictionary {
	switch v := dict.(type) {
	case *DenseDictionary:
		return v
	case *GramDictionary:
		if v != nil {
			return &v.DenseDictionary
		}
	}
	return nil
}

// gramOf returns dict as a GramDictionary whose Gram matrix is there (one made by
// NewGramDictionary), nil otherwise: a GramDictionary assembled by hand without its matrix is
// used as its DenseDictionary.
func gramOf(dict Dictionary) *GramDictionary {
	if gd, ok := dict.(*GramDictionary); ok && gd != nil && gd.n > 0 && len(gd.gram) == gd.n*gd.n {
		return gd
	}
	return nil
}

// best returns the atom j maximising w_j·⟨d_j, r⟩ (signed) or its absolute value, the smallest
// index on ties, and its unweighted correlation ⟨d_j, r⟩; atom −1 when no atom has a non-zero
// weighted correlation (abs) or a non-zero weight. r must be finite and non-zero.
func (s *selector) best(r []float64, mode screenMode, signed bool) (int, float64, error) {
	weights := s.weights[mode]
	if s.dense != nil && s.dense.screen != nil {
		if atom, c, ok := s.dense.screen.best(s.dense, r, mode, weights, signed, &s.buf); ok {
			return atom, c, nil
		}
	}
	if s.corr == nil {
		s.corr = make([]float64, s.n)
	}
	if s.dense != nil {
		s.dense.correlations(s.corr, r)
	} else if err := s.dict.ApplyTranspose(s.corr, r); err != nil {
		return -1, 0, fmt.Errorf("pursuit: %s: ApplyTranspose: %w", s.op, err)
	}
	top := newBestAtom(signed)
	for j, c := range s.corr {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return -1, 0, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: correlation with atom %d = %g, want finite values", s.op, j, c)
		}
		if weights[j] == 0 {
			continue
		}
		top.offer(j, weights[j], c)
	}
	atom, corr := top.result()
	return atom, corr, nil
}

// bestAtom keeps, among the atoms offered in increasing index order, the one of largest
// weighted correlation w_j·c_j (signed) or |w_j·c_j|, the first one on ties: the selection rule
// of the exact search and of the screened one, written once so that both pick the same atom.
type bestAtom struct {
	signed      bool
	atom        int
	value, corr float64
}

func newBestAtom(signed bool) bestAtom {
	return bestAtom{signed: signed, atom: -1, value: math.Inf(-1)}
}

// offer considers atom j, of weight w and unweighted correlation c.
func (b *bestAtom) offer(j int, w, c float64) {
	v := w * c
	if !b.signed {
		v = math.Abs(v)
	}
	if v > b.value {
		b.atom, b.value, b.corr = j, v, c
	}
}

// result returns the atom kept and its unweighted correlation; atom −1 when none was offered,
// or (unsigned) when every weighted correlation offered is zero.
func (b *bestAtom) result() (atom int, corr float64) {
	if !b.signed && b.value == 0 {
		return -1, 0
	}
	return b.atom, b.corr
}

// atom copies atom j into dst: directly for matrices and AtomReaders, otherwise as D·e_j.
func (s *selector) atom(dst []float64, j int) error {
	switch {
	case s.dense != nil:
		copy(dst, s.dense.atom(j))
	default:
		if ar, ok := s.dict.(AtomReader); ok {
			if err := ar.Atom(dst, j); err != nil {
				return fmt.Errorf("pursuit: %s: atom %d: %w", s.op, j, err)
			}
		} else {
			if s.unit == nil {
				s.unit = make([]float64, s.n)
			}
			s.unit[j] = 1
			err := s.dict.Apply(dst, s.unit)
			s.unit[j] = 0
			if err != nil {
				return fmt.Errorf("pursuit: %s: atom %d: %w", s.op, j, err)
			}
		}
		if i := firstNonFinite(dst); i >= 0 {
			return laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: atom %d has entry %d = %g, want finite values", s.op, j, i, dst[i])
		}
	}
	return nil
}
