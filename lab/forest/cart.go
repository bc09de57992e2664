package forest

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// TreeOptions are the growth limits of one CART tree.
type TreeOptions struct {
	// MaxFeatures is the number of features drawn (without replacement) as split candidates at
	// each node; 0 means all d, the plain CART tree.
	MaxFeatures int
	// MaxDepth is the largest depth of a leaf (the root has depth 0); 0 means unlimited: fully
	// grown trees, the default of the thesis and of scikit-learn.
	MaxDepth int
	// MinLeaf is the smallest number of training rows in a leaf; 0 means 1.
	MinLeaf int
}

// Tree is a fitted CART tree: its nodes in one flat slice, the root first.
type Tree struct {
	nodes  []node
	d      int
	depth  int
	leaves int
}

// node is a split (feature ≥ 0: go to nodes[left] when x[feature] <= value, else to
// nodes[left+1]) or a leaf (feature < 0: value is the prediction). 16 bytes.
type node struct {
	value   float64
	feature int32
	left    int32
}

// FitTree grows one CART tree on the rows of X (n×d) and their targets y, all rows with weight
// one; rng draws the candidate features at each node (with MaxFeatures = d it only orders them,
// which matters for exact ties alone). Time: O(d·n log n) to rank the features, then
// O(MaxFeatures·m log m) per node of m rows (a radix sort makes it nearly linear on large
// nodes), i.e. O(MaxFeatures·n log n) per level. Memory: at most 12·n·d bytes for the ranked
// features, 32·n bytes of buffers, and 16 bytes per node of the tree (2L − 1 nodes for L leaves,
// L ≤ n).
func FitTree(rng *rand.Rand, task Task, X mat.Matrix, y []float64, opts TreeOptions) (*Tree, error) {
	const op = "FitTree"
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "forest: %s: rng is nil", op)
	}
	set, err := newTrainingSet(op, task, X, y)
	if err != nil {
		return nil, err
	}
	mtry, err := checkGrowth(op, opts.MaxFeatures, opts.MaxDepth, opts.MinLeaf, set.d, set.d)
	if err != nil {
		return nil, err
	}
	b := newBuilder(set, task, mtry, opts.MaxDepth, max(1, opts.MinLeaf))
	b.useAllRows()
	return b.grow(rng), nil
}

// checkGrowth validates the growth options of operation op on d features and returns the
// number of candidate features: maxFeatures, or defaultFeatures when it is 0.
func checkGrowth(op string, maxFeatures, maxDepth, minLeaf, d, defaultFeatures int) (int, error) {
	switch {
	case maxFeatures < 0:
		return 0, fmt.Errorf("forest: %s: MaxFeatures = %d, want ≥ 0 (0: default)", op, maxFeatures)
	case maxFeatures > d:
		return 0, fmt.Errorf("forest: %s: MaxFeatures = %d, want at most the %d columns of X", op, maxFeatures, d)
	case maxDepth < 0:
		return 0, fmt.Errorf("forest: %s: MaxDepth = %d, want ≥ 0 (0: unlimited)", op, maxDepth)
	case minLeaf < 0:
		return 0, fmt.Errorf("forest: %s: MinLeaf = %d, want ≥ 0 (0: 1)", op, minLeaf)
	}
	if maxFeatures == 0 {
		return defaultFeatures, nil
	}
	return maxFeatures, nil
}

// Predict returns the tree's prediction for the point x: the value of the leaf x falls in.
// Time O(depth + d) (x is checked for finite values). It returns an error when len(x) differs
// from the number of training columns or x has a non-finite entry.
func (t *Tree) Predict(x []float64) (float64, error) {
	if t == nil || len(t.nodes) == 0 {
		return 0, laberr.Errorf(laberr.ErrNotFitted, "forest: Tree.Predict: the tree has no nodes (make it with FitTree or Fit)")
	}
	if len(x) != t.d {
		return 0, laberr.Errorf(laberr.ErrShape, "forest: Tree.Predict: len(x) = %d, want the %d columns of the training data", len(x), t.d)
	}
	for j, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, laberr.Errorf(laberr.ErrNonFinite, "forest: Tree.Predict: x[%d] = %g, want finite values", j, v)
		}
	}
	return t.predict(x), nil
}

