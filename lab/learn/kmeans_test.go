package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// blobs returns perSize points around each centre with N(0, sd²) noise per coordinate, and the
// index of the centre each point came from.
func blobs(rng *rand.Rand, centres [][]float64, perSize int, sd float64) (*mat.Dense, []int) {
	d := len(centres[0])
	x := mat.NewDense(len(centres)*perSize, d, nil)
	truth := make([]int, 0, len(centres)*perSize)
	for c, centre := range centres {
		for i := range perSize {
			for j, v := range centre {
				x.Set(c*perSize+i, j, v+sd*rng.NormFloat64())
			}
			truth = append(truth, c)
		}
	}
	return x, truth
}

// bruteInertia returns Σ_i ||x_i - c_{labels[i]}||² by direct loops.
func bruteInertia(x, c *mat.Dense, labels []int) float64 {
	n, d := x.Dims()
	var s float64
	for i := range n {
		for j := range d {
			diff := x.At(i, j) - c.At(labels[i], j)
			s += diff * diff
		}
	}
	return s
}

func TestKMeansRecoversSeparatedBlobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	centres := [][]float64{{0, 0}, {10, 0}, {0, 10}}
	x, truth := blobs(rng, centres, 40, 0.5)
	res, err := KMeans(rand.New(rand.NewPCG(3, 4)), x, 3, KMeansOptions{NInit: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The partition is the true one up to a relabelling: a bijection blob → label.
	blobToLabel := map[int]int{}
	for i, b := range truth {
		if l, ok := blobToLabel[b]; ok && l != res.Labels[i] {
			t.Fatalf("point %d of blob %d has label %d, its blob-mates %d", i, b, res.Labels[i], l)
		}
		blobToLabel[b] = res.Labels[i]
	}
	seen := map[int]bool{}
	for _, l := range blobToLabel {
		seen[l] = true
	}
	if len(seen) != 3 {
		t.Fatalf("blobs map to labels %v, want three distinct labels", blobToLabel)
	}
	// Each centroid is the mean of its blob, computed here directly.
	for b := range centres {
		for j := range 2 {
			var mean float64
			for i := range 40 {
				mean += x.At(b*40+i, j)
			}
			mean /= 40
			if got := res.Centroids.At(blobToLabel[b], j); math.Abs(got-mean) > 1e-12 {
				t.Errorf("centroid of blob %d coordinate %d = %v, want the blob mean %v", b, j, got, mean)
			}
		}
	}
	if want := bruteInertia(x, res.Centroids, res.Labels); math.Abs(res.Inertia-want) > 1e-12*want {
		t.Errorf("Inertia = %v, brute-force sum = %v", res.Inertia, want)
	}
	if res.Iterations < 1 || res.Iterations > defaultKMeansMaxIter {
		t.Errorf("Iterations = %d", res.Iterations)
	}
}

// TestKMeansReachesBruteForceOptimum compares with the best of all 3^8 labellings of 8 points.
func TestKMeansReachesBruteForceOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, k = 8, 2, 3
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.Float64()*4)
		}
	}
	best := math.Inf(1)
	labels := make([]int, n)
	for code := range 6561 { // 3^8
		c := code
		counts := make([]int, k)
		for i := range n {
			labels[i] = c % k
			counts[labels[i]]++
			c /= k
		}
		if slices.Contains(counts, 0) {
			continue
		}
		means := mat.NewDense(k, d, nil)
		for i, l := range labels {
			for j := range d {
				means.Set(l, j, means.At(l, j)+x.At(i, j)/float64(counts[l]))
			}
		}
		best = min(best, bruteInertia(x, means, labels))
	}
	res, err := KMeans(rand.New(rand.NewPCG(7, 8)), x, k, KMeansOptions{NInit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Inertia-best) > 1e-12*best {
		t.Errorf("Inertia = %v, brute-force optimum = %v", res.Inertia, best)
	}
}

func TestKMeansDeterministicPerSeedAndWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x, _ := blobs(rng, [][]float64{{0, 0, 0}, {3, 0, 1}, {0, 3, 2}, {2, 2, 2}}, 300, 1.5) // 1200 rows: several row blocks
	run := func(procs int, seed uint64) *KMeansResult {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := KMeans(rand.New(rand.NewPCG(seed, 1)), x, 5, KMeansOptions{NInit: 2})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b, c := run(1, 42), run(4, 42), run(4, 43)
	if !slices.Equal(a.Labels, b.Labels) || !mat.Equal(a.Centroids, b.Centroids) || a.Inertia != b.Inertia || a.Iterations != b.Iterations {
		t.Error("same seed, 1 and 4 workers: results differ")
	}
	if mat.Equal(a.Centroids, c.Centroids) {
		t.Error("seeds 42 and 43 gave identical centroids on overlapping blobs; is the seed used?")
	}
}

// TestSeedPlusPlusDistribution checks the D² sampling law on 1-D points 0, 1, 3, 7 with k = 2:
// P(first = a, second = b) = 1/4 · (x_b - x_a)² / Σ_c (x_c - x_a)².
func TestSeedPlusPlusDistribution(t *testing.T) {
	xs := []float64{0, 1, 3, 7}
	p := points{data: xs, n: 4, d: 1}
	rng := rand.New(rand.NewPCG(11, 12))
	const draws = 40000
	var counts [4][4]int
	index := map[float64]int{0: 0, 1: 1, 3: 2, 7: 3}
	for range draws {
		c := seedPlusPlus(rng, p, 2)
		counts[index[c[0]]][index[c[1]]]++
	}
	for a := range 4 {
		var total float64
		for _, v := range xs {
			total += (v - xs[a]) * (v - xs[a])
		}
		for b := range 4 {
			prob := 0.25 * (xs[b] - xs[a]) * (xs[b] - xs[a]) / total
			want := prob * draws
			sd := math.Sqrt(draws * prob * (1 - prob))
			if math.Abs(float64(counts[a][b])-want) > 5*sd+1e-9 {
				t.Errorf("pair (%v, %v): %d draws, want %.0f ± %.0f", xs[a], xs[b], counts[a][b], want, 5*sd)
			}
		}
	}
}

