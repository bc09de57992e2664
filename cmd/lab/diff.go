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

// referenceRoot is the results root of the committed reference results, relative to the repository
// root: the tidy results behind the committed figures, figures/results/<scale>.
var referenceRoot = filepath.Join("figures", "results")

// referenceDir is where the committed reference results of a scale live (figures/ for quick,
// figures/paper/ for paper hold the figures made of them), rewritten only by an unsharded
// `lab run` or a `lab render` at that scale with --update-reference.
func referenceDir(sc run.Scale) string { return filepath.Join(referenceRoot, string(sc)) }

// isTimingMetric reports whether a metric measures time (it changes with every run and machine):
// its name says seconds, time, elapsed or speed-up.
func isTimingMetric(metric string) bool {
	m := strings.ToLower(metric)
	for _, w := range []string{"second", "time", "elapsed", "speedup", "speed-up"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// metricDiff is the comparison of one metric of one experiment.
type metricDiff struct {
	id, metric, class string
	compared, differ  int     // rows present in both; of them, values not identical
	maxRel            float64 // largest relative difference
	missing, extra    int     // rows only in the reference, only in the fresh results
	z                 float64 // largest |mean difference| / its standard error over the series' draws
	drift             bool
	note              string
}

// seriesKey is a row without its repetition: the draws of one series.
func seriesKey(r run.Row) string {
	var b strings.Builder
	b.WriteString(r.Dataset + "\x00" + r.Method + "\x00")
	for _, p := range r.Params {
		b.WriteString(p.Name + "=" + p.Value + "\x00")
	}
	return b.String()
}

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

// diffResults compares fresh results with the reference, metric by metric. Non-timing metrics must
// be identical (within ulps units in the last place); timing metrics are compared only when timing
// is set, against the spread over the draws (|Δ mean| ≤ zMax standard errors). statistical lets a
// non-timing metric whose values differ pass when every series is within the spread.
func diffResults(id string, ref, got *run.Results, timing, statistical bool, ulps uint64, rtol, zMax float64) []metricDiff {
	type cell struct{ ref, got []float64 }
	byMetric := map[string]map[string]*cell{}
	rows := map[string]map[string][2]*float64{} // metric → series/rep → values
	add := func(r run.Row, which int) {
		if byMetric[r.Metric] == nil {
			byMetric[r.Metric] = map[string]*cell{}
			rows[r.Metric] = map[string][2]*float64{}
		}
		sk := seriesKey(r)
		c := byMetric[r.Metric][sk]
		if c == nil {
			c = &cell{}
			byMetric[r.Metric][sk] = c
		}
		v := r.Value
		if which == 0 {
			c.ref = append(c.ref, v)
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
		if isTimingMetric(m) {
			d.class = "timing"
			if !timing {
				d.note = "not compared (--timing compares it)"
				out = append(out, d)
				continue
			}
		}
		for _, pair := range rows[m] {
			switch {
			case pair[0] == nil:
				d.extra++
			case pair[1] == nil:
				d.missing++
			default:
				d.compared++
				a, b := *pair[0], *pair[1]
				if !sameWithin(a, b, ulps) && !(rtol > 0 && math.Abs(a-b) <= rtol*max(math.Abs(a), math.Abs(b))) {
					d.differ++
					if rel := math.Abs(a-b) / max(math.Abs(a), math.Abs(b)); rel > d.maxRel || math.IsNaN(rel) {
						d.maxRel = rel
					}
				}
			}
		}
		for _, c := range byMetric[m] {
			if len(c.ref) == 0 || len(c.got) == 0 {
				continue
			}
			mr, vr := meanVar(c.ref)
			mg, vg := meanVar(c.got)
			se := math.Sqrt(vr/float64(len(c.ref)) + vg/float64(len(c.got)))
			switch {
			case mr == mg:
			case se == 0:
				d.z = math.Inf(1)
			default:
				d.z = max(d.z, math.Abs(mr-mg)/se)
			}
		}
		withinSpread := d.z <= zMax
		switch {
		case d.missing > 0 || d.extra > 0:
			d.drift = true
			d.note = fmt.Sprintf("%d rows only in the reference, %d only in the fresh results", d.missing, d.extra)
		case d.differ == 0:
			d.note = "identical"
		case d.class == "timing" || statistical:
			d.drift = !withinSpread
			d.note = spreadNote(d.z, zMax, withinSpread)
		default:
			d.drift = true
			d.note = "values differ; " + spreadNote(d.z, zMax, withinSpread)
		}
		out = append(out, d)
	}
	return out
}

func spreadNote(z, zMax float64, within bool) string {
	if math.IsInf(z, 1) {
		return "one draw per series (or no spread): nothing to judge a difference by; --rtol tolerates another BLAS backend's last bits"
	}
	if within {
		return fmt.Sprintf("means within the spread over the draws (max |Δ|/SE %.2g ≤ %g)", z, zMax)
	}
	return fmt.Sprintf("means outside the spread over the draws (max |Δ|/SE %.2g > %g)", z, zMax)
}

// sameWithin reports whether a and b are equal or at most ulps representable float64s apart.
func sameWithin(a, b float64, ulps uint64) bool {
	if a == b || math.IsNaN(a) && math.IsNaN(b) {
		return true
	}
	if ulps == 0 || math.Signbit(a) != math.Signbit(b) || math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	ia, ib := math.Float64bits(math.Abs(a)), math.Float64bits(math.Abs(b))
	if ia > ib {
		ia, ib = ib, ia
	}
	return ib-ia <= ulps
}

func cmdDiff(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("diff", "[ID ... | all]",
		"Compare the results of a run (<results>/<scale>/<ID>.csv) with the committed reference results\n"+
			"(figures/results/<scale>/<ID>.csv: the results behind the committed quick-scale figures), metric by\n"+
			"metric. Metrics that do not time anything come from seeded random streams and must be identical;\n"+
			"timing metrics (named seconds, time...) are compared only with --timing, against the spread over\n"+
			"the draws. Prints what drifted; exits 1 on drift.", &s, withScale|withResults)
	refDir := fs.String("reference", "", "reference results folder (default figures/results/<scale> as committed at --rev)")
	rev := fs.String("rev", "HEAD", "git revision whose committed reference results are compared (when --reference is unset and\nthis is a git checkout; else the files in figures/results/<scale>)")
	timing := fs.Bool("timing", false, "also compare timing metrics (against the spread over the draws)")
	statistical := fs.Bool("statistical", false, "accept differing non-timing values whose means stay within the spread\n(another machine, BLAS or Go version)")
	ulps := fs.Uint64("ulps", 0, "units in the last place a deterministic value may differ by")
	rtol := fs.Float64("rtol", 0, "relative difference a deterministic value may differ by (another BLAS backend or core count\nchanges last bits: fig5_1 at quick, OpenBLAS vs pure Go, differs by up to 1e-15 and 6e-5 in log-residual)")
	zMax := fs.Float64("z", 3, "largest |difference of means| / standard error counted as within the spread")
	all := fs.Bool("all", false, "print every metric, not only the drifted ones")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	fromGit := *refDir == ""
	if fromGit {
		*refDir = referenceDir(sc)
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
		diffs = append(diffs, diffResults(e.ID, ref, got, *timing, *statistical, *ulps, *rtol, *zMax)...)
	}
	drifted, compared, identical := 0, 0, 0
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	header := false
	for _, d := range diffs {
		if d.class == "timing" && !*timing {
			continue
		}
		compared++
		verdict := "same"
		if d.drift {
			verdict, drifted = "DRIFT", drifted+1
		} else if d.differ > 0 {
			verdict = "within spread"
		} else {
			identical++
		}
		if d.drift || *all {
			if !header {
				fmt.Fprintln(tw, "ID\tMETRIC\tCLASS\tROWS\tDIFFER\tMAX REL DIFF\tVERDICT")
				header = true
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.3g\t%s: %s\n", d.id, d.metric, d.class, d.compared, d.differ, d.maxRel, verdict, d.note)
		}
	}
	tw.Flush()
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
	fmt.Fprintf(stdout, "%d metric(s) compared with %s: %d identical, %d drifted%s\n", compared, where, identical, drifted,
		map[bool]string{true: "", false: " (timing metrics not compared; --timing compares them)"}[*timing])
	if drifted > 0 {
		return fmt.Errorf("diff: %d metric(s) drifted from the reference results", drifted)
	}
	if compared == 0 {
		// Exit status 2, not 1: nothing drifted, there was nothing to compare.
		return usageError{fmt.Sprintf("diff: nothing compared at %s scale (no run results with a reference)", sc)}
	}
	return nil
}

// refreshReference copies the results table of experiment id into the committed reference results
// of the scale (referenceDir) that lab diff compares later runs with: the --update-reference step.
func refreshReference(sc run.Scale, results, id string) error {
	src := filepath.Join(results, string(sc), id+".csv")
	dst := filepath.Join(referenceDir(sc), id+".csv")
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
