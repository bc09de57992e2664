package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

// settings are the flags shared by several commands; each command registers only those it uses
// (sharedFlags), so that its --help lists exactly what it takes.
type settings struct {
	scale   string
	results string
	figures string
	mirror  string
	cache   string
	// data is the data source of a command with --mirror and --cache: those flags over the
	// environment's (dataset.DefaultSource).
	data dataset.Source
	// updateReference makes a run, render or claims write the committed outputs (--update-reference).
	updateReference bool
	// repo is where the checkout keeps results and committed outputs.
	repo layout
	// name and usage are the command's, for --help and error messages; with, its shared flags.
	name  string
	usage func(io.Writer)
	with  sharedFlags
}

// sharedFlags selects the shared flags a command takes.
type sharedFlags uint

const (
	withScale sharedFlags = 1 << iota
	withResults
	withFigures // --figures and --update-reference
	withData    // --mirror and --cache
)

// newFlags builds a sub-command's flag set with the chosen shared flags registered. Parse errors
// are returned, not printed (main prints one line); --help prints the usage on standard output.
func newFlags(name, argsHelp, help string, s *settings, with sharedFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("lab "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	s.usage = func(w io.Writer) {
		fmt.Fprintf(w, "Usage: lab %s [flags] %s\n\n%s\n", name, argsHelp, help)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nFlags:")
			fs.SetOutput(w)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	s.name, s.with, s.repo = name, with, checkout
	if with&withScale != 0 {
		fs.StringVar(&s.scale, "scale", "quick", "scale: smoke, quick or paper")
	}
	if with&withResults != 0 {
		fs.StringVar(&s.results, "results", s.repo.results(), "results root (tidy CSV per experiment under <root>/<scale>/)")
	}
	if with&withFigures != 0 {
		fs.StringVar(&s.figures, "figures", "", "where figures, tables, CLAIMS.md and the gallery are written (default <results>/<scale>/figures;\nnever inside the committed figures/ without --update-reference)")
		fs.BoolVar(&s.updateReference, "update-reference", false, "rewrite the scale's committed outputs (the maintainers' step, then committed): figures, tables,\n"+
			"CLAIMS.md and gallery in figures/ (quick) or figures/paper/ (paper), the results behind them in\n"+
			"figures/results/<scale> (run, render), the claims report made from those committed results")
	}
	if with&withData != 0 {
		fs.StringVar(&s.mirror, "mirror", "", "local data mirror laid out <mirror>/<name>/<file> (default $LAB_DATA_MIRROR)")
		fs.StringVar(&s.cache, "cache", "", "download cache folder (default $LAB_DATA_CACHE or the user cache dir)")
	}
	return fs
}

// parse parses the flags, wherever they stand among the positional arguments (which fs.Args then
// returns in order), and builds the data source of a command that takes --mirror and --cache.
// --help prints the command's usage on stdout and returns flag.ErrHelp.
func (s *settings) parse(fs *flag.FlagSet, args []string, stdout io.Writer) (run.Scale, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				s.usage(stdout)
				return "", err
			}
			return "", usageError{fmt.Sprintf("%s: %v (see lab %s --help)", s.name, err, s.name)}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	// Leave the positional arguments where fs.Args finds them ("--" ends flag parsing).
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return "", usageError{err.Error()}
	}
	if s.with&withData != 0 {
		s.data = dataset.DefaultSource()
		if s.mirror != "" {
			s.data.Mirror = s.mirror
		}
		if s.cache != "" {
			s.data.Cache = s.cache
		}
	}
	if s.with&withScale == 0 {
		return "", nil // a command without --scale
	}
	sc, err := run.ParseScale(s.scale)
	if err != nil {
		return "", usageError{err.Error()}
	}
	if s.with&withFigures != 0 {
		if err := s.resolveFigures(sc); err != nil {
			return "", err
		}
	}
	return sc, nil
}

