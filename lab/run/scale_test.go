package run

import (
	"context"
	"testing"
)

func TestPerScaleAt(t *testing.T) {
	sizes := PerScale[[]int]{Smoke: []int{10}, Quick: []int{100, 200}, Paper: []int{1000, 2000, 5000}}
	for sc, want := range map[Scale]int{Smoke: 1, Quick: 2, Paper: 3} {
		if got := len(sizes.At(sc)); got != want {
			t.Errorf("At(%s): %d sizes, want %d", sc, got, want)
		}
	}
	if got := sizes.At("huge"); got != nil {
		t.Errorf("At of a made-up scale = %v, want the zero value", got)
	}
	if got := (PerScale[string]{Quick: "q"}).At(Smoke); got != "" {
		t.Errorf("a scale left out of the literal: %q, want the zero value", got)
	}
}

// No way into a plan lets a scale other than the three through, so PerScale.At never meets one.
func TestPlansOnlySeeTheThreeScales(t *testing.T) {
	e := (&toy{n: 2}).experiment()
	plan := e.Plan
	e.Plan = func(sc Scale) ([]Task, error) {
		if err := sc.validate(); err != nil {
			t.Errorf("plan called with %v", err)
		}
		return plan(sc)
	}
	dir := t.TempDir()
	for _, sc := range []Scale{"", "huge"} {
		if _, err := Execute(context.Background(), e, Options{Scale: sc, Dir: dir}); err == nil {
			t.Errorf("Execute at %q: no error", sc)
		}
		if err := Merge(e, sc, dir, dir); err == nil {
			t.Errorf("Merge at %q: no error", sc)
		}
		if _, err := TaskKeys(e, sc); err == nil {
			t.Errorf("TaskKeys at %q: no error", sc)
		}
		if _, err := Missing(e, sc, dir, Shard{}); err == nil {
			t.Errorf("Missing at %q: no error", sc)
		}
	}
}
