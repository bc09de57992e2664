package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/run"
)

// settings are the flags shared by the commands that touch results and figures.
type settings struct {
	scale   string
	results string
	figures string
	mirror  string
	cache   string
}

// newFlags builds a sub-command's flag set with the shared flags registered.
func newFlags(name, argsHelp, help string, s *settings) *flag.FlagSet {
	fs := flag.NewFlagSet("lab "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: lab %s [flags] %s\n\n%s\n\nFlags:\n", name, argsHelp, help)
		fs.PrintDefaults()
	}
	fs.StringVar(&s.scale, "scale", "quick", "scale: smoke, quick or paper")
	fs.StringVar(&s.results, "results", "results", "results root (tidy CSV per experiment under <root>/<scale>/)")
	fs.StringVar(&s.figures, "figures", "", "where figures, tables and CLAIMS.md are written (default figures/ for quick,\nfigures/paper/ for paper, <results>/smoke/figures for smoke: no scale overwrites another's)")
	fs.StringVar(&s.mirror, "mirror", "", "local data mirror laid out <mirror>/<name>/<file> (default $LAB_DATA_MIRROR)")
	fs.StringVar(&s.cache, "cache", "", "download cache folder (default $LAB_DATA_CACHE or the user cache dir)")
	return fs
}

// parse parses the flags, wherever they stand among the positional arguments (which fs.Args then
// returns in order), and applies the data-source settings to the environment the loaders read.
func (s *settings) parse(fs *flag.FlagSet, args []string) (run.Scale, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", err
			}
			return "", usageError{err.Error()}
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
	if s.mirror != "" {
		os.Setenv("LAB_DATA_MIRROR", s.mirror)
	}
	if s.cache != "" {
		os.Setenv("LAB_DATA_CACHE", s.cache)
	}
	sc, err := run.ParseScale(s.scale)
	if err != nil {
		return "", usageError{err.Error()}
	}
	if s.figures == "" {
		s.figures = sc.FiguresDir(s.results)
	}
	return sc, nil
}

// selected returns the experiments named in ids, or all of them when ids is empty or "all".
func selected(reg *run.Registry, ids []string) ([]*run.Experiment, error) {
	if len(ids) == 0 || (len(ids) == 1 && ids[0] == "all") {
		return reg.All(), nil
	}
	var out []*run.Experiment
	for _, id := range ids {
		e, err := reg.Get(id)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		out = append(out, e)
	}
	return out, nil
}