// resolveFigures picks the figures folder: the scale's committed one with --update-reference, else
// --figures or the run's own folder under the results root. Without --update-reference a folder in
// the committed figures/ tree is refused, so that no run rewrites or adds to committed files by
// accident (a user's run leaves git status clean).
func (s *settings) resolveFigures(sc run.Scale) error {
	committed, ok := s.repo.committedFigures(sc)
	switch {
	case s.updateReference && !ok:
		return usageError{fmt.Sprintf("%s: --update-reference: %s scale has no committed outputs", s.name, sc)}
	case s.updateReference && s.figures != "" && !sameAbs(s.figures, committed):
		return usageError{fmt.Sprintf("%s: --update-reference writes %s: leave out --figures %s", s.name, committed, s.figures)}
	case s.updateReference:
		s.figures = committed
	case s.figures == "":
		s.figures = s.repo.figures(s.results, sc)
	}
	return s.refuseCommitted(s.figures)
}

// refuseCommitted is a usage error when path lies in the committed figures/ tree (relative to the
// working directory, the repository root) and --update-reference was not given.
func (s *settings) refuseCommitted(path string) error {
	if s.updateReference || !within(path, s.repo.committed()) {
		return nil
	}
	return usageError{fmt.Sprintf("%s: %s is in the committed figures/: a run writes there only with --update-reference "+
		"(its own outputs go to <results>/<scale>/figures; see lab %s --help)", s.name, path, s.name)}
}

// within reports whether path is dir or lies under it, both taken relative to the working directory.
func within(path, dir string) bool {
	absPath, errP := filepath.Abs(path)
	absDir, errD := filepath.Abs(dir)
	if errP != nil || errD != nil {
		return false
	}
	rel, err := filepath.Rel(absDir, absPath)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// claimsResults is the results root a claims report is made from: the run's own, or, when the
// committed outputs are updated, the committed reference results (which then hold this run's), so
// that a committed report describes every committed result, not only those of the last run.
func (s *settings) claimsResults() string {
	if s.updateReference {
		return s.repo.referenceRoot()
	}
	return s.results
}

// noArgs refuses positional arguments for commands that take none.
func noArgs(fs *flag.FlagSet, name string) error {
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("%s takes no arguments, got %q (see lab %s --help)", name, strings.Join(fs.Args(), " "), name)}
	}
	return nil
}

// wantsAll reports whether the IDs given on the command line ask for the whole catalogue: none, or
// "all".
func wantsAll(ids []string) bool { return len(ids) == 0 || (len(ids) == 1 && ids[0] == "all") }

// registryAndSelected loads the catalogue and the experiments named in ids (see selected).
func registryAndSelected(ids []string) (*run.Registry, []*run.Experiment, error) {
	reg, err := experiments.Registry()
	if err != nil {
		return nil, nil, err
	}
	exps, err := selected(reg, ids)
	return reg, exps, err
}

