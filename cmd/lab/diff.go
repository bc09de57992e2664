package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/safefile"
)

// metricDiff is the comparison of one metric of one experiment.
type metricDiff struct {
	id, metric, class string
	compared, differ  int     // rows present in both; of them, values not bit-for-bit identical
	beyond            int     // of those, values farther apart than the tolerance
	maxRel            float64 // largest relative difference (NaN when a NaN meets a number)
	missing, extra    int     // rows only in the reference, only in the fresh results
	z                 float64 // largest |mean difference| / its standard error over the series' draws
	verdict           string  // one of the verdict constants
	note              string
}

// Verdicts of a metric, from best to worst.
const (
	verdictIdentical = "identical"        // every value bit-for-bit the same
	verdictTolerance = "within tolerance" // values differ, none by more than the tolerance
	verdictSpread    = "within spread"    // judged statistically: means within the spread over the draws
	verdictSkipped   = "not compared"     // a timing metric without --timing
	verdictDrift     = "DRIFT"
)

// diffOptions says how lab diff judges a difference.
type diffOptions struct {
	// exact demands bit-for-bit equality of deterministic values; otherwise they pass within rtol.
	exact bool
	// rtol is the relative difference a deterministic value may differ by: |a−b| ≤ rtol·max(|a|,|b|,
	// floor), floor being the metric's largest |value| in the reference times floorFrac.
	rtol float64
	// timing compares timing metrics (against the spread over the draws; never by tolerance).
	timing bool
	// statistical lets deterministic values beyond the tolerance pass when within the spread.
	statistical bool
	// zMax is the largest |difference of means| / standard error counted as within the spread.
	zMax float64
}

// relDiff is |a−b| / max(|a|,|b|): 0 for equal values (infinities of one sign included), NaN when
// exactly one is NaN, 1 when one of them is zero.
func relDiff(a, b float64) float64 {
	switch {
	case a == b || math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a) || math.IsNaN(b):
		return math.NaN()
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.Inf(1)
	}
	return math.Abs(a-b) / max(math.Abs(a), math.Abs(b))
}

// diffResults compares fresh results with the reference, metric by metric (see diffOptions), for
// experiment e: a metric in e.Timings is a timing, a metric in e.Tolerance is judged with the larger of its tolerance and o.rtol, and
// a metric in e.BySpread has its values beyond the tolerance judged against the spread over the
// draws, as with o.statistical; o.exact overrides both.
func diffResults(e *run.Experiment, ref, got *run.Results, o diffOptions) []metricDiff {
	id, tolerance := e.ID, e.Tolerance
	byMetric := map[string]map[string]*draws{}
	rows := map[string]map[string][2]*float64{} // metric → series/rep → values
	scale := map[string]float64{}               // metric → largest finite |value| in the reference
	add := func(r run.Row, which int) {
		if byMetric[r.Metric] == nil {
			byMetric[r.Metric] = map[string]*draws{}
			rows[r.Metric] = map[string][2]*float64{}
		}
		sk := seriesKey(r)
		c := byMetric[r.Metric][sk]
		if c == nil {
			c = &draws{}
			byMetric[r.Metric][sk] = c
		}
		v := r.Value
		if which == 0 {
			c.ref = append(c.ref, v)
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				scale[r.Metric] = max(scale[r.Metric], math.Abs(v))
			}
		} else {
			c.got = append(c.got, v)
		}
		k := fmt.Sprintf("%s\x00rep=%d", sk, r.Rep)
		pair := rows[r.Metric][k]
		pair[which] = &v
		rows[r.Metric][k] = pair
	}
	for _, r := range ref.Rows {
		add(r, 0)
	}
	for _, r := range got.Rows {
		add(r, 1)
	}
	metrics := make([]string, 0, len(byMetric))
	for m := range byMetric {
		metrics = append(metrics, m)
	}
	sort.Strings(metrics)
	var out []metricDiff
	for _, m := range metrics {
		d := metricDiff{id: id, metric: m, class: "deterministic"}
		if e.IsTiming(m) {
			d.class = "timing"
			if !o.timing {
				d.verdict, d.note = verdictSkipped, "--timing compares it"
				out = append(out, d)
				continue
			}
		}
		floor, rtol := scale[m]*floorFrac, max(o.rtol, tolerance[m])
		for _, pair := range rows[m] {
			switch {
			case pair[0] == nil:
				d.extra++
			case pair[1] == nil:
				d.missing++
			default:
				d.compared++
				a, b := *pair[0], *pair[1]
				rel := relDiff(a, b)
				if rel == 0 {
					continue
				}
				d.differ++
				if rel > d.maxRel || math.IsNaN(rel) || math.IsNaN(d.maxRel) {
					d.maxRel = rel
				}
				if o.exact || d.class == "timing" || !withinTolerance(a, b, rtol, floor) {
					d.beyond++
				}
			}
		}
		statistical := o.statistical || e.SpreadReason(m) != "" && !o.exact
		d.z = spreadZ(byMetric[m])
		withinSpread := d.z <= o.zMax
		switch {
		case d.missing > 0 || d.extra > 0:
			d.verdict = verdictDrift
			d.note = fmt.Sprintf("%d rows only in the reference, %d only in the fresh results", d.missing, d.extra)
		case d.differ == 0:
			d.verdict = verdictIdentical
		case d.beyond == 0:
			d.verdict = verdictTolerance
		case (d.class == "timing" || statistical) && withinSpread:
			d.verdict, d.note = verdictSpread, spreadNote(d.z, o.zMax, true)
			if why := e.SpreadReason(m); why != "" && !o.statistical && d.class != "timing" {
				d.note = fmt.Sprintf("%d of %d values beyond the tolerance (%s); %s", d.beyond, d.compared, why, d.note)
			}
		case d.class == "timing" || statistical:
			d.verdict, d.note = verdictDrift, spreadNote(d.z, o.zMax, false)
		default:
			d.verdict = verdictDrift
			d.note = fmt.Sprintf("%d of %d values beyond the tolerance; %s", d.beyond, d.compared, spreadNote(d.z, o.zMax, withinSpread))
		}
		out = append(out, d)
	}
	return out
}

