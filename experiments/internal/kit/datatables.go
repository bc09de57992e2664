package kit

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// PrintedDataset is one row of a thesis data-set table: what the thesis printed, and how we load ours.
type PrintedDataset struct {
	Name    string // as the thesis names it
	Acronym string // chapter 6's acronym ("" elsewhere)
	Dataset string // manifest name
	Variant string // loader variant ("" = the loader's default)
	N, D    int    // as printed in the thesis; D = 0 when the thesis gives no dimension
	Task    string
	Forest  int // chapter 6's initial forest size as printed (0 elsewhere)
	// LeakFree names the loader variant without the label leak when Variant is one that leaks it
	// (the thesis's columns); its n and d are loaded and shown beside, and the row is marked.
	LeakFree string
	// NotComparable, when set, says why the thesis's n counts something other than what we load
	// (LFW: images, not pairs): the table says so and the size claim cannot be decided on it.
	NotComparable string
	// DCountsLabel says the printed d counts the label among the columns (the thesis's Adult, 15 =
	// 14 features + income): the loaded d plus one is compared with it.
	DCountsLabel bool
	// Note is shown in the table's note column.
	Note string
	// Measure overrides the loader for data that is not a table (graphs, generated samples).
	Measure func(ctx context.Context, src dataset.Source) (n, d int, variant string, err error)
}

// The metrics a data-set table records per data set.
const (
	metricN = "n"
	metricD = "d"
	// methodLeakFree records the sizes of a leaking data set's leak-free variant.
	methodLeakFree = "leak-free"
)

// DatasetTable builds the experiment behind table3_1 and table4_1: load each data set, record n and
// d as loaded, and render them beside the thesis's printed values with every mismatch shown.
func DatasetTable(id, title, caption string, rows []PrintedDataset) *run.Experiment {
	return &run.Experiment{
		ID: id, Title: title, Kind: run.Table, Seed: 1,
		Plan:   func(run.Scale) ([]run.Task, error) { return ShapeTasks("", rows), nil },
		Render: DatasetTableRender(caption, rows, nil),
		Claims: SizeClaims(rows),
	}
}

// ShapeTasks records n and d of each data set as loaded (and of its leak-free variant), one task per
// data set keyed prefix + its manifest name.
func ShapeTasks(prefix string, rows []PrintedDataset) []run.Task {
	tasks := make([]run.Task, len(rows))
	for i, r := range rows {
		tasks[i] = run.Task{Key: prefix + r.Dataset, Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
			n, d, variant, err := measureDataset(ctx, env.Data, r)
			if err != nil {
				return nil, err
			}
			params := []run.Param{run.P("variant", variant)}
			recs := []run.Record{
				{Dataset: r.Dataset, Method: "loaded", Params: params, Metric: metricN, Value: float64(n)},
				{Dataset: r.Dataset, Method: "loaded", Params: params, Metric: metricD, Value: float64(d)},
			}
			if r.LeakFree != "" {
				honest := r
				honest.Variant = r.LeakFree
				n, d, variant, err := measureDataset(ctx, env.Data, honest)
				if err != nil {
					return nil, err
				}
				params := []run.Param{run.P("variant", variant)}
				recs = append(recs,
					run.Record{Dataset: r.Dataset, Method: methodLeakFree, Params: params, Metric: metricN, Value: float64(n)},
					run.Record{Dataset: r.Dataset, Method: methodLeakFree, Params: params, Metric: metricD, Value: float64(d)})
			}
			return recs, nil
		}}
	}
	return tasks
}

// DatasetTableRender renders a data-set table from the recorded shapes. forestSize, when set, gives
// the initial forest size chosen here for a row (chapter 6), shown beside the thesis's.
func DatasetTableRender(caption string, rows []PrintedDataset, forestSize func(res *run.Results, r PrintedDataset) string) func(*run.Results, *run.Output) error {
	return func(res *run.Results, out *run.Output) error {
		header := []string{"data set"}
		if rows[0].Acronym != "" {
			header = append(header, "acronym")
		}
		header = append(header, "n (here)", "d (here)", "n (thesis)", "d (thesis)", "match", "task")
		if forestSize != nil {
			header = append(header, "forest size (thesis)", "forest size (here)")
		}
		header = append(header, "variant loaded")
		notes := false
		for _, r := range rows {
			notes = notes || r.LeakFree != "" || r.NotComparable != "" || r.Note != "" || r.DCountsLabel
		}
		if notes {
			header = append(header, "note")
		}
		header = append(header, "source")
		var lines [][]string
		for _, r := range rows {
			n, d, variant, ok := loadedShape(res, "loaded", r.Dataset)
			line := []string{r.Name}
			if r.Acronym != "" {
				line = append(line, r.Acronym)
			}
			if !ok {
				line = append(line, "not run", "not run")
			} else {
				line = append(line, strconv.Itoa(n), dimText(d, r))
			}
			line = append(line, strconv.Itoa(r.N), dimText(r.D, r), matchText(ok, n, d, variant, r), r.Task)
			if forestSize != nil {
				line = append(line, strconv.Itoa(r.Forest), forestSize(res, r))
			}
			line = append(line, variant)
			if notes {
				line = append(line, noteText(res, r))
			}
			line = append(line, sourceText(r.Dataset))
			lines = append(lines, line)
		}
		return plotting.WriteTable(filepath.Join(out.Dir, out.ID), caption, header, lines)
	}
}