// producers returns the experiments that run the tasks behind exps (each entry's Producer), once
// each, in order: what planning, scheduling, merging and diffing act on, since an entry that uses
// another's results has no tasks or results of its own.
func producers(exps []*run.Experiment) []*run.Experiment {
	seen := make(map[string]bool, len(exps))
	var out []*run.Experiment
	for _, e := range exps {
		p := e.Producer()
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	return out
}

// selected returns the experiments named in ids, or all of them when ids is empty or "all".
func selected(reg *run.Registry, ids []string) ([]*run.Experiment, error) {
	if wantsAll(ids) {
		return reg.All(), nil
	}
	var out []*run.Experiment
	for _, id := range ids {
		e, err := reg.Get(id)
		if err != nil {
			return nil, usageError{strings.TrimPrefix(err.Error(), "run: ")}
		}
		out = append(out, e)
	}
	return out, nil
}

func cmdList(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("list", "", "List the registered experiments with their number of tasks at the scale.", &s, withScale)
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "list"); err != nil {
		return err
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\tKIND\tTASKS (%s)\tCLAIMS\tTITLE\n", sc)
	for _, e := range reg.All() {
		keys, err := run.TaskKeys(e, sc)
		if err != nil {
			return fmt.Errorf("%s: %w", e.ID, err)
		}
		kind := "figure"
		if e.Kind == run.Table {
			kind = "table"
		}
		tasks := strconv.Itoa(len(keys))
		if e.Uses != nil {
			tasks = e.Uses.ID + "'s"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", e.ID, kind, tasks, len(e.Claims), e.Title)
	}
	return tw.Flush()
}

func cmdRun(ctx context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("run", "[ID ... | all]",
		"Run experiments at a scale. Finished tasks are kept, so an interrupted run resumes.\n"+
			"Unsharded, each experiment is then rendered and the claims report and gallery written (into\n"+
			"<results>/<scale>/figures unless --update-reference); with --shard only the shard's tasks run\n"+
			"(render after 'lab merge').", &s, withScale|withResults|withFigures|withData)
	shard := fs.String("shard", "", "run only shard i of N (\"i/N\"): task j belongs to shard j mod N")
	first := fs.Int("first", 0, "a partial run: only the first K tasks of each experiment's plan, whose results, figure and claims\n"+
		"are made from them and say so (experiments whose figures label it only; not with --shard); 0 = all")
	workers := fs.Int("workers", 0, "parallel tasks (0 = all cores)")
	fresh := fs.Bool("fresh", false, "discard kept task results and start over")
	noRender := fs.Bool("no-render", false, "do not render figures or check claims")
	verbose := fs.Bool("v", false, "show each experiment's progress, not only the overall line (always in <results>/<scale>/lab-run.log)")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if *workers < 0 {
		return usageError{fmt.Sprintf("run: --workers %d: want 0 (all cores) or more", *workers)}
	}
	var sh run.Shard
	if *shard != "" {
		if sh, err = run.ParseShard(*shard); err != nil {
			return usageError{err.Error()}
		}
	}
	if *first < 0 || (*first > 0 && *shard != "") {
		return usageError{fmt.Sprintf("run: --first %d: want K ≥ 1 tasks, without --shard (0 = the whole plan)", *first)}
	}
	reg, exps, err := registryAndSelected(fs.Args())
	if err != nil {
		return err
	}
	if *first > 0 {
		for _, e := range producers(exps) {
			if !e.PartialRuns {
				return usageError{fmt.Sprintf("run: --first: %s's figure and claims do not say when they show part of its plan, "+
					"so it runs whole (or by --shard, then lab merge)", e.ID)}
			}
		}
	}
	// Which BLAS kernels compute the results: last bits and speed depend on them.
	fmt.Fprint(os.Stderr, blasLine())
	progress, closeProgress, err := runProgress(exps, sc, s.results, sh, *first, *workers, *verbose, args)
	if err != nil {
		return err
	}
	defer closeProgress()
	start := time.Now()
	ran := make(map[string]*run.Results) // by producer: entries sharing one's results run it once
	cache := new(run.Cache)              // the experiments of this run share what their tasks load
	for _, e := range exps {
		res, done := ran[e.Producer().ID]
		if !done {
			opts := run.Options{Scale: sc, Dir: s.results, Workers: *workers, Shard: sh, First: *first, Fresh: *fresh, Progress: progress, Data: s.data, Cache: cache}
			if res, err = run.Execute(ctx, e, opts); err != nil {
				return fmt.Errorf("%s: %w", e.ID, err)
			}
			ran[e.Producer().ID] = res
		}
		if sh.Count > 0 || *noRender {
			continue
		}
		if err := s.render(e, res, sc); err != nil {
			return err
		}
	}
	closeProgress()
	fmt.Fprintf(stdout, "ran %d experiment(s) at %s scale in %s; results in %s\n",
		len(exps), sc, time.Since(start).Round(time.Millisecond), filepath.Join(s.results, string(sc)))
	if sh.Count > 0 || *noRender {
		return nil
	}
	var partial []string
	if !wantsAll(fs.Args()) && !s.updateReference {
		for _, e := range exps {
			partial = append(partial, e.ID)
		}
	}
	return writeClaims(s.repo, reg, sc, s.claimsResults(), filepath.Join(s.figures, "CLAIMS.md"), partial, stdout)
}

// render draws e's figure or table from res into the figures folder and, with --update-reference,
// copies the results behind it into the committed reference results.
func (s *settings) render(e *run.Experiment, res *run.Results, sc run.Scale) error {
	if err := run.Render(e, res, s.figures); err != nil {
		return fmt.Errorf("rendering %s: %w", e.ID, err)
	}
	if !s.updateReference {
		return nil
	}
	if err := refreshReference(s.repo.reference(sc), sc, s.results, e.Producer().ID); err != nil {
		return fmt.Errorf("%s: reference results: %w", e.ID, err)
	}
	return nil
}

// runLog is the log of lab run in a results root: every experiment's progress, notes and failures,
// appended run after run.
func runLog(results string, sc run.Scale) string {
	return filepath.Join(results, string(sc), "lab-run.log")
}

// runProgress makes lab run's progress report: one overall line on standard error (experiments,
// tasks, elapsed, ETA from lab plan's kept measurements where there are some), each experiment's
// progress in the run log and, when verbose, on standard error too. done, safe to call twice,
// prints the last line and closes the log.
func runProgress(exps []*run.Experiment, sc run.Scale, results string, sh run.Shard, first, workers int, verbose bool, args []string) (p run.Progress, done func(), err error) {
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ov := run.Overview{Tasks: map[string]int{}, PerTask: map[string]time.Duration{}}
	for _, e := range producers(exps) {
		keys, err := run.TaskKeys(e, sc)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", e.ID, err)
		}
		ov.Tasks[e.ID] = sh.Owned(len(keys))
		if first > 0 {
			ov.Tasks[e.ID] = min(first, len(keys))
		}
		if samples, ok := readKeptPlan(results, sc, e.ID, len(keys), 1); ok {
			c := expCost{e: e, samples: samples}
			if e.Serial {
				ov.PerTask[e.ID] = c.meanWall()
			} else {
				ov.PerTask[e.ID] = c.meanWall() / time.Duration(workers)
			}
		}
	}
	path := runLog(results, sc)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	log, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(log, "== lab run %s, started %s\n%s", strings.Join(args, " "), time.Now().UTC().Format(time.RFC3339), blasLine())
	overall := run.NewOverallProgress(os.Stderr, ov, run.OverallOptions{Detail: log, Verbose: verbose})
	var once sync.Once
	return overall, func() {
		once.Do(func() {
			overall.Close()
			log.Close()
		})
	}, nil
}

func cmdRender(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("render", "[ID ... | all]", "Render figures and tables from the results already on disk (nothing is recomputed).", &s, withScale|withResults|withFigures)
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	_, exps, err := registryAndSelected(fs.Args())
	if err != nil {
		return err
	}
	// Without IDs (or with "all") the experiments that have no results at the scale are skipped:
	// paper scale is run a part at a time. A named experiment without results is an error.
	everything := wantsAll(fs.Args())
	rendered := 0
	for _, e := range exps {
		res, err := run.Load(e, sc, s.results)
		if errors.Is(err, os.ErrNotExist) && everything {
			fmt.Fprintf(stdout, "no results of %s at %s scale in %s: skipped\n", e.ID, sc, s.results)
			continue
		}
		if err != nil {
			return err
		}
		if err := s.render(e, res, sc); err != nil {
			return err
		}
		rendered++
		fmt.Fprintf(stdout, "rendered %s into %s\n", e.ID, s.figures)
	}
	if rendered == 0 {
		return fmt.Errorf("render: no results at %s scale in %s", sc, s.results)
	}
	return nil
}

func cmdClaims(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("claims", "", "Check every experiment's claims against its results at the scale and write the report\n"+
		"(CLAIMS.md, with the verdicts of the other scales whose results exist) and the gallery (README.md).", &s, withScale|withResults|withFigures)
	out := fs.String("out", "", "report path (default <figures>/CLAIMS.md)")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "claims"); err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Join(s.figures, "CLAIMS.md")
	} else if err := s.refuseCommitted(*out); err != nil {
		return err
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	return writeClaims(s.repo, reg, sc, s.claimsResults(), *out, nil, stdout)
}

