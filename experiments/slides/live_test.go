package slides

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/notebook"
)

// liveSeed is the seed of the live figures under test (the course notebook's).
const liveSeed = 2024

// builtLive is a live figure under test, the time its constructor took and its error.
type builtLive[T any] struct {
	live T
	took time.Duration
	err  error
}

// buildOnce returns a function that builds a live figure with newLive the first time it is called
// (data from the environment's source) and returns that figure ever after, for the tests and the
// benchmarks to share.
func buildOnce[T any](newLive func(context.Context, dataset.Source, uint64) (T, error)) func() builtLive[T] {
	return sync.OnceValue(func() builtLive[T] {
		start := time.Now()
		l, err := newLive(context.Background(), dataset.DefaultSource(), liveSeed)
		return builtLive[T]{l, time.Since(start), err}
	})
}

var (
	facesLive  = buildOnce(NewFacesLive)
	sparseLive = buildOnce(NewSparseBasisLive)
)

// useLive returns the shared live figure of build, skipping without a data mirror.
func useLive[T any](tb testing.TB, build func() builtLive[T]) T {
	tb.Helper()
	kittest.RequireDataMirror(tb)
	b := build()
	if b.err != nil {
		tb.Fatal(b.err)
	}
	tb.Logf("constructor took %v", b.took)
	return b.live
}

// renderDefault renders a live figure at its controls' defaults and checks that it is a PNG and
// that its alt text holds each of want.
func renderDefault(t *testing.T, controls []notebook.Control, render notebook.Render, want ...string) {
	t.Helper()
	values := make([]int, len(controls))
	for i, c := range controls {
		values[i] = c.Value
	}
	f, err := render(values)
	if err != nil {
		t.Fatal(err)
	}
	kittest.CheckFrame(t, f, 600, 300, want...)
}

// rejectsBadValues checks that render refuses values outside the one control's range, and the
// wrong number of values.
func rejectsBadValues(t *testing.T, c notebook.Control, render notebook.Render) {
	t.Helper()
	for _, v := range [][]int{nil, {}, {c.Min - 1}, {c.Max + 1}, {c.Value, c.Value}} {
		if _, err := render(v); err == nil {
			t.Errorf("Render(%v): no error", v)
		}
	}
}

func TestFacesLiveRendersTheDefault(t *testing.T) {
	l := useLive(t, facesLive)
	cs := l.Controls()
	if len(cs) != 1 || cs[0].Min != 1 || cs[0].Max != liveMaxRank || cs[0].Value != liveRank {
		t.Fatalf("controls %+v, want one rank from 1 to %d, %d by default", cs, liveMaxRank, liveRank)
	}
	renderDefault(t, cs, l.Render, "rank k = 20", "relative error of the reconstruction", "1-NN test accuracy on 20 principal coordinates")
	rejectsBadValues(t, cs[0], l.Render)
	var none *FacesLive
	if _, err := none.Render([]int{1}); err == nil {
		t.Error("Render on a nil live figure: no error")
	}
}

// TestFacesLiveReconstructs checks the reconstructions at every rank of the SVD: the error never
// grows with k (the rank-k subspaces are nested), and with every component the reconstruction is
// the face.
func TestFacesLiveReconstructs(t *testing.T) {
	l := useLive(t, facesLive)
	prev := math.Inf(1)
	full := len(l.svd.values)
	for k := 1; k <= full; k++ {
		face, approx, err := l.reconstruction(k)
		if err != nil {
			t.Fatal(err)
		}
		var d mat.Dense
		d.Sub(face, approx)
		e, tol := mat.Norm(&d, 2), 1e-9*mat.Norm(face, 2)
		if e > prev+tol {
			t.Fatalf("rank %d: error %g above rank %d's %g", k, e, k-1, prev)
		}
		prev = e
		if k == full && e > tol {
			t.Errorf("full rank %d: error %g, want the face itself (‖face‖ = %g)", k, e, mat.Norm(face, 2))
		}
	}
}

