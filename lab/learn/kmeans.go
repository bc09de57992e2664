package learn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// KMeansOptions tunes [KMeans]; the zero value selects the defaults given for each field.
type KMeansOptions struct {
	// MaxIter bounds the Lloyd iterations of each run (0 selects 300).
	MaxIter int
	// Tol stops a run once the total squared centroid shift Σ_j ||c_j(new) - c_j(old)||² is at
	// most Tol times the mean per-feature variance of X, a scale-free rule (scikit-learn's).
	// 0 selects 1e-4; a run also stops when nothing moves, whatever Tol.
	Tol float64
	// NInit is the number of k-means++ restarts; the run with the lowest inertia is kept, so more
	// restarts lower the risk of a poor local optimum (0 selects 1).
	NInit int
}

const (
	defaultKMeansMaxIter = 300
	defaultKMeansTol     = 1e-4
	defaultKMeansNInit   = 1
)

// KMeansResult is the partition [KMeans] found.
type KMeansResult struct {
	// Centroids is the k×d matrix whose row j is the mean of the points labelled j.
	Centroids *mat.Dense
	// Labels[i] in [0, k) is the cluster of row i: its nearest centroid (lowest index on ties).
	Labels []int
	// Inertia is Σ_i ||x_i - c_{Labels[i]}||², the objective k-means minimises.
	Inertia float64
	// Iterations is the number of Lloyd iterations the kept run made.
	Iterations int
}

// KMeans partitions the rows of X (n×d) into k clusters: k-means++ seeding (each new centre drawn
// with probability proportional to the squared distance to the nearest centre chosen so far),
// then Lloyd iterations (assign each point to its nearest centroid, move each centroid to the
// mean of its points) until the centroids move less than opts.Tol or opts.MaxIter is reached. A
// cluster left empty is re-seeded with the point farthest from its centroid (taken from a cluster
// of two or more points). Of opts.NInit restarts the one with the lowest inertia is returned.
//
// rng drives the seeding only, so the result is a function of (rng state, X, k, opts); the
// assignment step runs on GOMAXPROCS goroutines over row blocks and does not change the result.
// Errors: nil rng, nil/empty X, NaN or ±Inf in X, k < 1 or k > n, negative or NaN options,
// coordinates so large that the distances or the inertia overflow.
// Cost: O(n·k·d) time per iteration and per seeding; memory O(n·d + k·d) (X is copied).
func KMeans(rng *rand.Rand, X mat.Matrix, k int, opts KMeansOptions) (*KMeansResult, error) {
	return KMeansContext(context.Background(), rng, X, k, opts)
}

// KMeansContext is [KMeans] with a context: it looks at ctx before each Lloyd iteration of each
// restart, never inside one, so a partition it returns is KMeans's, bit for bit.
// Errors: KMeans's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: KMeans's; once ctx is done it returns within about one Lloyd iteration, O(n·k·d) (the
// k-means++ seeding of a restart costs about as much).
func KMeansContext(ctx context.Context, rng *rand.Rand, X mat.Matrix, k int, opts KMeansOptions) (*KMeansResult, error) {
	if err := ctxcheck.NotNil(ctx, "learn: KMeans"); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "learn: KMeans: nil rng")
	}
	x, err := denseCopy("KMeans", "X", X)
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if k < 1 || k > n {
		return nil, fmt.Errorf("learn: KMeans: k = %d, want 1 ≤ k ≤ n = %d (the number of rows of X)", k, n)
	}
	opts, err = opts.withDefaults()
	if err != nil {
		return nil, err
	}
	p := points{data: x.RawMatrix().Data, n: n, d: d}
	tol := opts.Tol * p.meanVariance()
	var best lloydRun
	for run := range opts.NInit {
		r, err := lloyd(ctx, p, seedPlusPlus(rng, p, k), k, opts.MaxIter, tol)
		if err != nil {
			return nil, err
		}
		if run == 0 || r.inertia < best.inertia {
			best = r
		}
	}
	if best.inertia-best.inertia != 0 {
		return nil, laberr.Errorf(laberr.ErrNonFinite, "learn: KMeans: the inertia overflows (%g); rescale X", best.inertia)
	}
	if err := finiteOutput("KMeans", "centroid coordinate", best.centroids); err != nil {
		return nil, err
	}
	return &KMeansResult{
		Centroids:  mat.NewDense(k, d, best.centroids),
		Labels:     best.labels,
		Inertia:    best.inertia,
		Iterations: best.iterations,
	}, nil
}