// writeClaims checks the claims of every registered experiment at sc (missing results count as
// "not run"; partial names the experiments of a partial run, which the report then says) and
// writes the Markdown report, with the verdicts of every other scale side by side
// (smoke only in a smoke report: it decides nothing), and the gallery (README.md) beside the report.
// Another scale's results come from the results root, or, for an experiment it lacks there, from
// that scale's committed reference results (figures/results/<scale>), so that the committed quick
// report shows the committed paper verdicts beside its own and the reverse; the report then says
// so, in the same words whether the results root is figures/results or another.
func writeClaims(repo layout, reg *run.Registry, sc run.Scale, results, path string, partial []string, stdout io.Writer) error {
	check := func(scale run.Scale, fallback bool) (scaleClaims, bool) {
		out := scaleClaims{Scale: scale}
		found, fromReference := false, fallback && sameAbs(results, repo.referenceRoot())
		for _, e := range reg.All() {
			res, err := run.Load(e, scale, results)
			if err != nil && fallback {
				if res, err = run.Load(e, scale, repo.referenceRoot()); err == nil {
					fromReference = true
				}
			}
			if err != nil {
				res = nil
			}
			found = found || res != nil
			out.Claims = append(out.Claims, run.CheckClaims(e, res)...)
		}
		if fromReference {
			out.From = "the committed references in " + repo.reference(scale)
		}
		return out, found
	}
	main, _ := check(sc, false)
	main.Partial = partial
	scales := []scaleClaims{main}
	for _, other := range run.Scales() {
		if other == sc || other == run.Smoke {
			continue
		}
		if c, found := check(other, sc != run.Smoke); found {
			scales = append(scales, c)
		}
	}
	if err := writeClaimsReport(path, experiments.Documents(), scales...); err != nil {
		return err
	}
	figDir := filepath.Dir(path)
	links := map[run.Scale]string{}
	for _, s := range scales[1:] {
		dirs := []string{repo.figures(results, s.Scale)}
		if dir, ok := repo.committedFigures(s.Scale); ok {
			dirs = append(dirs, dir)
		}
		for _, dir := range dirs {
			if rel, err := filepath.Rel(figDir, filepath.Join(dir, "README.md")); err == nil && exists(filepath.Join(dir, "README.md")) {
				links[s.Scale] = filepath.ToSlash(rel)
				break
			}
		}
	}
	if err := writeGallery(figDir, reg.All(), scales, links); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s; report in %s\n", countStatuses(main.Claims), path)
	return nil
}