// predict walks x (of length d) from the root to its leaf.
func (t *Tree) predict(x []float64) float64 {
	i := int32(0)
	for {
		nd := &t.nodes[i]
		if nd.feature < 0 {
			return nd.value
		}
		if x[nd.feature] <= nd.value {
			i = nd.left
		} else {
			i = nd.left + 1
		}
	}
}

// Depth returns the depth of the deepest leaf; a tree that is a single leaf has depth 0.
func (t *Tree) Depth() int { return t.depth }

// Leaves returns the number of leaves.
func (t *Tree) Leaves() int { return t.leaves }

// builder grows trees on one training set; its buffers are reused from tree to tree, so a
// forest keeps one builder per goroutine.
type builder struct {
	set      *trainingSet
	task     Task
	mtry     int
	maxDepth int
	minLeaf  int

	weight   []float64 // weight[i]: multiplicity of row i in the tree's sample (0: not drawn)
	samples  []int32   // the rows with weight > 0, partitioned node by node
	keys     []uint64  // one node's rank<<32 | row for the feature being scanned
	scratch  []uint64  // the radix sort's second buffer
	right    []int32   // partition's buffer for the rows going right
	features []int     // the feature indices, permuted by the draws
	nodes    []node
	stack    []pendingNode
}

// pendingNode is a reserved node still to grow from the rows samples[lo:hi].
type pendingNode struct{ id, lo, hi, depth int }

// nodeSummary is what a node's rows say before any split.
type nodeSummary struct {
	weight   float64 // Σ w
	centered float64 // Regression: Σ w·(y − mean), zero up to rounding
	mean     float64 // Regression: Σ w·y / Σ w
	positive float64 // Classification: Σ w over the labels +1
	pure     bool    // all targets equal
	value    float64 // the leaf value
}

// split is the best split found at a node: go left when the feature's rank is at most rank.
type split struct {
	feature   int
	rank      uint32
	threshold float64
	proxy     float64 // larger is better: Σ over the children of S²/W (Regression) or (P² + N²)/W
}

// newBuilder allocates a builder's buffers for the training set: 32·n bytes plus the features.
func newBuilder(set *trainingSet, task Task, mtry, maxDepth, minLeaf int) *builder {
	return &builder{
		set:      set,
		task:     task,
		mtry:     mtry,
		maxDepth: maxDepth,
		minLeaf:  minLeaf,
		weight:   make([]float64, set.n),
		samples:  make([]int32, 0, set.n),
		keys:     make([]uint64, set.n),
		scratch:  make([]uint64, set.n),
		right:    make([]int32, 0, set.n),
		features: make([]int, set.d),
	}
}

// useAllRows gives every training row weight one.
func (b *builder) useAllRows() {
	b.samples = b.samples[:0]
	for i := range b.weight {
		b.weight[i] = 1
		b.samples = append(b.samples, int32(i))
	}
}

// useBootstrap draws n rows with replacement: the weights are the draw counts.
func (b *builder) useBootstrap(rng *rand.Rand) {
	clear(b.weight)
	n := len(b.weight)
	for range n {
		b.weight[rng.IntN(n)]++
	}
	b.samples = b.samples[:0]
	for i, w := range b.weight {
		if w > 0 {
			b.samples = append(b.samples, int32(i))
		}
	}
}

// grow builds a tree on the current sample, depth first, and returns it with its nodes copied
// to a slice of their exact size. The feature draws start from the identity permutation, so a
// tree depends on rng alone, not on the trees the builder grew before.
func (b *builder) grow(rng *rand.Rand) *Tree {
	t := &Tree{d: b.set.d}
	for f := range b.features {
		b.features[f] = f
	}
	b.nodes = append(b.nodes[:0], node{})
	b.stack = append(b.stack[:0], pendingNode{id: 0, lo: 0, hi: len(b.samples)})
	for len(b.stack) > 0 {
		p := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		sum := b.summarize(p.lo, p.hi)
		var best split
		found := false
		if !sum.pure && p.hi-p.lo >= 2*b.minLeaf && (b.maxDepth == 0 || p.depth < b.maxDepth) {
			best, found = b.bestSplit(rng, p.lo, p.hi, sum)
		}
		if !found {
			b.nodes[p.id] = node{value: sum.value, feature: -1}
			t.leaves++
			t.depth = max(t.depth, p.depth)
			continue
		}
		mid := b.partition(p.lo, p.hi, best.feature, best.rank)
		left := len(b.nodes)
		b.nodes = append(b.nodes, node{}, node{})
		b.nodes[p.id] = node{value: best.threshold, feature: int32(best.feature), left: int32(left)}
		b.stack = append(b.stack,
			pendingNode{id: left + 1, lo: mid, hi: p.hi, depth: p.depth + 1},
			pendingNode{id: left, lo: p.lo, hi: mid, depth: p.depth + 1})
	}
	t.nodes = slices.Clone(b.nodes)
	return t
}