// SizeClaims is the claim of a data-set table.
func SizeClaims(rows []PrintedDataset) []run.Claim {
	return []run.Claim{{
		ID:   "sizes-match",
		Kind: run.Bookkeeping,
		Text: "every data set as loaded here has the n and d the thesis prints",
		Rule: "exact, one test per data set: supported if n and d as loaded equal the printed ones, contradicted if either differs; " +
			"a data set whose printed n counts something else than what the task loads cannot be compared (inconclusive, with the reason)",
		Check: func(res *run.Results) (verdict.Verdict, error) { return checkSizes(res, rows) },
	}}
}

// checkSizes is the sizes-match claim of a data-set table.
func checkSizes(res *run.Results, rows []PrintedDataset) (verdict.Verdict, error) {
	tests := make([]verdict.Test, 0, len(rows))
	var notes []string
	for _, r := range rows {
		n, d, variant, ok := loadedShape(res, "loaded", r.Dataset)
		if !ok {
			return verdict.Verdict{}, fmt.Errorf("no result for %s", r.Dataset)
		}
		label := fmt.Sprintf("%s (%d × %s here, thesis %d × %s)", r.Name, n, dimText(d, r), r.N, dimText(r.D, r))
		if r.NotComparable != "" {
			tests = append(tests, verdict.Premise(label, r.NotComparable))
			continue
		}
		if partial := partialVariant(r.Dataset, variant); partial != "" {
			tests = append(tests, verdict.Premise(label, partial))
			continue
		}
		differ := 0
		if n != r.N {
			differ++
		}
		if r.D != 0 && printedD(d, r) != r.D {
			differ++
		}
		tests = append(tests, verdict.ExactTest(label+": sizes that differ", float64(differ), differ == 0, "supported if 0"))
		if r.LeakFree != "" {
			notes = append(notes, r.Name+": "+noteText(res, r))
		}
	}
	return verdict.Decide(tests, notes...), nil
}

// printedD is the loaded d counted the way the thesis prints it (with the label when it counts it).
func printedD(d int, r PrintedDataset) int {
	if r.DCountsLabel {
		return d + 1
	}
	return d
}

// partialVariant says why a loaded variant cannot be compared with the thesis's full data set: the
// mirror's partial Covertype (31,220 of 581,012 rows), loaded when the full UCI file is absent.
func partialVariant(name, variant string) string {
	if name == "covtype" && variant == dataset.CovtypeSubset {
		return "the partial Covertype copy (31,220 of 581,012 UCI rows) was loaded, so its n says nothing of the thesis's; the full UCI file decides this row"
	}
	return ""
}

// noteText is the note column of a data set: the label leak with the leak-free variant's sizes,
// what the thesis's n counts when it is not comparable, and any other note.
func noteText(res *run.Results, r PrintedDataset) string {
	var parts []string
	if r.LeakFree != "" {
		text := fmt.Sprintf("LEAKS THE LABEL (the %q columns the thesis's d comes from); leak-free %q variant: ", r.Variant, r.LeakFree)
		if n, d, variant, ok := loadedShape(res, methodLeakFree, r.Dataset); ok {
			text += fmt.Sprintf("%d × %d (%s)", n, d, variant)
		} else {
			text += "not run"
		}
		parts = append(parts, text)
	}
	if r.NotComparable != "" {
		parts = append(parts, r.NotComparable)
	}
	if r.DCountsLabel {
		parts = append(parts, "the thesis's d counts the label among the columns; d here is the number of features")
	}
	if r.Note != "" {
		parts = append(parts, r.Note)
	}
	return strings.Join(parts, "; ")
}

// measureDataset returns n, d and the variant of one data set as our loaders deliver it.
func measureDataset(ctx context.Context, src dataset.Source, r PrintedDataset) (int, int, string, error) {
	if r.Measure != nil {
		return r.Measure(ctx, src)
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

// loadedShape reads n, d and the variant recorded for one data set by method ("loaded", or
// methodLeakFree for the leak-free variant).
func loadedShape(res *run.Results, method, name string) (n, d int, variant string, ok bool) {
	var haveN, haveD bool
	for _, row := range res.Where(name, method, "") {
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
func dimText(d int, r PrintedDataset) string {
	if r.D == 0 && d == 0 {
		return "—"
	}
	return strconv.Itoa(d)
}

// matchText says whether the loaded shape equals the printed one, and how it differs otherwise.
func matchText(ok bool, n, d int, variant string, r PrintedDataset) string {
	if !ok {
		return "not run"
	}
	var diffs []string
	switch {
	case r.NotComparable != "":
		diffs = append(diffs, "n not comparable (see note)")
	case partialVariant(r.Dataset, variant) != "":
		diffs = append(diffs, "n not comparable (partial copy)")
	case n != r.N:
		diffs = append(diffs, fmt.Sprintf("n %d vs %d", n, r.N))
	}
	if r.D != 0 && printedD(d, r) != r.D {
		diffs = append(diffs, fmt.Sprintf("d %d vs %d", d, r.D))
	}
	if len(diffs) == 0 {
		if r.LeakFree != "" {
			return "yes (leaks the label: see note)"
		}
		return "yes"
	}
	if (r.NotComparable != "" || partialVariant(r.Dataset, variant) != "") && len(diffs) == 1 {
		return diffs[0]
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