// TestFacesLiveAccuracyMatchesPCA recomputes the 1-NN accuracy at the default rank with
// factor.FitPCA's coordinates (another SVD, signs aside, which distances ignore) and a
// nearest-neighbour search written out.
func TestFacesLiveAccuracyMatchesPCA(t *testing.T) {
	l := useLive(t, facesLive)
	s := l.faces
	pca, err := factor.FitPCA(s.train, liveRank)
	if err != nil {
		t.Fatal(err)
	}
	ztr, err := pca.Transform(s.train)
	if err != nil {
		t.Fatal(err)
	}
	zte, err := pca.Transform(s.test)
	if err != nil {
		t.Fatal(err)
	}
	ntr, _ := ztr.Dims()
	hits := 0
	for i, y := range s.ytest {
		best, who := math.Inf(1), -1.0
		for j := range ntr {
			if d := floats.Distance(zte.RawRowView(i), ztr.RawRowView(j), 2); d < best {
				best, who = d, s.ytrain[j]
			}
		}
		if who == y {
			hits++
		}
	}
	if want := float64(hits) / float64(len(s.ytest)); math.Abs(l.accuracy[liveRank-1]-want) > 1e-12 {
		t.Errorf("1-NN accuracy at rank %d: %g, recomputed %g", liveRank, l.accuracy[liveRank-1], want)
	}
}

func TestSparseBasisLiveRendersTheDefault(t *testing.T) {
	l := useLive(t, sparseLive)
	cs := l.Controls()
	if len(cs) != 1 || cs[0].Min != 0 || cs[0].Max != len(liveSparsePenalties)-1 || cs[0].Value != liveSparseDefault {
		t.Fatalf("controls %+v, want one position on the grid of %d penalties", cs, len(liveSparsePenalties))
	}
	renderDefault(t, cs, l.Render, "λ = 0.02·‖A‖_F", "zero pixels in the 6 basis images")
	rejectsBadValues(t, cs[0], l.Render)
	var none *SparseBasisLive
	if _, err := none.Render([]int{0}); err == nil {
		t.Error("Render on a nil live figure: no error")
	}
}

// TestSparseBasisLiveZerosGrowWithPenalty checks that a larger λ leaves more zero pixels in the
// basis images, from a few at the smallest λ of the grid.
func TestSparseBasisLiveZerosGrowWithPenalty(t *testing.T) {
	l := useLive(t, sparseLive)
	prev := -1.0
	for i, B := range l.bases {
		z := floats.Sum(zeroShares(B)) / liveSparseComponents
		t.Logf("λ = %g·‖A‖_F: %.1f%% zero pixels", l.penalties[i], 100*z)
		if z < prev {
			t.Errorf("λ = %g·‖A‖_F: %.3f zero pixels, fewer than %.3f at the smaller λ before", l.penalties[i], z, prev)
		}
		prev = z
	}
	if first := floats.Sum(zeroShares(l.bases[0])) / liveSparseComponents; !(prev > first) {
		t.Errorf("zero pixels %.3f at the largest λ, not above the smallest's %.3f", prev, first)
	}
}

// benchmarkRender times one Render at the controls' defaults and reports the constructor's time.
func benchmarkRender[T any](b *testing.B, build func() builtLive[T], controls func(T) []notebook.Control, render func(T) notebook.Render) {
	l := useLive(b, build)
	cs := controls(l)
	values := make([]int, len(cs))
	for i, c := range cs {
		values[i] = c.Value
	}
	r := render(l)
	for b.Loop() {
		if _, err := r(values); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(build().took.Seconds(), "constructor-s") // after the loop, which resets the metrics
}

func BenchmarkFacesLiveRender(b *testing.B) {
	benchmarkRender(b, facesLive, (*FacesLive).Controls, func(l *FacesLive) notebook.Render { return l.Render })
}

func BenchmarkSparseBasisLiveRender(b *testing.B) {
	benchmarkRender(b, sparseLive, (*SparseBasisLive).Controls, func(l *SparseBasisLive) notebook.Render { return l.Render })
}