// withinTolerance reports whether finite a and b satisfy |a−b| ≤ rtol·max(|a|, |b|, floor).
func withinTolerance(a, b, rtol, floor float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return a == b
	}
	return math.Abs(a-b) <= rtol*max(math.Abs(a), math.Abs(b), floor)
}

// floorFrac sets the tolerance's floor for values near zero, as a fraction of the metric's largest
// |value| in the reference. A value near zero is usually a difference of larger quantities (a
// residual, an error against the exact value), whose rounding error is relative to those: judged
// by its own size, its last bits would show as a large relative difference.
const floorFrac = 1e-3

// spreadZ is the largest |difference of means| / its standard error over the series' draws of one
// metric: +Inf when means differ with no spread to judge them by.
func spreadZ(series map[string]*draws) float64 {
	var z float64
	for _, c := range series {
		if len(c.ref) == 0 || len(c.got) == 0 {
			continue
		}
		mr, vr := meanVar(c.ref)
		mg, vg := meanVar(c.got)
		se := math.Sqrt(vr/float64(len(c.ref)) + vg/float64(len(c.got)))
		switch {
		case mr == mg:
		case se == 0:
			z = math.Inf(1)
		default:
			z = max(z, math.Abs(mr-mg)/se)
		}
	}
	return z
}

// draws are the values of one series (a row without its repetition) in both tables.
type draws struct{ ref, got []float64 }

// seriesKey is a row without its repetition: the draws of one series.
func seriesKey(r run.Row) string {
	var b strings.Builder
	b.WriteString(r.Dataset + "\x00" + r.Method + "\x00")
	for _, p := range r.Params {
		b.WriteString(p.Name + "=" + p.Value + "\x00")
	}
	return b.String()
}

// meanVar is the mean and the sample variance (0 for one draw) of v, summed in order. It is not
// gonum's stat.MeanVariance, which gives NaN for one draw and sums otherwise (floats.Sum, with a
// compensation term), so that z and lab diff's notes could change in their last digits.
func meanVar(v []float64) (float64, float64) {
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	if len(v) > 1 {
		s /= float64(len(v) - 1)
	}
	return m, s
}

func spreadNote(z, zMax float64, within bool) string {
	if math.IsInf(z, 1) {
		return "one draw per series (or no spread): nothing to judge a difference by"
	}
	if within {
		return fmt.Sprintf("means within the spread over the draws (max |Δ|/SE %.2g ≤ %g)", z, zMax)
	}
	return fmt.Sprintf("means outside the spread over the draws (max |Δ|/SE %.2g > %g)", z, zMax)
}

