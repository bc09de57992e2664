package ch6

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/forest"
)

// liveSeed is the seed of the live figure under test (the teaching notebook's).
const liveSeed = 2020

// builtPruningLive is the live figure under test, the time NewPruningLive took and its error.
type builtPruningLive struct {
	live *PruningLive
	took time.Duration
	err  error
}

// livePruning builds the live figure once for the tests and the benchmark.
var livePruning = sync.OnceValue(func() builtPruningLive {
	start := time.Now()
	l, err := NewPruningLive(context.Background(), dataset.DefaultSource(), liveSeed)
	return builtPruningLive{l, time.Since(start), err}
})

// pruningLive returns the shared live figure, skipping the test without a data mirror.
func pruningLive(tb testing.TB) *PruningLive {
	tb.Helper()
	kittest.RequireDataMirror(tb)
	built := livePruning()
	if built.err != nil {
		tb.Fatal(built.err)
	}
	tb.Logf("NewPruningLive took %v", built.took)
	return built.live
}

func TestPruningLiveRendersTheDefault(t *testing.T) {
	l := pruningLive(t)
	cs := l.Controls()
	if len(cs) != 1 || cs[0].Min != 1 || cs[0].Max != liveTrees/2 || cs[0].Value != 10 {
		t.Fatalf("controls %+v, want one pruned size from 1 to %d, 10 by default", cs, liveTrees/2)
	}
	f, err := l.Render([]int{cs[0].Value})
	if err != nil {
		t.Fatal(err)
	}
	kittest.CheckFrame(t, f, 600, 300, "pruned size m = 10", "test MSE of the pruned forest", "full forest of 100 trees", "weights negative")
}

func TestPruningLiveRejectsBadValues(t *testing.T) {
	l := pruningLive(t)
	for _, v := range [][]int{nil, {}, {0}, {-3}, {len(l.path) + 1}, {5, 5}} {
		if _, err := l.Render(v); err == nil {
			t.Errorf("Render(%v): no error", v)
		}
	}
	var none *PruningLive
	if _, err := none.Render([]int{1}); err == nil {
		t.Error("Render on a nil live figure: no error")
	}
}

// TestPruningLiveReadsOMPsPath checks each drawn size against an independent run of
// forest.PruneOMP asked for that size alone on the same problem (drawn again from the seed): the
// same trees, the same weights, and the test MSE in the alt text recomputed from them by hand.
func TestPruningLiveReadsOMPsPath(t *testing.T) {
	l := pruningLive(t)
	p, err := newPruningProblem(context.Background(), dataset.DefaultSource(), liveSeed)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []int{1, 2, 10, 27, len(l.path)} {
		pr, err := forest.PruneOMP(p.Pfit, p.yfit, []int{m}, forest.PruneOptions{Task: p.task})
		if err != nil {
			t.Fatal(err)
		}
		want, got := pr.Selections[0], l.path[m-1]
		if !slices.Equal(want.Trees, got.Trees) {
			t.Fatalf("m = %d: trees %v, PruneOMP's %v", m, got.Trees, want.Trees)
		}
		for i, w := range want.Weights {
			if math.Abs(got.Weights[i]-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("m = %d: weight %d is %g, PruneOMP's %g", m, i, got.Weights[i], w)
			}
		}
		var mse float64
		for i, y := range p.yte {
			var pred float64
			for k, tree := range want.Trees {
				pred += want.Weights[k] * p.Pte.At(i, tree)
			}
			mse += (pred - y) * (pred - y) / float64(len(p.yte))
		}
		f, err := l.Render([]int{m})
		if err != nil {
			t.Fatal(err)
		}
		if want := "test MSE of the pruned forest " + liveScore(mse) + ","; !strings.Contains(f.Alt, want) {
			t.Errorf("m = %d: alt text %q lacks %q", m, f.Alt, want)
		}
	}
}

func BenchmarkPruningLiveRender(b *testing.B) {
	l := pruningLive(b)
	values := []int{l.Controls()[0].Value}
	for b.Loop() {
		if _, err := l.Render(values); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(livePruning().took.Seconds(), "constructor-s") // after the loop, which resets the metrics
}
