package learn

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	// OpenBLAS replaces gonum's pure-Go BLAS in the distance products when built with -tags openblas.
	_ "github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/internal/parallel"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// KNN is a fitted k-nearest-neighbour classifier: it keeps the training points and their labels
// and classifies a query by the labels of its K nearest training points in Euclidean distance.
// It is the classifier of the student slides' experiment 1 (slides_table1), where K is
// tuned on a hold-out ([TuneKNN]) and the fraction of positive neighbours (Scores) is the score
// behind its ROC-AUC.
type KNN struct {
	train   *mat.Dense // n×d copy of the training points
	sqNorms []float64  // ||x_i||²
	labels  []float64
	k       int
}

// FitKNN stores the training points X (n×d) and their class codes y (compared exactly, as by
// Accuracy) for a K-nearest-neighbour classifier with K = k. Nothing is learnt: the work happens
// at query time.
//
// Errors: nil/empty X, NaN or ±Inf in X or y, len(y) ≠ n, k < 1 or k > n, rows whose squared norm
// exceeds MaxFloat64/4 (the expansion ||q||² + ||x||² − 2<q,x> would overflow). Memory: a copy of X
// (8nd bytes) and of y.
func FitKNN(X mat.Matrix, y []float64, k int) (*KNN, error) {
	const op = "FitKNN"
	train, err := trainingCopy(op, X, y)
	if err != nil {
		return nil, err
	}
	n, _ := train.Dims()
	if k < 1 || k > n {
		return nil, fmt.Errorf("learn: %s: k = %d, want 1 ≤ k ≤ n = %d (the number of training points)", op, k, n)
	}
	sqNorms, err := rowSqNorms(op, "X", train)
	if err != nil {
		return nil, err
	}
	return &KNN{train: train, sqNorms: sqNorms, labels: slices.Clone(y), k: k}, nil
}

// K returns the number of neighbours the model votes with.
func (m *KNN) K() int { return m.k }

// Neighbours returns, for each row of Q (q×d), the indices of its k nearest training points,
// nearest first; points at equal distance come in increasing index order. Squared distances
// are ||q||² + ||x||² − 2<q,x> (clipped at 0), the products <q,x> computed by blocks of query
// rows with one matrix product each (mat.Mul, so OpenBLAS under -tags openblas), the blocks spread
// over GOMAXPROCS goroutines. A block's size depends only on n, so the result does not depend on
// the number of goroutines.
//
// Errors: a zero KNN, nil/empty Q, NaN or ±Inf in Q, a column count other than the training
// points', k < 1 or k > n, squared row norms above MaxFloat64/4. Cost: O(q·n·d) for the
// products plus O(q·n·log k) for the selection; memory O(q·k) for the result plus one block of
// at most 2^18 distances (2 MiB) per goroutine.
func (m *KNN) Neighbours(Q mat.Matrix, k int) ([][]int, error) {
	flat, err := m.nearest("KNN.Neighbours", Q, k)
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(flat)/k)
	for i := range out {
		out[i] = flat[i*k : (i+1)*k : (i+1)*k]
	}
	return out, nil
}

// Predict returns the majority label among the K nearest training points of each row of Q; a
// tie between labels goes to the smallest label (scikit-learn's rule). Errors and cost as for
// Neighbours with k = K.
func (m *KNN) Predict(Q mat.Matrix) ([]float64, error) {
	flat, err := m.nearest("KNN.Predict", Q, m.k)
	if err != nil {
		return nil, err
	}
	return m.vote(flat, m.k, m.k), nil
}

// Scores returns, for each row of Q, the fraction of its K nearest training points whose label
// equals positive: a score in [0, 1] that ranks queries for ROCAUC (the deck's experiment 1).
// Errors as for Neighbours with k = K, plus a positive label that no training point has.
func (m *KNN) Scores(Q mat.Matrix, positive float64) ([]float64, error) {
	const op = "KNN.Scores"
	if !slices.Contains(m.labels, positive) {
		return nil, fmt.Errorf("learn: %s: no training point has the positive label %g", op, positive)
	}
	flat, err := m.nearest(op, Q, m.k)
	if err != nil {
		return nil, err
	}
	scores := make([]float64, len(flat)/m.k)
	for i := range scores {
		hits := 0
		for _, j := range flat[i*m.k : (i+1)*m.k] {
			if m.labels[j] == positive {
				hits++
			}
		}
		scores[i] = float64(hits) / float64(m.k)
	}
	return scores, nil
}