func TestLloydReseedsEmptyClusterWithFarthestPoint(t *testing.T) {
	p := points{data: []float64{0, 0.1, 0.2, 10}, n: 4, d: 1}
	// The centroid at 100 attracts no point; the farthest point from its centroid (0.1) is 10.
	r, err := lloyd(context.Background(), p, []float64{0.1, 100}, 2, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.labels, []int{0, 0, 0, 1}) {
		t.Errorf("labels = %v, want [0 0 0 1]", r.labels)
	}
	if math.Abs(r.centroids[0]-0.1) > 1e-15 || r.centroids[1] != 10 {
		t.Errorf("centroids = %v, want [0.1 10]", r.centroids)
	}
	if want := 0.1*0.1 + 0.1*0.1; math.Abs(r.inertia-want) > 1e-15 {
		t.Errorf("inertia = %v, want %v", r.inertia, want)
	}
}

func TestKMeansFewerDistinctPointsThanK(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2})
	res, err := KMeans(rand.New(rand.NewPCG(1, 1)), x, 3, KMeansOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Inertia != 0 {
		t.Errorf("Inertia = %v, want 0 for identical points", res.Inertia)
	}
	for j := range 3 {
		if res.Centroids.At(j, 0) != 1 || res.Centroids.At(j, 1) != 2 {
			t.Errorf("centroid %d = %v, want (1, 2)", j, mat.Row(nil, j, res.Centroids))
		}
	}
}

func TestKMeansErrors(t *testing.T) {
	good := mat.NewDense(3, 1, []float64{0, 1, 2})
	rng := rand.New(rand.NewPCG(1, 1))
	var nilDense *mat.Dense
	cases := []struct {
		name string
		rng  *rand.Rand
		x    mat.Matrix
		k    int
		opts KMeansOptions
	}{
		{"nil rng", nil, good, 2, KMeansOptions{}},
		{"nil X", rng, nil, 2, KMeansOptions{}},
		{"nil *Dense", rng, nilDense, 2, KMeansOptions{}},
		{"empty X", rng, &mat.Dense{}, 2, KMeansOptions{}},
		{"NaN", rng, mat.NewDense(2, 1, []float64{0, math.NaN()}), 1, KMeansOptions{}},
		{"Inf", rng, mat.NewDense(2, 1, []float64{math.Inf(-1), 0}), 1, KMeansOptions{}},
		{"k = 0", rng, good, 0, KMeansOptions{}},
		{"k > n", rng, good, 4, KMeansOptions{}},
		{"MaxIter < 0", rng, good, 2, KMeansOptions{MaxIter: -1}},
		{"NInit < 0", rng, good, 2, KMeansOptions{NInit: -1}},
		{"Tol < 0", rng, good, 2, KMeansOptions{Tol: -1}},
		{"Tol NaN", rng, good, 2, KMeansOptions{Tol: math.NaN()}},
	}
	for _, c := range cases {
		if _, err := KMeans(c.rng, c.x, c.k, c.opts); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// KMeansContext looks at its context once per Lloyd iteration: with a live context it returns
// KMeans's partition bit for bit, a context done before the start or after k looks stops it with
// the context's error and no partition, and a nil context is an error.
func TestKMeansContext(t *testing.T) {
	x, _ := blobs(rand.New(rand.NewPCG(11, 12)), [][]float64{{0, 0}, {3, 1}, {1, 3}}, 200, 1.5)
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(13, 14)) }
	opts := KMeansOptions{NInit: 2}
	want, err := KMeans(seed(), x, 4, opts)
	if err != nil {
		t.Fatal(err)
	}
	same := func(got *KMeansResult) bool {
		return got != nil && slices.Equal(got.Labels, want.Labels) && mat.Equal(got.Centroids, want.Centroids) &&
			got.Inertia == want.Inertia && got.Iterations == want.Iterations
	}
	if got, err := KMeansContext(context.Background(), seed(), x, 4, opts); err != nil || !same(got) {
		t.Errorf("KMeansContext(Background) differs from KMeans (%v)", err)
	}
	all := ctxcheck.NewCountdown(math.MaxInt)
	if got, err := KMeansContext(all, seed(), x, 4, opts); err != nil || !same(got) {
		t.Errorf("KMeansContext allowed every look differs from KMeans (%v)", err)
	}
	if all.Calls() <= want.Iterations {
		t.Errorf("Err called %d times over two restarts, the kept one of %d iterations: want one per iteration", all.Calls(), want.Iterations)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := KMeansContext(cancelled, seed(), x, 4, opts); got != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v, %v; want no partition and context.Canceled", got, err)
	}
	for _, k := range []int{0, 1, 3} {
		ctx := ctxcheck.NewCountdown(k)
		if got, err := KMeansContext(ctx, seed(), x, 4, opts); got != nil || !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d looks: %v, %v; want no partition and context.Canceled", k, got, err)
		}
		if ctx.Calls() != k+1 {
			t.Errorf("cancelled after %d looks: Err called %d times, want %d (once per iteration, stop at the first error)", k, ctx.Calls(), k+1)
		}
	}
	var none context.Context
	if _, err := KMeansContext(none, seed(), x, 4, opts); err == nil {
		t.Error("nil ctx: no error")
	}
}