func cmdList(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("list", "", "List the registered experiments with their number of tasks at the scale.", &s)
	sc, err := s.parse(fs, args)
	if err != nil {
		return err
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\tKIND\tTASKS (%s)\tCLAIMS\tTITLE\n", sc)
	for _, e := range reg.All() {
		tasks, err := e.Plan(sc)
		if err != nil {
			return fmt.Errorf("%s: %w", e.ID, err)
		}
		kind := "figure"
		if e.Kind == run.Table {
			kind = "table"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", e.ID, kind, len(tasks), len(e.Claims), e.Title)
	}
	return tw.Flush()
}

func cmdRun(ctx context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("run", "[ID ... | all]",
		"Run experiments at a scale. Finished tasks are kept, so an interrupted run resumes.\n"+
			"Unsharded, each experiment is then rendered and CLAIMS.md rewritten; with --shard only the\n"+
			"shard's tasks run (render after 'lab merge').", &s)
	shard := fs.String("shard", "", "run only shard i of N (\"i/N\"): task j belongs to shard j mod N")
	workers := fs.Int("workers", 0, "parallel tasks (0 = all cores)")
	fresh := fs.Bool("fresh", false, "discard kept task results and start over")
	noRender := fs.Bool("no-render", false, "do not render figures or check claims")
	sc, err := s.parse(fs, args)
	if err != nil {
		return err
	}
	var sh run.Shard
	if *shard != "" {
		if sh, err = run.ParseShard(*shard); err != nil {
			return usageError{err.Error()}
		}
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	exps, err := selected(reg, fs.Args())
	if err != nil {
		return err
	}
	progress := run.NewTerminalProgress(os.Stderr)
	start := time.Now()
	for _, e := range exps {
		res, err := run.Execute(ctx, e, run.Options{Scale: sc, Dir: s.results, Workers: *workers, Shard: sh, Fresh: *fresh, Progress: progress})
		if err != nil {
			return fmt.Errorf("%s: %w", e.ID, err)
		}
		if sh.Count > 0 || *noRender {
			continue
		}
		if err := run.Render(e, res, s.figures); err != nil {
			return fmt.Errorf("rendering %s: %w", e.ID, err)
		}
	}
	fmt.Fprintf(stdout, "ran %d experiment(s) at %s scale in %s; results in %s\n",
		len(exps), sc, time.Since(start).Round(time.Millisecond), filepath.Join(s.results, string(sc)))
	if sh.Count > 0 || *noRender {
		return nil
	}
	return writeClaims(reg, sc, s.results, filepath.Join(s.figures, "CLAIMS.md"), stdout)
}

func cmdRender(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("render", "[ID ... | all]", "Render figures and tables from the results already on disk (nothing is recomputed).", &s)
	sc, err := s.parse(fs, args)
	if err != nil {
		return err
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	exps, err := selected(reg, fs.Args())
	if err != nil {
		return err
	}
	for _, e := range exps {
		res, err := run.Load(e, sc, s.results)
		if err != nil {
			return err
		}
		if err := run.Render(e, res, s.figures); err != nil {
			return fmt.Errorf("rendering %s: %w", e.ID, err)
		}
		fmt.Fprintf(stdout, "rendered %s into %s\n", e.ID, s.figures)
	}
	return nil
}

func cmdClaims(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("claims", "", "Check every experiment's claims against its results at the scale and write the report.", &s)
	out := fs.String("out", "", "report path (default <figures>/CLAIMS.md)")
	sc, err := s.parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Join(s.figures, "CLAIMS.md")
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	return writeClaims(reg, sc, s.results, *out, stdout)
}

// writeClaims checks the claims of every registered experiment at sc (missing results count as
// "not run") and writes the Markdown report, with the verdicts of every other scale whose results
// exist under the results root side by side (smoke only in a smoke report: it decides nothing), and
// the gallery (README.md) beside the report.
func writeClaims(reg *run.Registry, sc run.Scale, results, path string, stdout io.Writer) error {
	check := func(scale run.Scale) (run.ScaleClaims, bool) {
		out := run.ScaleClaims{Scale: scale}
		found := false
		for _, e := range reg.All() {
			res, err := run.Load(e, scale, results)
			if err != nil {
				res = nil
			}
			found = found || res != nil
			out.Claims = append(out.Claims, run.CheckClaims(e, res)...)
		}
		return out, found
	}
	main, _ := check(sc)
	scales := []run.ScaleClaims{main}
	for _, other := range run.Scales() {
		if other == sc || other == run.Smoke {
			continue
		}
		if c, found := check(other); found {
			scales = append(scales, c)
		}
	}
	if err := run.WriteClaimsReport(path, scales...); err != nil {
		return err
	}
	if err := run.WriteGallery(filepath.Dir(path), sc, reg.All(), main.Claims); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s; report in %s\n", run.CountStatuses(main.Claims), path)
	return nil
}

func cmdMerge(_ context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("merge", "SHARD_RESULTS_DIR ...",
		"Merge the task results of shard runs (each run with --results DIR --shard i/N) into --into,\n"+
			"byte for byte what an unsharded run writes. Then 'lab render' and 'lab claims' as usual.", &s)
	into := fs.String("into", "results", "results root to write the merged results into")
	only := fs.String("only", "", "comma-separated experiment IDs (default: every experiment found in the shards)")
	sc, err := s.parse(fs, args)
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
	for _, e := range exps {
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
