package notebook

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLiveValidatesControls(t *testing.T) {
	ok := func([]int) (Frame, error) { return Frame{PNG: []byte{1}}, nil }
	for _, tc := range []struct {
		name     string
		controls []Control
		render   Render
		want     string
	}{
		{"nil render", []Control{{Label: "k", Min: 1, Max: 3, Value: 2}}, nil, "nil render"},
		{"no controls", nil, ok, "no controls"},
		{"no label", []Control{{Label: " ", Min: 1, Max: 3, Value: 2}}, ok, "no label"},
		{"empty range", []Control{{Label: "k", Min: 3, Max: 3, Value: 3}}, ok, "empty"},
		{"default outside", []Control{{Label: "k", Min: 1, Max: 3, Value: 4}}, ok, "outside"},
	} {
		if err := Live("t", tc.controls, tc.render); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// Outside a notebook (and so without a browser), Live draws the default figure once, for the
// controls' defaults, and returns at once; a failing default drawing is an error.
func TestLiveDrawsTheDefaultOnceOutsideANotebook(t *testing.T) {
	var calls [][]int
	controls := []Control{{Label: "rank k", Min: 1, Max: 50, Value: 10}, {Label: "λ", Min: -6, Max: 0, Value: -3}}
	start := time.Now()
	err := Live("faces", controls, func(v []int) (Frame, error) {
		calls = append(calls, append([]int(nil), v...))
		return Frame{PNG: []byte("png")}, nil
	})
	if err != nil || len(calls) != 1 || calls[0][0] != 10 || calls[0][1] != -3 {
		t.Fatalf("error %v, calls %v; want one call with the defaults [10 −3]", err, calls)
	}
	if time.Since(start) > time.Second {
		t.Fatalf("Live took %v outside a notebook, want no wait for a browser", time.Since(start))
	}
	boom := errors.New("boom")
	if err := Live("faces", controls, func([]int) (Frame, error) { return Frame{}, boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v, want the render error", err)
	}
}

func TestFrameHTMLAndAltText(t *testing.T) {
	controls := []Control{{Label: "rank k", Min: 1, Max: 50, Value: 10}, {Label: "λ", Min: -6, Max: 0, Value: -3,
		Format: func(v int) string { return "1e" + strconv.Itoa(-v) }}}
	alt := AltText(controls, []int{12, -2})
	if alt != "rank k = 12, λ = 1e2" {
		t.Fatalf("AltText = %q", alt)
	}
	got := frameHTML(`faces <&>`, Frame{PNG: []byte{0x89, 'P', 'N', 'G'}, Alt: alt})
	for _, want := range []string{`src="data:image/png;base64,` + base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G'}) + `"`,
		`alt="faces &lt;&amp;&gt;: rank k = 12, λ = 1e2"`} {
		if !strings.Contains(got, want) {
			t.Fatalf("frameHTML = %s, want it to contain %s", got, want)
		}
	}
}

// settle keeps the last value of each control among updates that arrive less than debounce apart,
// and returns once they stop.
func TestSettleKeepsTheLatestValues(t *testing.T) {
	updates := make(chan [2]int, 8)
	values := []int{0, 0}
	go func() {
		for v := 1; v <= 5; v++ {
			updates <- [2]int{0, v}
			time.Sleep(debounce / 4)
		}
		updates <- [2]int{1, 7}
	}()
	start := time.Now()
	settle(updates, values)
	if values[0] != 5 || values[1] != 7 {
		t.Fatalf("values %v, want [5 7]", values)
	}
	if d := time.Since(start); d < debounce {
		t.Fatalf("settle returned after %v, before the updates stopped", d)
	}
}

func TestSecondsFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{{"", 3 * time.Second}, {"0.5", 500 * time.Millisecond}, {"-1", 3 * time.Second}, {"NaN", 3 * time.Second}, {"x", 3 * time.Second}} {
		t.Setenv(LiveProbeVariable, tc.value)
		if got := seconds(LiveProbeVariable, 3); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.value, got, tc.want)
		}
	}
}

func TestCheckValues(t *testing.T) {
	controls := []Control{{Label: "k", Min: 1, Max: 5, Value: 2}, {Label: "λ", Min: -3, Max: 0, Value: -1}}
	if err := CheckValues(controls, []int{1, 0}); err != nil {
		t.Fatalf("values at the ends of the ranges: %v", err)
	}
	for _, bad := range [][]int{nil, {2}, {2, -1, 0}, {0, -1}, {6, -1}, {2, -4}, {2, 1}} {
		if err := CheckValues(controls, bad); err == nil {
			t.Errorf("values %v accepted", bad)
		}
	}
}