// withDefaults validates the options and fills in the zero fields.
func (o KMeansOptions) withDefaults() (KMeansOptions, error) {
	if o.MaxIter < 0 || o.NInit < 0 || !(o.Tol >= 0) || math.IsInf(o.Tol, 0) {
		return o, fmt.Errorf("learn: KMeans: options MaxIter=%d Tol=%g NInit=%d, want MaxIter ≥ 0, NInit ≥ 0 and a finite Tol ≥ 0 (0 selects the default)",
			o.MaxIter, o.Tol, o.NInit)
	}
	o.MaxIter = orDefault(o.MaxIter, defaultKMeansMaxIter)
	o.Tol = orDefault(o.Tol, defaultKMeansTol)
	o.NInit = orDefault(o.NInit, defaultKMeansNInit)
	return o, nil
}

// points is a row-major n×d view of the data (stride d).
type points struct {
	data []float64
	n, d int
}

func (p points) row(i int) []float64 { return p.data[i*p.d : (i+1)*p.d] }

// meanVariance returns the mean over the columns of their (population) variance.
func (p points) meanVariance() float64 {
	var total float64
	for j := range p.d {
		var mean float64
		for i := range p.n {
			mean += p.data[i*p.d+j]
		}
		mean /= float64(p.n)
		var ss float64
		for i := range p.n {
			dev := p.data[i*p.d+j] - mean
			ss += dev * dev
		}
		total += ss / float64(p.n)
	}
	return total / float64(p.d)
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		diff := v - b[i]
		s += diff * diff
	}
	return s
}

// blockRows is the number of rows one goroutine handles at a time in the assignment and seeding
// passes. Each row's result is computed by one goroutine alone, so the block size and the worker
// count never change the numbers.
const blockRows = 256

// forRowBlocks calls f(lo, hi) on consecutive row ranges covering [0, n), spread over GOMAXPROCS
// goroutines, and returns when all calls have.
func forRowBlocks(n int, f func(lo, hi int)) {
	blocks := (n + blockRows - 1) / blockRows
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if workers <= 1 {
		f(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks {
					return
				}
				f(b*blockRows, min(n, (b+1)*blockRows))
			}
		})
	}
	wg.Wait()
}

// seedPlusPlus returns k initial centroids (row-major k×d) chosen by k-means++: the first point
// uniformly, each next one with probability proportional to its squared distance to the nearest
// centroid chosen so far. When every point coincides with a chosen centroid (fewer than k
// distinct points) the next one is drawn uniformly among the points not chosen yet.
func seedPlusPlus(rng *rand.Rand, p points, k int) []float64 {
	centroids := make([]float64, 0, k*p.d)
	chosen := make([]bool, p.n)
	minD2 := make([]float64, p.n)
	for range k {
		var next int
		if len(centroids) == 0 {
			next = rng.IntN(p.n)
		} else {
			next = sampleSquaredDistance(rng, minD2, chosen)
		}
		chosen[next] = true
		c := p.row(next)
		first := len(centroids) == 0
		centroids = append(centroids, c...)
		forRowBlocks(p.n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if d2 := sqDist(p.row(i), c); first || d2 < minD2[i] {
					minD2[i] = d2
				}
			}
		})
	}
	return centroids
}

// sampleSquaredDistance draws index i with probability minD2[i] / Σ minD2, or uniformly among the
// indices not yet chosen when that sum is 0. Some index is always unchosen because k ≤ n.
func sampleSquaredDistance(rng *rand.Rand, minD2 []float64, chosen []bool) int {
	var total float64
	for _, v := range minD2 {
		total += v
	}
	if total > 0 {
		u := rng.Float64() * total
		var cum float64
		last := -1
		for i, v := range minD2 {
			if v == 0 {
				continue
			}
			last = i
			cum += v
			if u < cum {
				return i
			}
		}
		return last // u ≥ the accumulated sum only by rounding: take the last eligible index
	}
	free := 0
	for _, c := range chosen {
		if !c {
			free++
		}
	}
	r := rng.IntN(free)
	for i, c := range chosen {
		if !c {
			if r == 0 {
				return i
			}
			r--
		}
	}
	panic("learn: k-means++ seeding found no unchosen point although k ≤ n")
}

