package run

import (
	"strings"
	"testing"
	"time"
)

func TestParseScale(t *testing.T) {
	for in, want := range map[string]Scale{"smoke": Smoke, "quick": Quick, "paper": Paper} {
		if got, err := ParseScale(in); err != nil || got != want {
			t.Errorf("ParseScale(%q) = %q, %v", in, got, err)
		}
	}
	// Strict (issue 34): a name that only differs by case or spaces is refused like any other, and
	// the error says how the name is written.
	for in, hint := range map[string]string{"": "not set", "fast": "", "smok": "", " Quick ": "lower case", "smoke ": "lower case", "PAPER": "lower case"} {
		_, err := ParseScale(in)
		if err == nil || !strings.Contains(err.Error(), "smoke, quick or paper") || !strings.Contains(err.Error(), hint) {
			t.Errorf("ParseScale(%q): %v, want an error naming the scales and %q", in, err, hint)
		}
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"0/3": {0, 3}, "2/3": {2, 3}, " 0/1 ": {0, 1}, "": {}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"3/3", "-1/3", "0/0", "1/0", "a/3", "1/b", "1", "1/2/3"} {
		if sh, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) = %v, want an error", in, sh)
		}
	}
	if s := (Shard{1, 4}).String(); s != "1/4" {
		t.Errorf("String = %q", s)
	}
	owned := 0
	for j := range 10 {
		if (Shard{1, 4}).owns(j) {
			owned++
			if j%4 != 1 {
				t.Errorf("shard 1/4 owns task %d", j)
			}
		}
	}
	if owned != 3 {
		t.Errorf("shard 1/4 owns %d of 10 tasks, want 3 (1, 5, 9)", owned)
	}
}

func TestP(t *testing.T) {
	type lambda float64
	for _, c := range []struct {
		v    any
		want string
	}{
		{"rbf", "rbf"}, {100, "100"}, {int8(-3), "-3"}, {uint64(1 << 63), "9223372036854775808"},
		{0.1, "0.1"}, {float32(0.1), "0.1"}, {1e-300, "1e-300"}, {lambda(2.5), "2.5"},
		{true, "true"}, {time.Second, "1000000000"}, {[]int{1, 2}, "[1 2]"}, {Smoke, "smoke"},
	} {
		if got := P("x", c.v).Value; got != c.want {
			t.Errorf("P(%T %v) = %q, want %q", c.v, c.v, got, c.want)
		}
	}
	r := Row{ID: "a", Params: []Param{P("s", 100), P("kind", "rbf")}}
	if x, err := r.ParamFloat("s"); err != nil || x != 100 {
		t.Errorf("ParamFloat(s) = %v, %v", x, err)
	}
	if _, err := r.ParamFloat("kind"); err == nil {
		t.Error("ParamFloat of a non-number: no error")
	}
	if _, err := r.ParamFloat("lam"); err == nil || !strings.Contains(err.Error(), `"lam"`) {
		t.Errorf("ParamFloat of a missing param: %v", err)
	}
	if v, ok := r.Param("kind"); !ok || v != "rbf" {
		t.Errorf("Param(kind) = %q, %v", v, ok)
	}
}

// TestShardOwned counts against owns, task by task.
func TestShardOwned(t *testing.T) {
	for _, sh := range []Shard{{}, {Index: 0, Count: 1}, {Index: 0, Count: 3}, {Index: 2, Count: 3}, {Index: 4, Count: 5}} {
		for n := range 12 {
			want := 0
			for j := range n {
				if sh.owns(j) {
					want++
				}
			}
			if got := sh.Owned(n); got != want {
				t.Errorf("shard %v, %d tasks: Owned = %d, want %d", sh, n, got, want)
			}
		}
	}
}
