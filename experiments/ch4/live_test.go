package ch4

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/fastkernels/kernellab/experiments/internal/kittest"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/notebook"
)

// liveSeed is the seed of the live figure in the tests and the benchmark.
const liveSeed = 2022

// liveDefaults returns the default values of controls.
func liveDefaults(controls []notebook.Control) []int {
	values := make([]int, len(controls))
	for i, c := range controls {
		values[i] = c.Value
	}
	return values
}

// altNumber reads the number after name ("power 0.83") in an alt text.
func altNumber(t *testing.T, alt, name string) float64 {
	t.Helper()
	m := regexp.MustCompile(name + ` ([0-9.]+)`).FindStringSubmatch(alt)
	if m == nil {
		t.Fatalf("alt text %q has no %s", alt, name)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// At the defaults (n = 200, Nyström) Render gives a PNG of the figure's size and an alt text that
// names the values and gives power and size; the same values give the same frame.
func TestMMDLiveRender(t *testing.T) {
	l, err := NewMMDLive(liveSeed)
	if err != nil {
		t.Fatal(err)
	}
	controls := l.Controls()
	values := liveDefaults(controls)
	f, err := l.Render(values)
	if err != nil {
		t.Fatal(err)
	}
	kittest.CheckFrame(t, f, 600, 400, "sample size n = 200", "estimator = Nyström", notebook.AltText(controls, values), "power ", "size ")
	again, err := l.Render(values)
	if err != nil {
		t.Fatal(err)
	}
	if again.Alt != f.Alt || !bytes.Equal(again.PNG, f.PNG) {
		t.Error("a second Render of the same values drew another frame")
	}
	// Every estimator draws at the smallest n (RFF, linear and block are randomised).
	for e := range liveEstimators {
		if _, err := l.Render([]int{0, e}); err != nil {
			t.Errorf("%s at n = %d: %v", liveEstimators[e].Name(), liveSizes[0], err)
		}
	}
}

// Values of the wrong length or outside the sliders' ranges are errors, not panics.
func TestMMDLiveRejectsBadValues(t *testing.T) {
	l, err := NewMMDLive(liveSeed)
	if err != nil {
		t.Fatal(err)
	}
	for _, values := range [][]int{nil, {}, {2}, {2, 0, 0}, {-1, 0}, {len(liveSizes), 0}, {2, -1}, {2, len(liveEstimators)}} {
		if _, err := l.Render(values); err == nil {
			t.Errorf("Render(%v) gave no error", values)
		}
	}
}

// The power and size in the alt text are a recount, from the same draws, of the exact MMD²
// computed here with mmd.Exact: the threshold is the smallest H0 statistic with at most 5% of the
// H0 statistics above it.
func TestMMDLivePowerIsARecount(t *testing.T) {
	l, err := NewMMDLive(liveSeed)
	if err != nil {
		t.Fatal(err)
	}
	for sizeIndex, n := range liveSizes[:3] {
		f, err := l.Render([]int{sizeIndex, 0})
		if err != nil {
			t.Fatal(err)
		}
		var h0, h1 []float64
		for r := range liveDraws {
			x, xPrime, z := make([]int, n), make([]int, n), make([]int, n)
			for i := range n {
				x[i], xPrime[i], z[i] = i, l.nMax+i, 2*l.nMax+i
			}
			v0, err := mmd.Exact{}.MMD2(context.Background(), nil, l.draws[r], x, xPrime)
			if err != nil {
				t.Fatal(err)
			}
			v1, err := mmd.Exact{}.MMD2(context.Background(), nil, l.draws[r], x, z)
			if err != nil {
				t.Fatal(err)
			}
			h0, h1 = append(h0, v0), append(h1, v1)
		}
		above := func(vs []float64, level float64) int {
			count := 0
			for _, v := range vs {
				if v > level {
					count++
				}
			}
			return count
		}
		sorted := slices.Sorted(slices.Values(h0))
		threshold := sorted[0]
		for _, v := range sorted {
			if threshold = v; 20*above(h0, v) <= len(h0) {
				break
			}
		}
		power, size := float64(above(h1, threshold))/liveDraws, float64(above(h0, threshold))/liveDraws
		if got := altNumber(t, f.Alt, "power"); strconv.FormatFloat(got, 'f', 2, 64) != strconv.FormatFloat(power, 'f', 2, 64) {
			t.Errorf("n = %d: alt text power %g, recount %g", n, got, power)
		}
		if got := altNumber(t, f.Alt, "size"); strconv.FormatFloat(got, 'f', 2, 64) != strconv.FormatFloat(size, 'f', 2, 64) {
			t.Errorf("n = %d: alt text size %g, recount %g", n, got, size)
		}
	}
}

// With Q = P the test rejects H1 about as often as H0 (a power near 5%); with a large shift it
// rejects nearly every H1 draw: the alt text's power follows the distance between P and Q, for
// every estimator at the default n.
func TestMMDLivePowerGrowsWithShift(t *testing.T) {
	var powers [2][]float64
	for i, shift := range []float64{0, 1.5} {
		l, err := newMMDLive(liveSeed, shift)
		if err != nil {
			t.Fatal(err)
		}
		for e := range liveEstimators {
			f, err := l.Render([]int{2, e})
			if err != nil {
				t.Fatal(err)
			}
			powers[i] = append(powers[i], altNumber(t, f.Alt, "power"))
		}
	}
	for e, est := range liveEstimators {
		none, large := powers[0][e], powers[1][e]
		if none > 0.15 || large < none+0.3 {
			t.Errorf("%s: power %g without a shift, %g with a shift of 1.5: want at most 0.15, then at least 0.3 more", est.Name(), none, large)
		}
	}
}

// BenchmarkMMDLiveRender times one redraw at the defaults (n = 200, the Nyström MMD²: 200
// statistics, the histograms and the PNG).
func BenchmarkMMDLiveRender(b *testing.B) {
	l, err := NewMMDLive(liveSeed)
	if err != nil {
		b.Fatal(err)
	}
	values := liveDefaults(l.Controls())
	for b.Loop() {
		if _, err := l.Render(values); err != nil {
			b.Fatal(err)
		}
	}
}
