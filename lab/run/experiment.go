package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// Task is one independent unit of work, usually one repetition of one configuration. Tasks share
// nothing, so they can run in any order, on any worker or on any machine of a sharded run.
type Task struct {
	// Key is stable and unique within the plan (e.g. "kc1/rep=3"); it names the task's part file
	// and seeds its random number generator, so it must not depend on the scale's task order.
	Key string
	// Rep is the repetition the task's rows are recorded under.
	Rep int
	// Run does the work; it should return promptly with ctx.Err() once ctx is cancelled.
	Run func(ctx context.Context, env *Env) ([]Record, error)
}

// Env is what a running task gets from the runtime.
type Env struct {
	// Scale is the scale of the run.
	Scale Scale
	// RNG is a math/rand/v2 PCG seeded from (experiment seed, task key) by a fixed hash (FNV-1a of
	// the key, mixed with the seed by SplitMix64): the same numbers whatever the worker count, shard
	// or order. Changing that hash would change every published number, so it never changes.
	RNG *rand.Rand
	// Log takes notes from the task; each line goes to the progress reporter's log.
	Log io.Writer
	// Data is where the task's data sets come from (Options.Data): a task loads through it, never
	// through a source of its own, so that the caller decides the mirror and the cache.
	Data dataset.Source
	// Cache keeps what the run's tasks load, once per run (see Cached); shared by every task of
	// the run, and by the runs that share Options.Cache.
	Cache *Cache
}

// Kind says whether an experiment produces a figure or a table, which decides the rendered files.
type Kind int

// The kinds of catalogue entries.
const (
	// Figure entries render PNG and SVG files.
	Figure Kind = iota
	// Table entries render Markdown and CSV files.
	Table
)