// KNNTuning is the outcome of [TuneKNN].
type KNNTuning struct {
	// K is the best K of the grid: the highest hold-out accuracy, the smallest K on ties.
	K int
	// Accuracy[i] is the hold-out accuracy with Ks[i] neighbours.
	Ks       []int
	Accuracy []float64
	// Model is the classifier on the training points with K neighbours.
	Model *KNN
}

// TuneKNN picks K from the grid ks by the accuracy on a hold-out set (Xval, yval) of classifiers
// fitted on (X, y): the deck's "optimisation of K with the best run on the hold-out" by the
// empirical risk R = Σ_i [a(x̃_i) = ỹ_i]. The neighbours of the hold-out points are found once,
// for the largest K of the grid, and every K votes with a prefix of them, so the whole grid
// costs one Neighbours call.
//
// Errors: those of [FitKNN] and Neighbours, an empty grid, a K of the grid outside [1, n], and
// len(yval) ≠ the rows of Xval (or NaN or ±Inf in it).
func TuneKNN(X mat.Matrix, y []float64, Xval mat.Matrix, yval []float64, ks []int) (*KNNTuning, error) {
	const op = "TuneKNN"
	if len(ks) == 0 {
		return nil, fmt.Errorf("learn: %s: empty grid of K", op)
	}
	model, err := FitKNN(X, y, 1)
	if err != nil {
		return nil, err
	}
	n, _ := model.train.Dims()
	kmin, kmax := slices.Min(ks), slices.Max(ks)
	if kmin < 1 || kmax > n {
		return nil, fmt.Errorf("learn: %s: grid of K from %d to %d, want 1 ≤ K ≤ n = %d (the number of training points)", op, kmin, kmax, n)
	}
	if err := checkFinite(op, "yval", yval); err != nil {
		return nil, err
	}
	flat, err := model.nearest(op, Xval, kmax)
	if err != nil {
		return nil, err
	}
	if q := len(flat) / kmax; len(yval) != q {
		return nil, laberr.Errorf(laberr.ErrShape, "learn: %s: len(yval) = %d but Xval has %d rows", op, len(yval), q)
	}
	t := &KNNTuning{Ks: slices.Clone(ks), Accuracy: make([]float64, len(ks))}
	best := 0
	for i, k := range ks {
		if t.Accuracy[i], err = Accuracy(yval, model.vote(flat, kmax, k)); err != nil {
			return nil, err
		}
		if a, b := t.Accuracy[i], t.Accuracy[best]; a > b || a == b && k < ks[best] {
			best = i
		}
	}
	t.K = ks[best]
	model.k = t.K
	t.Model = model
	return t, nil
}

// vote returns the majority label among the first k of the stride neighbours of each query
// (flat, row-major), the smallest label on ties.
func (m *KNN) vote(flat []int, stride, k int) []float64 {
	pred := make([]float64, len(flat)/stride)
	var labels []float64
	var counts []int
	for i := range pred {
		labels, counts = labels[:0], counts[:0]
		for _, j := range flat[i*stride : i*stride+k] {
			l := m.labels[j]
			if c := slices.Index(labels, l); c >= 0 {
				counts[c]++
			} else {
				labels, counts = append(labels, l), append(counts, 1)
			}
		}
		best := 0
		for c := range labels {
			if counts[c] > counts[best] || counts[c] == counts[best] && labels[c] < labels[best] {
				best = c
			}
		}
		pred[i] = labels[best]
	}
	return pred
}

// epsilon is the float64 unit roundoff, 2⁻⁵³.
const epsilon = 0x1p-53

// knnBlockElements bounds one block of query-to-training distances (2^18 values, 2 MiB): small
// enough to stay in cache for the selection, large enough for an efficient matrix product.
const knnBlockElements = 1 << 18