func cmdDiff(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("diff", "[ID ... | all]",
		"Compare the results of a run (<results>/<scale>/<ID>.csv) with the committed reference results\n"+
			"(figures/results/<scale>/<ID>.csv: the results behind the committed quick-scale figures), metric by\n"+
			"metric. Metrics that do not time anything come from seeded random streams: they pass when\n"+
			"identical or within --rtol (another BLAS core rounds differently in the last bits; --exact\n"+
			"demands the bits). Timing metrics (each experiment's Timings) are compared only with --timing,\n"+
			"against the spread over the draws. Prints what differs; exits 1 on drift beyond the tolerance.", &s, withScale|withResults)
	refDir := fs.String("reference", "", "reference results folder (default figures/results/<scale> as committed at --rev)")
	rev := fs.String("rev", "HEAD", "git revision whose committed reference results are compared (when --reference is unset and\nthis is a git checkout; else the files in figures/results/<scale>)")
	var o diffOptions
	fs.BoolVar(&o.timing, "timing", false, "also compare timing metrics (against the spread over the draws)")
	fs.BoolVar(&o.statistical, "statistical", false, "accept non-timing values beyond the tolerance whose means stay within the spread\n(another machine, BLAS library or Go version)")
	fs.BoolVar(&o.exact, "exact", false, "demand bit-for-bit identical non-timing values (what the same build on the same CPU gives)")
	fs.Float64Var(&o.rtol, "rtol", defaultRtol, "relative difference a non-timing value may differ by: |a−b| ≤ rtol·max(|a|, |b|, floor),\nthe floor 1e-3 of the metric's largest |value| (values near zero are differences of larger ones);\na metric that amplifies rounding keeps its experiment's larger tolerance. The default covers\nother OpenBLAS kernels' last bits; another BLAS library may need more")
	fs.Float64Var(&o.zMax, "z", 3, "largest |difference of means| / standard error counted as within the spread")
	all := fs.Bool("all", false, "also list the identical metrics")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if o.rtol < 0 || math.IsNaN(o.rtol) {
		return usageError{fmt.Sprintf("diff: --rtol %g: want 0 or more", o.rtol)}
	}
	fromGit := *refDir == ""
	if fromGit {
		*refDir = s.repo.reference(sc)
	}
	_, exps, err := registryAndSelected(fs.Args())
	if err != nil {
		return err
	}
	var diffs []metricDiff
	var noRef, noRun []string
	for _, e := range producers(exps) {
		ref, err := readReference(filepath.Join(*refDir, e.ID+".csv"), fromGit, *rev)
		if errors.Is(err, iofs.ErrNotExist) {
			noRef = append(noRef, e.ID)
			continue
		}
		if err != nil {
			return err
		}
		got, err := run.ReadResults(filepath.Join(s.results, string(sc), e.ID+".csv"))
		if errors.Is(err, iofs.ErrNotExist) {
			noRun = append(noRun, e.ID)
			continue
		}
		if err != nil {
			return err
		}
		diffs = append(diffs, diffResults(e, ref, got, o)...)
	}
	counts := writeDiffTable(stdout, diffs, *all)
	if len(noRef) > 0 {
		fmt.Fprintf(stdout, "no reference results in %s for: %s\n", *refDir, strings.Join(noRef, " "))
	}
	if len(noRun) > 0 {
		fmt.Fprintf(stdout, "not run (no %s): %s\n", filepath.Join(s.results, string(sc), "<ID>.csv"), strings.Join(noRun, " "))
	}
	where := *refDir
	if fromGit && gitRevision(*rev) != "" {
		where += " at " + *rev
	}
	fmt.Fprintln(stdout, diffSummary(counts, where, o))
	if drifted := counts.n[verdictDrift]; drifted > 0 {
		return fmt.Errorf("diff: %d metric(s) drifted from the reference results beyond the tolerance", drifted)
	}
	if counts.compared() == 0 {
		// Exit status 2, not 1: nothing drifted, there was nothing to compare.
		return usageError{fmt.Sprintf("diff: nothing compared at %s scale (no run results with a reference)", sc)}
	}
	return nil
}

