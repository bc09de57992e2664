package pursuit

import (
	"container/heap"
	"fmt"
	"math"
	"reflect"
	"sort"

	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// Incoherence holds the coherence μ(D) and the Babel function μ₁(D, m) of a dictionary, measured
// on its normalised atoms (thesis Definitions 9 and 10, after Mallat & Zhang 1993 and Tropp
// 2004):
//
//	μ(D)     = max_{i≠j} |⟨v_i, v_j⟩|,
//	μ₁(D, m) = max_{|Λ|=m} max_{j∉Λ} Σ_{i∈Λ} |⟨v_i, v_j⟩|,
//
// the largest sum of the m largest |⟨v_i, v_j⟩| (i ≠ j) over the atoms v_j. μ₁(D, 1) = μ(D),
// and Tropp's bound μ₁(D, m) ≤ m·μ(D) holds for every m.
type Incoherence struct {
	// Coherence is μ(D).
	Coherence float64
	// babel[m−1] = μ₁(D, m) for m = 1..len(babel).
	babel []float64
}

// Babel returns μ₁(D, m) and exact = true for m up to the maxM given to [MeasureIncoherence]
// (μ₁(D, 0) = 0, the empty sum); beyond, it returns Tropp's bound m·μ(D) and exact = false.
func (c *Incoherence) Babel(m int) (value float64, exact bool) {
	switch {
	case m <= 0:
		return 0, true
	case m <= len(c.babel):
		return c.babel[m-1], true
	}
	return float64(m) * c.Coherence, false
}

// incoherenceBlock is the number of Gram rows computed at once by MeasureIncoherence.
const incoherenceBlock = 64

// MeasureIncoherence computes μ(D) and μ₁(D, m) for m = 1..maxM (0 ≤ maxM < n) exactly, in one
// pass over the Gram matrix of the normalised atoms. Every atom must be non-zero. For larger m,
// Babel returns the bound m·μ(D).
//
// Where the Gram matrix comes from decides the cost:
//   - a [GramDictionary] holds it (one symmetric rank-d update, d·n² multiply-adds): its rows are
//     read, O(n² log maxM) to rank them, on all cores;
//   - a [DenseDictionary]: streamed by blocks of 64 rows, each a general matrix product on all
//     cores, never formed whole (memory O(64·n) per core): 2·d·n² multiply-adds, since the
//     Babel function ranks whole rows (d·n² for maxM = 0, which needs one triangle);
//   - any other Dictionary: n calls to ApplyTranspose, sequentially.
//
// The two matrix paths agree to rounding (their products sum in different orders).
func MeasureIncoherence(dict Dictionary, maxM int) (*Incoherence, error) {
	const op = "MeasureIncoherence"
	sel, err := incoherenceSelector(op, dict)
	if err != nil {
		return nil, err
	}
	n := sel.n
	if n < 2 {
		return nil, fmt.Errorf("pursuit: %s: the dictionary has %d atom, want at least 2", op, n)
	}
	if maxM < 0 || maxM >= n {
		return nil, fmt.Errorf("pursuit: %s: maxM = %d, want 0 ≤ maxM < n = %d", op, maxM, n)
	}
	var parts []*rowRanker
	if dd := sel.dense; dd != nil {
		gd := gramOf(dict)
		blocks := (n + incoherenceBlock - 1) / incoherenceBlock
		parts = make([]*rowRanker, blocks)
		work := make([][]float64, parallel.Workers(blocks))
		parallel.For(blocks, func(worker, b int) {
			i0, i1 := b*incoherenceBlock, min(n, (b+1)*incoherenceBlock)
			// μ alone needs only the columns j ≥ i0 (the Gram matrix is symmetric), which
			// halves the work of a streamed pass; the Babel function ranks whole rows.
			c0 := 0
			if maxM == 0 {
				c0 = i0
			}
			cols := n - c0
			// row(i) is ⟨d_i, d_j⟩ for j = c0..n−1.
			var row func(i int) []float64
			if gd != nil {
				row = func(i int) []float64 { return gd.row(i)[c0:] }
			} else {
				if work[worker] == nil {
					work[worker] = make([]float64, incoherenceBlock*n)
				}
				g := work[worker][:(i1-i0)*cols]
				blas64.Gemm(blas.NoTrans, blas.Trans, 1,
					blas64.General{Rows: i1 - i0, Cols: dd.d, Stride: dd.d, Data: dd.atoms[i0*dd.d : i1*dd.d]},
					blas64.General{Rows: cols, Cols: dd.d, Stride: dd.d, Data: dd.atoms[c0*dd.d:]},
					0, blas64.General{Rows: i1 - i0, Cols: cols, Stride: cols, Data: g})
				row = func(i int) []float64 { return g[(i-i0)*cols : (i-i0+1)*cols] }
			}
			parts[b] = newRowRanker(maxM)
			for i := i0; i < i1; i++ {
				parts[b].add(row(i), c0, i, sel.norms)
			}
		})
	} else {
		// One Gram row per ApplyTranspose, sequentially: the operator need not be safe for
		// concurrent use.
		row := make([]float64, n)
		atom := make([]float64, sel.d)
		ranker := newRowRanker(maxM)
		for i := range n {
			if err := sel.atom(atom, i); err != nil {
				return nil, err
			}
			if err := dict.ApplyTranspose(row, atom); err != nil {
				return nil, fmt.Errorf("pursuit: %s: ApplyTranspose: %w", op, err)
			}
			ranker.add(row, 0, i, sel.norms)
		}
		parts = []*rowRanker{ranker}
	}
	inc := &Incoherence{babel: make([]float64, maxM)}
	for _, p := range parts {
		if p.nonFinite {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: the Gram matrix has non-finite entries", op)
		}
		inc.Coherence = max(inc.Coherence, p.coherence)
		for m := range maxM {
			inc.babel[m] = max(inc.babel[m], p.babel[m])
		}
	}
	return inc, nil
}

// rowRanker accumulates μ and μ₁(·, m), m ≤ maxM, over Gram rows.
type rowRanker struct {
	maxM      int
	coherence float64
	babel     []float64 // babel[m−1]: largest sum of m off-diagonal entries seen in one row
	nonFinite bool
	top       minHeap
	largest   []float64
}

func newRowRanker(maxM int) *rowRanker {
	return &rowRanker{maxM: maxM, babel: make([]float64, maxM), largest: make([]float64, 0, maxM)}
}

// add takes Gram row i into account: row[l] = ⟨d_i, d_{first+l}⟩ (unnormalised).
func (rr *rowRanker) add(row []float64, first, i int, norms []float64) {
	rr.top = rr.top[:0]
	for l, v := range row {
		j := first + l
		if j == i {
			continue
		}
		a := math.Abs(v) / (norms[i] * norms[j])
		if math.IsNaN(a) || math.IsInf(a, 0) {
			rr.nonFinite = true
			continue
		}
		rr.coherence = max(rr.coherence, a)
		if rr.maxM == 0 {
			continue
		}
		if rr.top.Len() < rr.maxM {
			heap.Push(&rr.top, a)
		} else if a > rr.top[0] {
			rr.top[0] = a
			heap.Fix(&rr.top, 0)
		}
	}
	rr.largest = append(rr.largest[:0], rr.top...)
	sort.Sort(sort.Reverse(sort.Float64Slice(rr.largest)))
	sum := 0.0
	for m, v := range rr.largest {
		sum += v
		rr.babel[m] = max(rr.babel[m], sum)
	}
}

// incoherenceSelector validates dict for the coherence measures: finite, non-zero atoms.
func incoherenceSelector(op string, dict Dictionary) (*selector, error) {
	if dict == nil {
		return nil, fmt.Errorf("pursuit: %s: dictionary is nil", op)
	}
	if v := reflect.ValueOf(dict); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("pursuit: %s: dictionary is a nil %T", op, dict)
	}
	d, _ := dict.Dims()
	sel, err := newSelector(op, dict, make([]float64, max(d, 0)))
	if err != nil {
		return nil, err
	}
	for j, v := range sel.norms {
		if v == 0 {
			return nil, fmt.Errorf("pursuit: %s: atom %d is zero, want non-zero atoms (the measures normalise them)", op, j)
		}
	}
	return sel, nil
}

