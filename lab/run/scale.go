package run

import (
	"fmt"
	"path/filepath"
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

// ParseScale reads a scale name (case and surrounding spaces ignored), so command-line flags and
// notebook parameters get a clear error instead of an unknown scale reaching a Plan.
func ParseScale(s string) (Scale, error) {
	sc := Scale(strings.ToLower(strings.TrimSpace(s)))
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
	return fmt.Errorf("run: unknown scale %q (want %s, %s or %s)", string(sc), Smoke, Quick, Paper)
}

// Scales lists the scales from smallest to largest.
func Scales() []Scale { return []Scale{Smoke, Quick, Paper} }

// FiguresDir is where a run at this scale writes its figures, tables, claims report and gallery
// by default, <results>/<scale>/figures beside its tidy results: a user's run stays in its own
// (git-ignored) results root and never rewrites the committed outputs (CommittedFiguresDir).
func (sc Scale) FiguresDir(resultsRoot string) string {
	return filepath.Join(resultsRoot, string(sc), "figures")
}

// CommittedFiguresDir is where the committed outputs of this scale live, relative to the
// repository root: figures/ for quick and figures/paper/ for paper; ok is false for smoke, whose
// outputs are never committed. Only a deliberate reference update writes there.
func (sc Scale) CommittedFiguresDir() (dir string, ok bool) {
	switch sc {
	case Quick:
		return "figures", true
	case Paper:
		return filepath.Join("figures", "paper"), true
	}
	return "", false
}