func cmdMerge(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("merge", "SHARD_RESULTS_DIR ...",
		"Merge the task results of shard runs (each run with --results DIR --shard i/N) into --into,\n"+
			"byte for byte what an unsharded run writes. Then 'lab render' and 'lab claims' as usual.", &s, withScale)
	into := fs.String("into", s.repo.results(), "results root to write the merged results into")
	only := fs.String("only", "", "comma-separated experiment IDs (default: every experiment found in the shards)")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{"merge needs at least one shard results folder"}
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	var ids []string
	if *only != "" {
		ids = strings.Split(*only, ",")
	}
	exps, err := selected(reg, ids)
	if err != nil {
		return err
	}
	merged := 0
	for _, e := range producers(exps) {
		if *only == "" && !shardsHave(e, sc, fs.Args()) {
			continue
		}
		if err := run.Merge(e, sc, *into, fs.Args()...); err != nil {
			return fmt.Errorf("%s: %w", e.ID, err)
		}
		merged++
		fmt.Fprintf(stdout, "merged %s\n", e.ID)
	}
	if merged == 0 {
		return fmt.Errorf("no experiment results found in %s at %s scale", strings.Join(fs.Args(), ", "), sc)
	}
	return nil
}

// shardsHave reports whether any shard folder holds task results of e at the scale.
func shardsHave(e *run.Experiment, sc run.Scale, dirs []string) bool {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, string(sc), e.ID+".parts")); err == nil {
			return true
		}
	}
	return false
}