// minHeap is a min-heap of float64 (container/heap): the m largest values seen, smallest on top.
type minHeap []float64

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *minHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// ExactRecoveryCondition returns Tropp's (2004) exact-recovery quantity for a support Λ,
//
//	ERC(Λ) = max_{i∉Λ} ‖D_Λ⁺ v_i‖₁,
//
// on the normalised atoms v_i, and the atom i attaining it. The condition holds when ERC(Λ) < 1:
// then OMP recovers every signal supported on Λ in |Λ| steps, matching pursuit converges
// exponentially (Gribonval & Vandergheynst 2006) and Frank-Wolfe selects only atoms of Λ (thesis
// Theorem 4). The support's atoms must be distinct, non-zero and linearly independent; zero
// atoms outside Λ contribute 0.
//
// D_Λ⁺ v = R⁻¹Qᵀv from a QR factorisation of D_Λ. Time O(d·m·n) for m = |Λ| (m passes of
// ApplyTranspose, or one matrix product for a [DenseDictionary]); memory O(m·(d + n)).
func ExactRecoveryCondition(dict Dictionary, support []int) (value float64, worstAtom int, err error) {
	const op = "ExactRecoveryCondition"
	if dict == nil {
		return 0, -1, fmt.Errorf("pursuit: %s: dictionary is nil", op)
	}
	if v := reflect.ValueOf(dict); v.Kind() == reflect.Pointer && v.IsNil() {
		return 0, -1, fmt.Errorf("pursuit: %s: dictionary is a nil %T", op, dict)
	}
	d, _ := dict.Dims()
	sel, err := newSelector(op, dict, make([]float64, max(d, 0)))
	if err != nil {
		return 0, -1, err
	}
	n, m := sel.n, len(support)
	if m == 0 || m > d || m >= n {
		return 0, -1, fmt.Errorf("pursuit: %s: support of %d atoms, want 1 ≤ |Λ| ≤ d = %d and |Λ| < n = %d", op, m, d, n)
	}
	inSupport := make([]bool, n)
	qr := newUpdatableQR(d, m)
	atom := make([]float64, d)
	for pos, j := range support {
		if j < 0 || j >= n {
			return 0, -1, fmt.Errorf("pursuit: %s: support[%d] = %d, want an atom in [0, %d)", op, pos, j, n)
		}
		if inSupport[j] {
			return 0, -1, fmt.Errorf("pursuit: %s: support[%d] = %d appears twice", op, pos, j)
		}
		inSupport[j] = true
		if sel.norms[j] == 0 {
			return 0, -1, fmt.Errorf("pursuit: %s: support atom %d is zero", op, j)
		}
		if err := sel.atom(atom, j); err != nil {
			return 0, -1, err
		}
		blas64.Scal(1/sel.norms[j], blas64.Vector{N: d, Inc: 1, Data: atom})
		if !qr.append(atom) {
			return 0, -1, fmt.Errorf("pursuit: %s: support atom %d is linearly dependent on the previous ones", op, j)
		}
	}
	// proj = Q·D (m×n): Qᵀv_i for every atom, then R⁻¹ on every column.
	proj := make([]float64, m*n)
	if sel.dense != nil {
		dd := sel.dense
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			blas64.General{Rows: m, Cols: d, Stride: d, Data: qr.q[:m*d]},
			blas64.General{Rows: n, Cols: d, Stride: d, Data: dd.atoms},
			0, blas64.General{Rows: m, Cols: n, Stride: n, Data: proj})
	} else {
		for l := range m {
			if err := dict.ApplyTranspose(proj[l*n:(l+1)*n], qr.row(l)); err != nil {
				return 0, -1, fmt.Errorf("pursuit: %s: ApplyTranspose: %w", op, err)
			}
		}
	}
	blas64.Trsm(blas.Left, blas.NoTrans, 1,
		blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: m, Stride: qr.cap, Data: qr.r},
		blas64.General{Rows: m, Cols: n, Stride: n, Data: proj})
	value, worstAtom = 0, -1
	for i := range n {
		if inSupport[i] || sel.norms[i] == 0 {
			continue
		}
		l1 := 0.0
		for l := range m {
			l1 += math.Abs(proj[l*n+i])
		}
		l1 /= sel.norms[i]
		if math.IsNaN(l1) || math.IsInf(l1, 0) {
			return 0, -1, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: non-finite value for atom %d", op, i)
		}
		if l1 > value || worstAtom < 0 {
			value, worstAtom = l1, i
		}
	}
	return value, worstAtom, nil
}