// nearest returns the k nearest training points of each row of Q, row-major (q×k), as
// Neighbours documents.
func (m *KNN) nearest(op string, Q mat.Matrix, k int) ([]int, error) {
	if m == nil || m.train == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "learn: %s: the KNN is not fitted (use FitKNN)", op)
	}
	q, err := matcheck.Dense("learn: "+op, "Q", Q)
	if err != nil {
		return nil, err
	}
	nq, d := q.Dims()
	n, dTrain := m.train.Dims()
	if d != dTrain {
		return nil, laberr.Errorf(laberr.ErrShape, "learn: %s: Q has %d columns but the training points have %d", op, d, dTrain)
	}
	if k < 1 || k > n {
		return nil, fmt.Errorf("learn: %s: k = %d, want 1 ≤ k ≤ n = %d (the number of training points)", op, k, n)
	}
	qNorms, err := rowSqNorms(op, "Q", q)
	if err != nil {
		return nil, err
	}
	maxSq := floats.Max(m.sqNorms)
	out := make([]int, nq*k)
	rows := max(1, min(nq, knnBlockElements/n))
	buffers := make([][]float64, parallel.Workers(parallel.BlockCount(nq, rows)))
	heaps := make([]neighbourHeap, len(buffers))
	err = parallel.Blocks(nq, rows, func(w, lo, hi int) error {
		if buffers[w] == nil {
			buffers[w] = make([]float64, rows*n)
		}
		prod := mat.NewDense(hi-lo, n, buffers[w][:(hi-lo)*n])
		prod.Mul(q.Slice(lo, hi, 0, d), m.train.T())
		for i := lo; i < hi; i++ {
			g := prod.RawRowView(i - lo)
			sq := m.sqNorms[:len(g)]
			qn := qNorms[i]
			h := heaps[w][:0]
			for j, gj := range g[:k] {
				heap.Push(&h, neighbour{max(0, qn+sq[j]-2*gj), j})
			}
			// A later j replaces the root only if its distance is strictly smaller (a later j never
			// wins a tie with an earlier one). The screen x_j = ‖x_j‖² − 2⟨q, x_j⟩ < root − ‖q‖²
			// + slack passes every such j: regrouping the sum and subtracting ‖q‖² from the root
			// move it by at most about 8u·(‖q‖² + max‖x‖²) (u = 2⁻⁵³; 2|⟨q, x⟩| ≤ ‖q‖² + ‖x‖²),
			// and slack is twice that. Only the few that pass compute the distance exactly as the
			// heap holds it. The screen saves a fifth of the time of a 1833 × 7331 prediction.
			slack := 16 * epsilon * (qn + maxSq)
			bound := h[0].d2 - qn + slack
			for j := k; j < len(g); j++ {
				if sq[j]-2*g[j] >= bound {
					continue
				}
				if d2 := max(0, qn+sq[j]-2*g[j]); d2 < h[0].d2 {
					h[0] = neighbour{d2, j}
					heap.Fix(&h, 0)
					bound = h[0].d2 - qn + slack
				}
			}
			slices.SortFunc(h, neighbour.compare)
			for r, nb := range h {
				out[i*k+r] = nb.j
			}
			heaps[w] = h
		}
		return nil
	})
	return out, err
}

// rowSqNorms returns ||x_i||² for the rows of x, or an error when one exceeds MaxFloat64/4,
// where the distance expansion overflows.
func rowSqNorms(op, name string, x *mat.Dense) ([]float64, error) {
	n, _ := x.Dims()
	norms := make([]float64, n)
	for i := range norms {
		r := x.RawRowView(i)
		norms[i] = floats.Dot(r, r)
		if !(norms[i] <= math.MaxFloat64/4) {
			return nil, laberr.Errorf(laberr.ErrNonFinite, "learn: %s: row %d of %s has squared norm %g, above MaxFloat64/4, where ||q||² + ||x||² − 2<q,x> overflows; rescale the data", op, i, name, norms[i])
		}
	}
	return norms, nil
}

// neighbour is a candidate training point j at squared distance d2.
type neighbour struct {
	d2 float64
	j  int
}

// compare orders by distance, then index.
func (a neighbour) compare(b neighbour) int {
	return cmp.Or(cmp.Compare(a.d2, b.d2), cmp.Compare(a.j, b.j))
}

// neighbourHeap is a max-heap by (d2, j): its root is the worst of the k kept so far.
type neighbourHeap []neighbour

func (h neighbourHeap) Len() int           { return len(h) }
func (h neighbourHeap) Less(a, b int) bool { return h[a].compare(h[b]) > 0 }
func (h neighbourHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *neighbourHeap) Push(x any)        { *h = append(*h, x.(neighbour)) }
func (h *neighbourHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
