package experiments

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// printedDataset is one row of a thesis data-set table: what the thesis printed, and how we load ours.
type printedDataset struct {
	Name    string // as the thesis names it
	Acronym string // chapter 6's acronym ("" elsewhere)
	Dataset string // manifest name
	Variant string // loader variant ("" = the loader's default)
	N, D    int    // as printed in the thesis; D = 0 when the thesis gives no dimension
	Task    string
	Forest  int // chapter 6's initial forest size as printed (0 elsewhere)
	// measure overrides the loader for data that is not a table (graphs, generated samples).
	measure func(ctx context.Context, src dataset.Source) (n, d int, variant string, err error)
}

// The metrics a data-set table records per data set.
const (
	metricN = "n"
	metricD = "d"
)

// datasetTable builds the experiment behind table3_1, table4_1 and table6_1: load each data set, record
// n and d as loaded, and render them beside the thesis's printed values with every mismatch shown.
func datasetTable(id, title, caption string, rows []printedDataset) *run.Experiment {
	byName := map[string]printedDataset{}
	for _, r := range rows {
		byName[r.Dataset] = r
	}
	plan := func(run.Scale) ([]run.Task, error) {
		tasks := make([]run.Task, len(rows))
		for i, r := range rows {
			tasks[i] = run.Task{Key: r.Dataset, Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
				n, d, variant, err := measureDataset(ctx, dataset.DefaultSource(), r)
				if err != nil {
					return nil, err
				}
				params := []run.Param{run.P("variant", variant)}
				return []run.Record{
					{Dataset: r.Dataset, Method: "loaded", Params: params, Metric: metricN, Value: float64(n)},
					{Dataset: r.Dataset, Method: "loaded", Params: params, Metric: metricD, Value: float64(d)},
				}, nil
			}}
		}
		return tasks, nil
	}
	render := func(res *run.Results, out *run.Output) error {
		header := []string{"data set"}
		if rows[0].Acronym != "" {
			header = append(header, "acronym")
		}
		header = append(header, "n (here)", "d (here)", "n (thesis)", "d (thesis)", "match", "task")
		if rows[0].Forest != 0 {
			header = append(header, "forest size (thesis)", "forest size (here)")
		}
		header = append(header, "variant loaded", "source")
		var lines [][]string
		for _, r := range rows {
			n, d, variant, ok := loadedShape(res, r.Dataset)
			line := []string{r.Name}
			if r.Acronym != "" {
				line = append(line, r.Acronym)
			}
			if !ok {
				line = append(line, "not run", "not run")
			} else {
				line = append(line, strconv.Itoa(n), dimText(d, r))
			}
			line = append(line, strconv.Itoa(r.N), dimText(r.D, r), matchText(ok, n, d, r), r.Task)
			if r.Forest != 0 {
				line = append(line, strconv.Itoa(r.Forest), "chapter 6 (not yet run)")
			}
			line = append(line, variant, sourceText(r.Dataset))
			lines = append(lines, line)
		}
		return plotting.WriteTable(filepath.Join(out.Dir, out.ID), caption, header, lines)
	}
	return &run.Experiment{
		ID: id, Title: title, Kind: run.Table, Seed: 1,
		Plan: plan, Render: render,
		Claims: []run.Claim{{
			ID:   "sizes-match",
			Text: "every data set as loaded here has the n and d the thesis prints",
			Check: func(res *run.Results) (run.Verdict, error) {
				var bad []string
				for _, r := range rows {
					n, d, _, ok := loadedShape(res, r.Dataset)
					if !ok {
						return run.Verdict{}, fmt.Errorf("no result for %s", r.Dataset)
					}
					if m := matchText(true, n, d, r); m != "yes" {
						bad = append(bad, fmt.Sprintf("%s: %s", r.Name, m))
					}
				}
				if len(bad) == 0 {
					return run.Verdict{Outcome: legacyOutcome(true), Evidence: fmt.Sprintf("all %d data sets match", len(rows))}, nil
				}
				return run.Verdict{Evidence: strings.Join(bad, "; ")}, nil
			},
		}},
	}
}

// measureDataset returns n, d and the variant of one data set as our loaders deliver it.
func measureDataset(ctx context.Context, src dataset.Source, r printedDataset) (int, int, string, error) {
	if r.measure != nil {
		return r.measure(ctx, src)
	}
	var opts []dataset.LoadOption
	if r.Variant != "" {
		opts = append(opts, dataset.Variant(r.Variant))
	}
	s, err := src.Shape(ctx, r.Dataset, opts...)
	if err != nil {
		return 0, 0, "", err
	}
	return s.N, s.D, s.Variant, nil
}

// loadedShape reads n, d and the variant recorded for one data set.
func loadedShape(res *run.Results, name string) (n, d int, variant string, ok bool) {
	var haveN, haveD bool
	for _, row := range res.Where(name, "loaded", "") {
		variant, _ = row.Param("variant")
		switch row.Metric {
		case metricN:
			n, haveN = int(row.Value), true
		case metricD:
			d, haveD = int(row.Value), true
		}
	}
	return n, d, variant, haveN && haveD
}

// dimText prints a dimension, or "—" for data without one (graphs).
func dimText(d int, r printedDataset) string {
	if r.D == 0 && d == 0 {
		return "—"
	}
	return strconv.Itoa(d)
}

// matchText says whether the loaded shape equals the printed one, and how it differs otherwise.
func matchText(ok bool, n, d int, r printedDataset) string {
	if !ok {
		return "not run"
	}
	var diffs []string
	if n != r.N {
		diffs = append(diffs, fmt.Sprintf("n %d vs %d", n, r.N))
	}
	if r.D != 0 && d != r.D {
		diffs = append(diffs, fmt.Sprintf("d %d vs %d", d, r.D))
	}
	if len(diffs) == 0 {
		return "yes"
	}
	return "NO (" + strings.Join(diffs, ", ") + ")"
}

// sourceText is the data set's homepage from the manifest.
func sourceText(name string) string {
	spec, err := dataset.Lookup(name)
	if err != nil || spec.Homepage == "" {
		return "—"
	}
	return spec.Homepage
}
