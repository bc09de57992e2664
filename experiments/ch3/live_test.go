package ch3

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"slices"
	"testing"

	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/notebook"
)

// liveSeed is the notebook's seed.
const liveSeed = 2022

// newLive returns the live figure of the notebook's seed and the defaults of its controls.
func newLive(t testing.TB) (*LandmarksLive, []notebook.Control, []int) {
	t.Helper()
	live, err := NewLandmarksLive(liveSeed)
	if err != nil {
		t.Fatal(err)
	}
	controls := live.Controls()
	defaults := make([]int, len(controls))
	for i, c := range controls {
		defaults[i] = c.Value
	}
	return live, controls, defaults
}

// At the defaults Render draws a PNG of three panels side by side (wider than high), whose alt
// text names the values (λ_thesis, |S| = 20) and the three errors, as computed; the same values
// draw the same bytes.
func TestLandmarksLiveRender(t *testing.T) {
	live, controls, defaults := newLive(t)
	frame, err := live.Render(defaults)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(frame.PNG))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 2*b.Dy() || b.Dx() > 1600 {
		t.Errorf("image %v, want three panels side by side, at most 1600 pixels wide", b)
	}
	panels, err := live.panels(controls, defaults)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("λ = %.2g, |S| = 20; Nyström error: uniform %.2g, DAC %.2g, recursive %.2g",
		live.lambda, panels[0].nystromError, panels[1].nystromError, panels[2].nystromError)
	if frame.Alt != want {
		t.Errorf("alt text %q, want %q", frame.Alt, want)
	}
	again, err := live.Render(defaults)
	if err != nil || !bytes.Equal(again.PNG, frame.PNG) {
		t.Errorf("a second Render of the defaults differs (%v)", err)
	}
}

// A wrong number of values, or a value outside its control's range, is an error.
func TestLandmarksLiveBadValues(t *testing.T) {
	live, controls, defaults := newLive(t)
	bad := [][]int{nil, defaults[:1], append(slices.Clone(defaults), 0)}
	for i, c := range controls {
		for _, v := range []int{c.Min - 1, c.Max + 1} {
			values := slices.Clone(defaults)
			values[i] = v
			bad = append(bad, values)
		}
	}
	for _, values := range bad {
		if _, err := live.Render(values); err == nil {
			t.Errorf("Render(%v): no error", values)
		}
	}
}

// At every λ, each method's error at the largest |S| is at most its error at the smallest (the
// larger draw keeps the smaller's landmarks), with the landmarks distinct and |S| of them; uniform
// sampling does not depend on λ.
func TestLandmarksLiveErrorFalls(t *testing.T) {
	live, controls, _ := newLive(t)
	lam, size := controls[0], controls[1]
	var uniformAt [][]int
	for v := lam.Min; v <= lam.Max; v++ {
		small, err := live.panels(controls, []int{v, size.Min})
		if err != nil {
			t.Fatalf("λ = %s, |S| = %d: %v", lam.Format(v), size.Min, err)
		}
		large, err := live.panels(controls, []int{v, size.Max})
		if err != nil {
			t.Fatalf("λ = %s, |S| = %d: %v", lam.Format(v), size.Max, err)
		}
		for i := range small {
			m := small[i].method
			if a, b := small[i].nystromError, large[i].nystromError; !(b <= a*(1+1e-6)) {
				t.Errorf("λ = %s, %s: error %g at |S| = %d, %g at |S| = %d", lam.Format(v), m, a, size.Min, b, size.Max)
			}
			got := large[i].landmarks
			if len(got) != size.Max || len(slices.Compact(slices.Sorted(slices.Values(got)))) != size.Max {
				t.Errorf("λ = %s, %s: landmarks %v, want %d distinct", lam.Format(v), m, got, size.Max)
			}
			if !slices.Equal(got[:size.Min], small[i].landmarks) {
				t.Errorf("λ = %s, %s: the %d landmarks %v do not begin with the %d of the smaller draw %v",
					lam.Format(v), m, size.Max, got, size.Min, small[i].landmarks)
			}
		}
		uniformAt = append(uniformAt, large[0].landmarks)
	}
	for _, l := range uniformAt[1:] {
		if !slices.Equal(l, uniformAt[0]) {
			t.Errorf("uniform sampling's landmarks change with λ: %v, then %v", uniformAt[0], l)
		}
	}
}

// The error of the uniform panel, computed again another way: lowrank.RelativeFrobeniusError on the
// Nyström features of the panel's landmarks, which computes K and ΦΦᵀ tile by tile (the figure forms
// both whole and compares them with lowrank.RelativeFrobenius).
func TestLandmarksLiveErrorRecomputed(t *testing.T) {
	live, controls, defaults := newLive(t)
	panels, err := live.panels(controls, defaults)
	if err != nil {
		t.Fatal(err)
	}
	p := panels[0]
	if p.method != uniform || p.scores != nil {
		t.Fatalf("first panel %s with scores %v, want uniform sampling without", p.method, p.scores != nil)
	}
	ny, err := lowrank.FitNystrom(live.k, live.points, p.landmarks, 0)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := ny.Transform(live.points)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lowrank.RelativeFrobeniusError(live.k, live.points, phi, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.nystromError-want) > 1e-6*want {
		t.Errorf("uniform error %.12g, recomputed %.12g", p.nystromError, want)
	}
}

// BenchmarkLandmarksLiveRender times one redraw at the defaults: the scores, three Nyström fits and
// errors, the drawing and the PNG (under 300 ms is what a slider needs).
func BenchmarkLandmarksLiveRender(b *testing.B) {
	live, _, defaults := newLive(b)
	for b.Loop() {
		if _, err := live.Render(defaults); err != nil {
			b.Fatal(err)
		}
	}
}
