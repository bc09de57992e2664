package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset"
)

// loader counts its loads; each load returns the number of loads so far.
type loader struct{ n atomic.Int64 }

func (l *loader) load() (int64, error) { return l.n.Add(1), nil }

// cachedExperiment has tasks tasks, each reading key through the run's cache and recording what it
// got and the mirror of its data source.
func cachedExperiment(id string, tasks int, l *loader) *Experiment {
	return &Experiment{
		ID: id, Seed: 1,
		Plan: func(Scale) ([]Task, error) {
			out := make([]Task, tasks)
			for i := range out {
				out[i] = Task{Key: fmt.Sprintf("t%d", i), Run: func(_ context.Context, env *Env) ([]Record, error) {
					v, err := Cached(env, "shared", l.load)
					if err != nil {
						return nil, err
					}
					return []Record{{Dataset: env.Data.Mirror, Method: "m", Metric: "load", Value: float64(v)}}, nil
				}}
			}
			return out, nil
		},
		Render: func(*Results, *Output) error { return nil },
	}
}

func TestExecuteLoadsEachKeyOncePerRun(t *testing.T) {
	var l loader
	dir := t.TempDir()
	src := dataset.Source{Mirror: "/the/mirror"}
	res := mustExecute(t, cachedExperiment("a", 40, &l), Options{Scale: Smoke, Dir: dir, Workers: 8, Data: src})
	if got := l.n.Load(); got != 1 {
		t.Fatalf("%d loads for 40 tasks on 8 workers, want 1", got)
	}
	for _, r := range res.Rows {
		if r.Value != 1 || r.Dataset != src.Mirror {
			t.Fatalf("row %+v: want the first load's value and the run's data source", r)
		}
	}
	// Without Options.Cache every Execute call has a cache of its own ...
	mustExecute(t, cachedExperiment("b", 3, &l), Options{Scale: Smoke, Dir: dir})
	if got := l.n.Load(); got != 2 {
		t.Fatalf("%d loads after a second run, want 2", got)
	}
	// ... and with one, the calls given it share what they load.
	shared := new(Cache)
	for _, id := range []string{"c", "d"} {
		mustExecute(t, cachedExperiment(id, 3, &l), Options{Scale: Smoke, Dir: dir, Cache: shared})
	}
	if got := l.n.Load(); got != 3 {
		t.Fatalf("%d loads after two runs sharing a cache, want 3", got)
	}
}

func TestCachedConcurrentCallersShareOneLoad(t *testing.T) {
	env := &Env{Cache: new(Cache)}
	release := make(chan struct{})
	var loads atomic.Int64
	var wg sync.WaitGroup
	got := make([]string, 16)
	for i := range got {
		wg.Go(func() {
			got[i], _ = Cached(env, "k", func() (string, error) {
				loads.Add(1)
				<-release
				return "v", nil
			})
		})
	}
	close(release)
	wg.Wait()
	if loads.Load() != 1 || strings.Join(got, "") != strings.Repeat("v", 16) {
		t.Fatalf("%d loads, values %q", loads.Load(), got)
	}
}

func TestCachedKeepsNoFailure(t *testing.T) {
	env := &Env{Cache: new(Cache)}
	boom := errors.New("boom")
	if _, err := Cached(env, "k", func() (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("first load: %v, want its error", err)
	}
	if v, err := Cached(env, "k", func() (int, error) { return 7, nil }); v != 7 || err != nil {
		t.Fatalf("after a failed load: %d, %v, want a new load", v, err)
	}
	if v, err := Cached(env, "k", func() (int, error) { return 8, nil }); v != 7 || err != nil {
		t.Fatalf("after a good load: %d, %v, want the kept value", v, err)
	}
	// A load that panics is not kept either, and the panic goes on to the caller (the runtime makes
	// it the task's error).
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic of a load was swallowed")
			}
		}()
		Cached(env, "p", func() (int, error) { panic("no data") })
	}()
	if v, err := Cached(env, "p", func() (int, error) { return 1, nil }); v != 1 || err != nil {
		t.Fatalf("after a panicked load: %d, %v", v, err)
	}
}

func TestCachedRefusesAnotherType(t *testing.T) {
	env := &Env{Cache: new(Cache)}
	if _, err := Cached(env, "k", func() (error, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	_, err := Cached(env, "k", func() (int, error) { return 1, nil })
	if err == nil || !strings.Contains(err.Error(), `"k" was loaded as error, not int`) {
		t.Fatalf("read as another type: %v", err)
	}
}

func TestCachedWithoutCacheLoadsEveryTime(t *testing.T) {
	var l loader
	env := &Env{}
	for range 3 {
		if _, err := Cached(env, "k", l.load); err != nil {
			t.Fatal(err)
		}
	}
	if l.n.Load() != 3 {
		t.Fatalf("%d loads without a cache, want 3", l.n.Load())
	}
}