// summarize computes the weight, purity and leaf value of the rows samples[lo:hi].
func (b *builder) summarize(lo, hi int) nodeSummary {
	y, w := b.set.y, b.weight
	rows := b.samples[lo:hi]
	first := y[rows[0]]
	s := nodeSummary{pure: true}
	var sum float64
	for _, i := range rows {
		s.weight += w[i]
		sum += w[i] * y[i]
		if y[i] > 0 {
			s.positive += w[i]
		}
		if y[i] != first {
			s.pure = false
		}
	}
	switch {
	case s.pure:
		s.value = first
	case b.task == Regression:
		s.value = sum / s.weight
	case 2*s.positive >= s.weight:
		s.value = 1
	default:
		s.value = -1
	}
	if b.task == Regression && !s.pure {
		s.mean = sum / s.weight
		for _, i := range rows {
			s.centered += w[i] * (y[i] - s.mean)
		}
	}
	return s
}

// bestSplit searches the rows samples[lo:hi] (at least 2·minLeaf of them, not all with the
// same target) for the best split on candidate features drawn without replacement: mtry of
// them, more while all those drawn are constant on the node, as long as features remain. It
// reports whether any valid split exists.
func (b *builder) bestSplit(rng *rand.Rand, lo, hi int, sum nodeSummary) (split, bool) {
	set := b.set
	rows := b.samples[lo:hi]
	keys := b.keys[:len(rows)]
	best := split{feature: -1, proxy: math.Inf(-1)}
	nonConstant := false
	for drawn := 0; drawn < set.d && (drawn < b.mtry || !nonConstant); drawn++ {
		j := drawn + rng.IntN(set.d-drawn)
		b.features[drawn], b.features[j] = b.features[j], b.features[drawn]
		f := b.features[drawn]
		ranks := set.ranks[f*set.n : (f+1)*set.n]
		minRank, maxRank := uint32(math.MaxUint32), uint32(0)
		for k, i := range rows {
			r := ranks[i]
			minRank, maxRank = min(minRank, r), max(maxRank, r)
			keys[k] = uint64(r)<<32 | uint64(i)
		}
		if minRank == maxRank {
			continue
		}
		nonConstant = true
		sorted := sortKeys(keys, b.scratch[:len(rows)], minRank, maxRank)
		var proxy float64
		var pos int
		if b.task == Regression {
			proxy, pos = b.scanRegression(sorted, sum)
		} else {
			proxy, pos = b.scanClassification(sorted, sum)
		}
		if pos >= 0 && proxy > best.proxy {
			left, right := uint32(sorted[pos]>>32), uint32(sorted[pos+1]>>32)
			best = split{
				feature:   f,
				rank:      left,
				threshold: midpoint(set.distinct[f][left], set.distinct[f][right]),
				proxy:     proxy,
			}
		}
	}
	return best, best.feature >= 0
}

