package run

import (
	"fmt"
	"strings"
)

// Scale selects the size of every experiment: the same code path runs in seconds (Smoke), in well
// under an hour for the whole catalogue (Quick) or at the sizes of the source (Paper).
type Scale string

// The three scales of the catalogue.
const (
	// Smoke is tiny n and 2 repetitions: seconds per experiment, what CI runs end to end.
	Smoke Scale = "smoke"
	// Quick is the default: real (possibly subsampled) data and enough repetitions for error bars.
	Quick Scale = "quick"
	// Paper is the sizes and repetition counts written in the source; shardable by task.
	Paper Scale = "paper"
)

// ParseScale reads a scale name, exactly as written (smoke, quick or paper), so command-line flags
// and notebook parameters get a clear error instead of an unknown scale reaching a Plan. It is
// strict: "Quick" or "smoke " is refused with the names it accepts, as every other unknown name
// is, rather than read as another scale would be written.
func ParseScale(s string) (Scale, error) {
	sc := Scale(s)
	if err := sc.validate(); err != nil {
		return "", err
	}
	return sc, nil
}

func (sc Scale) validate() error {
	switch sc {
	case Smoke, Quick, Paper:
		return nil
	case "":
		return fmt.Errorf("run: scale not set (want %s, %s or %s)", Smoke, Quick, Paper)
	}
	if fold := Scale(strings.ToLower(strings.TrimSpace(string(sc)))); fold != sc && fold.validate() == nil {
		return fmt.Errorf("run: unknown scale %q (want %s, %s or %s; scale names are lower case, without spaces: %s)", string(sc), Smoke, Quick, Paper, fold)
	}
	return fmt.Errorf("run: unknown scale %q (want %s, %s or %s)", string(sc), Smoke, Quick, Paper)
}

// Scales lists the scales from smallest to largest.
func Scales() []Scale { return []Scale{Smoke, Quick, Paper} }

// PerScale holds one value for each scale, such as the sizes of an experiment:
//
//	points := run.PerScale[int]{Smoke: 200, Quick: 2000, Paper: 20000}
//	n := points.At(sc)
//
// Unlike a map keyed by Scale, it cannot lack a scale: each is a field, which a literal either
// sets or visibly leaves at its zero value.
type PerScale[T any] struct{ Smoke, Quick, Paper T }

// At returns the value of scale sc. sc is one of the three scales wherever the runtime calls a
// plan (Execute, Merge, TaskKeys and Missing check the scale first, and ParseScale accepts only
// those), so At needs no error; for any other Scale value, which only a program that makes one up
// can produce, it returns the zero value of T.
func (p PerScale[T]) At(sc Scale) T {
	switch sc {
	case Smoke:
		return p.Smoke
	case Quick:
		return p.Quick
	case Paper:
		return p.Paper
	}
	var zero T
	return zero
}