// defaultRtol is lab diff's relative tolerance for non-timing values: far above the last-bit
// differences of other OpenBLAS kernels on well-conditioned numerics (at most 2e-13 at quick
// scale, Prescott or SkylakeX against the references' Haswell), far below any change of method or
// seed. The few metrics that amplify rounding declare more (run.Experiment.Tolerance).
const defaultRtol = 1e-9

// diffCounts are the metrics of a comparison per verdict, with the largest relative difference of
// those within the tolerance.
type diffCounts struct {
	n            map[string]int
	maxTolerated float64
}

// compared is the number of metrics compared (timing metrics without --timing are not).
func (c diffCounts) compared() int {
	n := 0
	for v, k := range c.n {
		if v != verdictSkipped {
			n += k
		}
	}
	return n
}

// writeDiffTable lists the compared metrics that differ (and the identical ones when all is set),
// worst verdict first, and counts the verdicts.
func writeDiffTable(w io.Writer, diffs []metricDiff, all bool) diffCounts {
	c := diffCounts{n: map[string]int{}}
	for _, d := range diffs {
		c.n[d.verdict]++
		if d.verdict == verdictTolerance {
			c.maxTolerated = max(c.maxTolerated, d.maxRel)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := false
	for _, verdict := range []string{verdictDrift, verdictSpread, verdictTolerance, verdictIdentical} {
		if verdict == verdictIdentical && !all {
			continue
		}
		for _, d := range diffs {
			if d.verdict != verdict {
				continue
			}
			if !header {
				fmt.Fprintln(tw, "ID\tMETRIC\tCLASS\tROWS\tDIFFER\tMAX REL DIFF\tVERDICT")
				header = true
			}
			line := fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%.3g\t%s", d.id, d.metric, d.class, d.compared, d.differ, d.maxRel, d.verdict)
			if d.note != "" {
				line += ": " + d.note
			}
			fmt.Fprintln(tw, line)
		}
	}
	tw.Flush()
	return c
}

// diffSummary is the closing line: how many metrics were compared with what, per verdict, and the
// tolerance applied.
func diffSummary(c diffCounts, where string, o diffOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d metric(s) compared with %s: %d identical", c.compared(), where, c.n[verdictIdentical])
	if o.exact {
		b.WriteString(" (--exact: bit for bit)")
	} else {
		fmt.Fprintf(&b, ", %d within tolerance (rtol %g", c.n[verdictTolerance], o.rtol)
		if c.n[verdictTolerance] > 0 {
			fmt.Fprintf(&b, "; largest relative difference %.2g", c.maxTolerated)
		}
		b.WriteString(")")
	}
	if n := c.n[verdictSpread]; n > 0 {
		fmt.Fprintf(&b, ", %d within the spread", n)
	}
	fmt.Fprintf(&b, ", %d drifted", c.n[verdictDrift])
	if n := c.n[verdictSkipped]; n > 0 {
		fmt.Fprintf(&b, "; %d timing metric(s) not compared (--timing compares them)", n)
	}
	return b.String()
}

// refreshReference copies the results table of experiment id at sc into refDir, the committed
// reference results of the scale (layout.reference) that lab diff compares later runs with: the
// --update-reference step.
func refreshReference(refDir string, sc run.Scale, results, id string) error {
	src := filepath.Join(results, string(sc), id+".csv")
	dst := filepath.Join(refDir, id+".csv")
	if samePath(src, dst) {
		return nil // rendered from the reference results themselves
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return safefile.WriteBytes(dst, data)
}

// sameAbs reports whether two paths name the same place relative to the working directory.
func sameAbs(a, b string) bool {
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// samePath reports whether two paths name the same file (false when either does not exist).
func samePath(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// gitRevision resolves rev in the git checkout around the working directory ("" outside one).
func gitRevision(rev string) string {
	out, err := exec.Command("git", "rev-parse", "--short", rev).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// readReference reads a reference table: as committed at rev when fromGit and git has it (a quick
// run rewrites the working copy, the commit keeps the numbers to compare with), else the file.
func readReference(path string, fromGit bool, rev string) (*run.Results, error) {
	if fromGit {
		if data, err := exec.Command("git", "show", rev+":./"+filepath.ToSlash(path)).Output(); err == nil {
			tmp, err := os.MkdirTemp("", "lab-diff-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(tmp)
			p := filepath.Join(tmp, filepath.Base(path))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return nil, err
			}
			return run.ReadResults(p)
		}
	}
	return run.ReadResults(path)
}