// scanRegression returns the best proxy Σ_children (Σ w·(y − mean))²/Σ w over the thresholds of
// the sorted keys, and the position of the last row left of it (−1 when none is valid).
// Maximising it minimises the children's total sum of squared errors.
func (b *builder) scanRegression(keys []uint64, sum nodeSummary) (float64, int) {
	y, w := b.set.y, b.weight
	m := len(keys)
	best, bestPos := math.Inf(-1), -1
	var wLeft, sLeft float64
	for p := 0; p < m-1; p++ {
		i := uint32(keys[p])
		wLeft += w[i]
		sLeft += w[i] * (y[i] - sum.mean)
		if keys[p]>>32 == keys[p+1]>>32 || p+1 < b.minLeaf {
			continue
		}
		if m-p-1 < b.minLeaf {
			break
		}
		sRight := sum.centered - sLeft
		proxy := sLeft*sLeft/wLeft + sRight*sRight/(sum.weight-wLeft)
		if proxy > best {
			best, bestPos = proxy, p
		}
	}
	return best, bestPos
}

// scanClassification returns the best proxy Σ_children (P² + N²)/W (P, N: weights of the +1 and
// −1 labels, W = P + N) over the thresholds of the sorted keys, and the position of the last
// row left of it (−1 when none is valid). Maximising it minimises the children's total n·Gini.
func (b *builder) scanClassification(keys []uint64, sum nodeSummary) (float64, int) {
	y, w := b.set.y, b.weight
	m := len(keys)
	best, bestPos := math.Inf(-1), -1
	var wLeft, pLeft float64
	for p := 0; p < m-1; p++ {
		i := uint32(keys[p])
		wLeft += w[i]
		if y[i] > 0 {
			pLeft += w[i]
		}
		if keys[p]>>32 == keys[p+1]>>32 || p+1 < b.minLeaf {
			continue
		}
		if m-p-1 < b.minLeaf {
			break
		}
		nLeft := wLeft - pLeft
		wRight := sum.weight - wLeft
		pRight := sum.positive - pLeft
		nRight := wRight - pRight
		proxy := (pLeft*pLeft+nLeft*nLeft)/wLeft + (pRight*pRight+nRight*nRight)/wRight
		if proxy > best {
			best, bestPos = proxy, p
		}
	}
	return best, bestPos
}

// partition reorders samples[lo:hi] so that the rows whose feature f has rank at most rank come
// first, and returns the index where the others start. It is stable, so every node's rows stay
// in increasing order, which sortKeys relies on.
func (b *builder) partition(lo, hi, f int, rank uint32) int {
	ranks := b.set.ranks[f*b.set.n : (f+1)*b.set.n]
	right := b.right[:0]
	mid := lo
	for _, i := range b.samples[lo:hi] {
		if ranks[i] <= rank {
			b.samples[mid] = i
			mid++
		} else {
			right = append(right, i)
		}
	}
	copy(b.samples[mid:hi], right)
	return mid
}

// radixMinKeys is the number of keys from which sortKeys uses a radix sort.
const radixMinKeys = 64

// sortKeys sorts keys (rank<<32 | row, rows increasing, ranks in [minRank, maxRank]) into
// increasing order, using scratch (of the same length) as a buffer, and returns the sorted
// slice: keys or scratch. Many keys take a stable LSD radix sort on the rank alone, 8 bits per
// pass, which gives the same order as comparing whole keys since the rows come in increasing
// order; few keys take pdqsort.
func sortKeys(keys, scratch []uint64, minRank, maxRank uint32) []uint64 {
	if len(keys) < radixMinKeys {
		for i := 1; i < len(keys); i++ {
			k := keys[i]
			j := i
			for ; j > 0 && keys[j-1] > k; j-- {
				keys[j] = keys[j-1]
			}
			keys[j] = k
		}
		return keys
	}
	src, dst := keys, scratch
	for shift := 0; shift < bits.Len32(maxRank-minRank); shift += 8 {
		var counts [256]int
		for _, k := range src {
			counts[(uint32(k>>32)-minRank)>>shift&0xff]++
		}
		offset := 0
		for digit, c := range counts {
			counts[digit] = offset
			offset += c
		}
		for _, k := range src {
			digit := (uint32(k>>32) - minRank) >> shift & 0xff
			dst[counts[digit]] = k
			counts[digit]++
		}
		src, dst = dst, src
	}
	return src
}

// midpoint is scikit-learn's threshold between consecutive distinct values a < b: a/2 + b/2,
// or a when rounding would not leave the midpoint in [a, b).
func midpoint(a, b float64) float64 {
	t := a/2 + b/2
	if !(a <= t && t < b) {
		return a
	}
	return t
}