// lloydRun is the outcome of one seeded Lloyd run.
type lloydRun struct {
	centroids  []float64 // k×d row-major
	labels     []int
	inertia    float64
	iterations int
}

// lloyd runs Lloyd iterations from the given centroids (row-major k×d, modified in place) until
// the total squared shift is ≤ tol or maxIter iterations are done, then assigns the points to
// the final centroids, so labels, centroids and inertia agree. It looks at ctx before each
// iteration and returns its error (wrapped) once ctx is done.
func lloyd(ctx context.Context, p points, centroids []float64, k, maxIter int, tol float64) (lloydRun, error) {
	labels := make([]int, p.n)
	dist2 := make([]float64, p.n)
	sums := make([]float64, k*p.d)
	counts := make([]int, k)
	iterations := 0
	for iterations < maxIter {
		if err := ctxcheck.Done(ctx, "learn: KMeans"); err != nil {
			return lloydRun{}, err
		}
		assign(p, centroids, k, labels, dist2)
		shift := updateCentroids(p, centroids, k, labels, dist2, sums, counts)
		iterations++
		if shift <= tol {
			break
		}
	}
	assign(p, centroids, k, labels, dist2)
	var inertia float64
	for _, v := range dist2 {
		inertia += v
	}
	return lloydRun{centroids: centroids, labels: labels, inertia: inertia, iterations: iterations}, nil
}

// assign sets labels[i] to the index of the centroid nearest to row i (lowest index on ties)
// and dist2[i] to the squared distance to it, in parallel over row blocks.
func assign(p points, centroids []float64, k int, labels []int, dist2 []float64) {
	forRowBlocks(p.n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := p.row(i)
			best, bestD2 := 0, math.Inf(1)
			for j := range k {
				if d2 := sqDist(xi, centroids[j*p.d:(j+1)*p.d]); d2 < bestD2 {
					best, bestD2 = j, d2
				}
			}
			labels[i], dist2[i] = best, bestD2
		}
	})
}

// updateCentroids moves each centroid to the mean of its points and returns the total squared
// shift. An empty cluster takes the point farthest from its own centroid among clusters of two or
// more points (labels and dist2 are updated for it); by pigeonhole such a cluster exists whenever
// one is empty, since k ≤ n. sums (k×d) and counts (k) are scratch space.
func updateCentroids(p points, centroids []float64, k int, labels []int, dist2, sums []float64, counts []int) float64 {
	clear(sums)
	clear(counts)
	for i, l := range labels {
		counts[l]++
		s := sums[l*p.d : (l+1)*p.d]
		for j, v := range p.row(i) {
			s[j] += v
		}
	}
	for empty := range k {
		if counts[empty] > 0 {
			continue
		}
		far := -1
		for i, l := range labels {
			if counts[l] > 1 && (far < 0 || dist2[i] > dist2[far]) {
				far = i
			}
		}
		if far < 0 {
			panic("learn: k-means found an empty cluster but no cluster of two or more points although k ≤ n")
		}
		from := labels[far]
		counts[from]--
		counts[empty] = 1
		sFrom, sEmpty := sums[from*p.d:(from+1)*p.d], sums[empty*p.d:(empty+1)*p.d]
		for j, v := range p.row(far) {
			sFrom[j] -= v
			sEmpty[j] = v
		}
		labels[far], dist2[far] = empty, 0
	}
	var shift float64
	for c := range k {
		inv := 1 / float64(counts[c])
		for j := range p.d {
			m := sums[c*p.d+j] * inv
			diff := m - centroids[c*p.d+j]
			shift += diff * diff
			centroids[c*p.d+j] = m
		}
	}
	return shift
}