// String names the kind ("figure" or "table") for listings.
func (k Kind) String() string {
	switch k {
	case Figure:
		return "figure"
	case Table:
		return "table"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Experiment is one catalogue entry: how to plan its tasks at each scale, how to render its results
// and which claims of the source to check on them.
type Experiment struct {
	// ID is the catalogue ID (fig3_2): it names the results, figures and notebook section.
	ID string
	// Title is the human-readable name used in listings and provenance files.
	Title string
	// Source names what the entry reproduces, e.g. "thesis Figure 3.2 (§3.3.1)"; the gallery shows it.
	Source string
	Kind   Kind
	// Seed is the experiment seed; every task's RNG derives from it and the task key. Give each
	// experiment of a catalogue a seed of its own.
	Seed uint64
	// Serial runs tasks one at a time (wall-clock timing experiments).
	Serial bool
	// Tolerance, by metric, is the relative difference lab diff accepts for a metric that amplifies
	// rounding beyond its default (1e-9): a quantity at rounding level, an ill-conditioned solve.
	// Say why next to each entry, with the difference measured between BLAS kernels.
	Tolerance map[string]float64
	// BySpread, by metric, says why lab diff compares the metric by its spread over the draws once a
	// value exceeds the tolerance: a metric read off a discrete decision (an accuracy, a chosen
	// subset, a split), which a last-bit difference of the arithmetic can flip whole, or the
	// difference of nearly equal quantities, which cancels all but the last bits. Such a metric is
	// identical on one machine and BLAS kernel set, and agrees in distribution across them. The key
	// "*" stands for every metric of the experiment.
	BySpread map[string]string
	// Timings lists the metrics that measure time (the seconds of a call, a speed-up): they change
	// with every run and machine, so lab diff compares them only when asked (--timing), by their
	// spread over the draws, never by a tolerance. A timing metric takes no Tolerance or BySpread
	// entry of its own.
	Timings []string
	// PartialRuns says that the renderer and the claims label results that hold only the first
	// tasks of the plan (how many of the plan's draws they hold, in the figure, the caption and
	// every claim's evidence), so that a partial run (Options.First) may make its results; the
	// other experiments refuse one, since their numbers would pass for the whole plan's. It is
	// read on the experiment that runs the tasks (Producer): every entry that Uses one with
	// PartialRuns must label its results too.
	PartialRuns bool
	// Plan lists the tasks at a scale. It must be cheap and deterministic (no data loading): shards
	// and merge call it to know the task order. It is nil when Uses is set.
	Plan func(sc Scale) ([]Task, error)
	// Uses, when set, is the experiment whose results this entry renders and checks: the entry runs
	// no tasks of its own, so several figures drawn from one set of runs (chapter 6's six figures
	// share one forest per data set and repetition) pay for those runs once. Execute, Load, Merge,
	// TaskKeys and Missing act on Uses; Render writes this entry's files. Uses must have a Plan.
	Uses *Experiment
	// Render reads only the results and writes the experiment's files through out.
	Render func(res *Results, out *Output) error
	// Claims are the statements of the source checked on the results.
	Claims []Claim
}

// Claim is one statement the source draws from an experiment, checked on our own results.
type Claim struct {
	// ID names the claim within its experiment; Text is the source's statement in its own words
	// (translated), made precise enough to test.
	ID, Text string
	// Kind says what sort of statement the claim is (finding, timing, check or bookkeeping); the
	// claims report counts the kinds apart.
	Kind ClaimKind
	// Rule is the statistic and the decision rule in words: what is estimated, on which draws, and
	// what supports or contradicts the claim.
	Rule string
	// Check decides the claim from the results and gives the numbers behind the verdict. It builds
	// its statistics with the tests of lab/verdict (verdict.Decide, verdict.MeanAbove, ...).
	Check func(res *Results) (verdict.Verdict, error)
}

// ClaimKind says what sort of statement a claim is. The headline of the claims report counts the
// kinds apart because they answer different questions: only findings say whether the source's
// methods behave as it says.
type ClaimKind string

// The kinds of claims.
const (
	// Finding is an empirical statement about the source's methods: an accuracy, an error, a rate
	// of convergence, which method wins where.
	Finding ClaimKind = "finding"
	// Timing is a statement about speed. It is decided on this Go implementation on the machine
	// that ran it; the sources timed their own code (the thesis its Python), so a timing verdict
	// says how the methods compare here, not whether the source measured right.
	Timing ClaimKind = "timing"
	// Check is a mathematical certainty or identity (a theorem's bound, the unbiasedness of a Monte
	// Carlo estimate, Eckart–Young, a picture constructed to show a fact): a test of this
	// implementation, which only a bug can contradict.
	Check ClaimKind = "check"
	// Bookkeeping is a statement about the data: the sizes of the data sets in the source's tables.
	Bookkeeping ClaimKind = "bookkeeping"
)

// ClaimKinds lists the kinds in the order the claims report counts them.
func ClaimKinds() []ClaimKind { return []ClaimKind{Finding, Timing, Check, Bookkeeping} }

// Producer is the experiment that runs the tasks behind e's results and names their files: Uses
// when set, e itself otherwise.
func (e *Experiment) Producer() *Experiment {
	if e.Uses != nil {
		return e.Uses
	}
	return e
}

// validateID keeps experiment IDs usable as file names on every system.
func validateID(id string) error {
	if id == "" {
		return errors.New("run: experiment ID is empty")
	}
	if id[0] == '.' || id[0] == '-' {
		return fmt.Errorf("run: experiment ID %q must not start with %q", id, id[0])
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_.-", c)) {
			return fmt.Errorf("run: experiment ID %q: character %q (use letters, digits, _ . -)", id, c)
		}
	}
	return nil
}

// validate checks what the runtime relies on, so a broken catalogue entry is an error, not a panic.
func (e *Experiment) validate() error {
	if e == nil {
		return errors.New("run: nil experiment")
	}
	if err := validateID(e.ID); err != nil {
		return err
	}
	switch {
	case e.Uses != nil && e.Plan != nil:
		return fmt.Errorf("run: experiment %s has both a Plan and Uses %s (an entry that uses another's results runs no tasks)", e.ID, e.Uses.ID)
	case e.Uses != nil && e.Uses.Uses != nil:
		return fmt.Errorf("run: experiment %s uses %s, which itself uses %s: name the experiment that runs the tasks", e.ID, e.Uses.ID, e.Uses.Uses.ID)
	case e.Uses != nil:
		if err := e.Uses.validate(); err != nil {
			return fmt.Errorf("run: experiment %s uses an invalid experiment: %w", e.ID, err)
		}
	case e.Plan == nil:
		return fmt.Errorf("run: experiment %s has no Plan", e.ID)
	}
	if e.Render == nil {
		return fmt.Errorf("run: experiment %s has no Render", e.ID)
	}
	if err := e.validateTimings(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(e.Claims))
	for i, c := range e.Claims {
		if c.ID == "" {
			return fmt.Errorf("run: experiment %s: claim %d has an empty ID", e.ID, i+1)
		}
		if seen[c.ID] {
			return fmt.Errorf("run: experiment %s: claim ID %q appears twice", e.ID, c.ID)
		}
		seen[c.ID] = true
		if !slices.Contains(ClaimKinds(), c.Kind) {
			return fmt.Errorf("run: experiment %s: claim %s has kind %q; give it one of %v (the claims report counts the kinds apart)", e.ID, c.ID, c.Kind, ClaimKinds())
		}
	}
	return nil
}

// validateTimings checks that Timings names each metric once and does not also give it a tolerance
// or a reason to compare it by spread, which lab diff would not apply to a timing.
func (e *Experiment) validateTimings() error {
	for i, m := range e.Timings {
		switch {
		case m == "":
			return fmt.Errorf("run: experiment %s: timing metric %d is empty", e.ID, i+1)
		case slices.Contains(e.Timings[:i], m):
			return fmt.Errorf("run: experiment %s: timing metric %q appears twice", e.ID, m)
		case e.Tolerance[m] != 0:
			return fmt.Errorf("run: experiment %s: timing metric %q has a Tolerance, which lab diff does not apply to timings", e.ID, m)
		case e.BySpread[m] != "":
			return fmt.Errorf("run: experiment %s: timing metric %q is in BySpread: timings are always compared by their spread", e.ID, m)
		}
	}
	return nil
}

// IsTiming reports whether metric measures time (Timings).
func (e *Experiment) IsTiming(metric string) bool { return slices.Contains(e.Timings, metric) }

// SpreadReason returns why lab diff compares metric by its spread over the draws (BySpread, its
// own entry or "*"), or "" when its values are held to the tolerance.
func (e *Experiment) SpreadReason(metric string) string {
	if why := e.BySpread[metric]; why != "" {
		return why
	}
	return e.BySpread["*"]
}
