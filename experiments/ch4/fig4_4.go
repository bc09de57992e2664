package ch4

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

const fig4_4Dataset = "covtype"

// metricRows is fig4_4's setup row of a task: the rows of the Covertype copy it loaded, with the
// variant (dataset.Label names it) and the rows of the two cover types as parameters.
const metricRows = "rows"

// fig4_4Variant is the Covertype variant each scale asks for: the mirror's 31,220-row subset below
// paper scale, so that those scales mean the same data on every machine, and at paper scale ""
// (the loader's default: the full UCI file when the mirror or the cache has it or it can be
// downloaded, else the subset), which each task records.
func fig4_4Variant(sc run.Scale) string {
	if sc == run.Paper {
		return ""
	}
	return dataset.CovtypeSubset
}

// fig4_4Sizes are the sample sizes and draws of fig4_4 at each scale; a task cuts them to what the
// Covertype copy it loads allows (fig4_4Fit).
var fig4_4Sizes = run.PerScale[sizes]{
	Smoke: sizes{n: []int{50, 200}, exactMax: 200, tasks: 2, drawsPerTask: 2, timedDraws: 1, timeCalls: 1},
	Quick: sizes{n: []int{100, 300, 1000, 3000}, exactMax: 1000, tasks: 20, drawsPerTask: 10, timedDraws: 1, timeCalls: 3},
	Paper: sizes{n: []int{100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000}, exactMax: 10000, tasks: 50, drawsPerTask: 10, timedDraws: 1, timeCalls: 5},
}

// fig4_4 — the three-sample problem on Covertype, P_X = cover type 1, P_Z = cover type 2 (the
// thesis's "classes 0 and 1", the two first classes; §4.6.2, Figure 4.4). The 54 features are
// standardised over the whole loaded table, then the rows of the two classes are kept; X and W are
// disjoint uniform samples of class 1 and Z a uniform sample of class 2, without replacement. The
// Gaussian kernel's σ² is the mean squared distance over the rows of the two classes. Data: the
// mirror's 31,220-row subset below paper scale, whose 7,134 rows of class 1 cap n at 3,567 (two
// disjoint samples), hence n ≤ 3000 at quick scale; at paper scale whatever copy the source holds
// (fig4_4Variant): the full UCI file (211,840 and 283,301 rows in the two classes) runs the
// thesis's n = 100 … 10⁵, the subset runs those up to its cap and then the cap itself (fig4_4Fit).
// The thesis shows Covertype to time the methods at larger n than MNIST (fig4_3, up to 15,000);
// the subset's cap is below that, and the caption and every claim's evidence say so. The exact
// MMD² is computed up to n = 10⁴ (10³ at quick scale). Sizes: paper 500 draws, quick 200, smoke 4.
// Protocol and shared choices: common.go.
func fig4_4() *run.Experiment {
	f := figure{
		id: "fig4_4", title: "Three-sample problem Covertype class 1 vs class 2: error, Δ to exact MMD² and time vs n",
		seed: 4004, dataset: fig4_4Dataset,
		compared: [2]string{"rff", "nystrom"},
		sizes:    fig4_4Sizes,
		// load, describe and setup depend on the copy of Covertype a task loaded: fig4_4Batch and
		// renderFig4_4 set them.
	}
	const d = fig4_4Dataset
	e := f.experiment(
		fig4_4Noted(claimExactFewest("exact-fewest", d, []string{"linear", "block", "rff", "nystrom"})),
		fig4_4Noted(claimFewestErrors("nystrom-next",
			"Nyström comes next: it makes fewer errors than every other approximation",
			d, "nystrom", []string{"linear", "block", "rff"}, fixedRange(everyN()))),
		fig4_4Noted(claimSameConvergence("nystrom-rff-same-convergence",
			"Nyström and RFF converge to the exact MMD at almost the same speed", d, "nystrom", "rff")),
	)
	e.Plan = func(sc run.Scale) ([]run.Task, error) {
		tasks, err := f.plan(sc)
		if err != nil {
			return nil, err
		}
		for i := range tasks {
			tasks[i].Run = func(ctx context.Context, env *run.Env) ([]run.Record, error) { return fig4_4Batch(ctx, env, f, sc) }
		}
		return tasks, nil
	}
	e.Render = func(res *run.Results, out *run.Output) error {
		g, err := fig4_4Described(f, res)
		if err != nil {
			return err
		}
		return g.render(res, out)
	}
	return e
}

// fig4_4Pools is the Covertype copy one task loaded, ready to draw from.
type fig4_4Pools struct {
	*vectorPools
	// variant is the copy loaded (dataset.CovtypeFull or CovtypeSubset), rows its number of rows.
	variant string
	rows    int
}

// loadCovtypePools loads Covertype (fig4_4Variant of the scale), standardises its features and
// keeps the rows of cover types 1 (P_X) and 2 (P_Z), with the Gaussian kernel of σ² = their mean
// squared distance.
func loadCovtypePools(ctx context.Context, src dataset.Source, sc run.Scale) (*fig4_4Pools, error) {
	var opts []dataset.LoadOption
	if v := fig4_4Variant(sc); v != "" {
		opts = append(opts, dataset.Variant(v))
	}
	t, err := src.Table(ctx, fig4_4Dataset, opts...)
	if err != nil {
		return nil, err
	}
	X, err := t.Matrix(dataset.Prep{Standardise: true})
	if err != nil {
		return nil, err
	}
	if len(t.Target.Classes) < 2 || t.Target.Classes[0] != "1" || t.Target.Classes[1] != "2" {
		return nil, fmt.Errorf("fig4_4: %s classes %v, want cover types 1 and 2 first", fig4_4Dataset, t.Target.Classes)
	}
	var rows, px, pz []int
	for i, code := range t.Target.Values {
		switch code {
		case 0:
			px = append(px, len(rows))
		case 1:
			pz = append(pz, len(rows))
		default:
			continue
		}
		rows = append(rows, i)
	}
	_, d := X.Dims()
	kept := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		kept.SetRow(i, X.RawRowView(r))
	}
	pools, err := newVectorPools(kept, px, pz)
	if err != nil {
		return nil, err
	}
	return &fig4_4Pools{vectorPools: pools, variant: t.Variant, rows: t.Len()}, nil
}

// fig4_4Batch is one task of fig4_4: it loads the Covertype copy of the scale, fits the scale's
// sizes to it (fig4_4Fit) and runs f's batch of draws on it, recording the copy it used.
func fig4_4Batch(ctx context.Context, env *run.Env, f figure, sc run.Scale) ([]run.Record, error) {
	pools, err := loadCovtypePools(ctx, env.Data, sc)
	if err != nil {
		return nil, err
	}
	sz, err := fig4_4Fit(f.sizes.At(sc), len(pools.px), len(pools.pz))
	if err != nil {
		return nil, err
	}
	f.load = func(context.Context, dataset.Source, run.Scale) (sampler, error) { return pools.sample, nil }
	recs, err := f.runBatch(ctx, env.Data, env.RNG, sc, sz)
	if err != nil {
		return nil, err
	}
	params := []run.Param{run.P("variant", pools.variant), run.P("type-1", len(pools.px)), run.P("type-2", len(pools.pz))}
	return append(recs, run.Record{Dataset: fig4_4Dataset, Method: setupMethod, Params: params, Metric: metricRows, Value: float64(pools.rows)}), nil
}

// fig4_4Fit cuts sz to what pools of px points of P_X and pz of P_Z allow without reusing a point:
// X and W disjoint need 2n ≤ px, Z needs n ≤ pz. The n within that cap are kept and, when sz asks
// for more, the cap itself ends the list, so that the figure goes as far as the rows allow.
func fig4_4Fit(sz sizes, px, pz int) (sizes, error) {
	limit := min(px/2, pz)
	if len(sz.n) == 0 || sz.n[0] > limit {
		return sizes{}, fmt.Errorf("fig4_4: n = %v, but %d points of P_X and %d of P_Z allow n ≤ %d", sz.n, px, pz, limit)
	}
	if sz.n[len(sz.n)-1] <= limit {
		return sz, nil
	}
	var ns []int
	for _, n := range sz.n {
		if n < limit {
			ns = append(ns, n)
		}
	}
	sz.n = append(ns, limit)
	return sz, nil
}

// fig4_4Data is what a run's results say of the Covertype copy behind them: the variant, the rows
// of cover types 1 and 2 (0 when not recorded) and the largest n run.
type fig4_4Data struct {
	variant      string
	type1, type2 int
	largest      float64
}

// fig4_4Recorded reads fig4_4Data from the results. Runs made before the copy was recorded are
// quick or smoke runs, which always load the subset (fig4_4Variant); a paper run must say.
func fig4_4Recorded(res *run.Results) (fig4_4Data, error) {
	d := fig4_4Data{variant: fig4_4Variant(res.Scale)}
	if rows := res.Where(fig4_4Dataset, setupMethod, metricRows); len(rows) > 0 {
		d.variant, _ = rows[0].Param("variant")
		t1, err1 := rows[0].ParamFloat("type-1")
		t2, err2 := rows[0].ParamFloat("type-2")
		if err1 != nil || err2 != nil {
			return d, fmt.Errorf("%s: a setup row without the rows of the cover types: %v", res.ID, rows[0].Params)
		}
		d.type1, d.type2 = int(t1), int(t2)
	}
	if d.variant == "" {
		return d, fmt.Errorf("%s: the results do not record which Covertype copy they come from", res.ID)
	}
	ns, err := ns(res, fig4_4Dataset, "linear", metricWrong)
	if err != nil {
		return d, err
	}
	d.largest = slices.Max(ns)
	return d, nil
}

// name is the copy as results, captions and claims name it (dataset.Label).
func (d fig4_4Data) name() string { return dataset.Label(fig4_4Dataset, d.variant) }

// capped says, when the run stopped short of the thesis's sizes, where and why, and whether that
// is below MNIST's largest n in fig4_3 at the same scale ("" when the run reached them).
func (d fig4_4Data) capped(sc run.Scale) string {
	planned := fig4_4Sizes.At(sc).n
	if d.largest >= float64(planned[len(planned)-1]) {
		return ""
	}
	rows := "cover type 1"
	if d.type1 > 0 {
		rows = fmt.Sprintf("cover type 1's %d rows", d.type1)
	}
	text := fmt.Sprintf("n stops at %g, the most %s allow for disjoint X and W (the scale plans %d)", d.largest, rows, planned[len(planned)-1])
	mnist := fig4_3Sizes.At(sc).n
	if m := mnist[len(mnist)-1]; d.largest < float64(m) {
		text += fmt.Sprintf(", below fig4_3's %d: this figure cannot time the methods beyond MNIST as the thesis does", m)
	}
	return text
}

// fig4_4Described returns f with the description of the Covertype copy the results come from, for
// the caption.
func fig4_4Described(f figure, res *run.Results) (figure, error) {
	d, err := fig4_4Recorded(res)
	if err != nil {
		return f, err
	}
	data := "" // the subset is named by d.name() in the caption's first sentence
	if !dataset.Partial(fig4_4Dataset, d.variant) {
		data = " (the full UCI data: 211,840 rows of type 1, 283,301 of type 2)"
	}
	setup := "P_X = cover type 1, P_Z = cover type 2 (the thesis's classes 0 and 1)" + data + ", 54 standardised features, X and W disjoint. Gaussian kernel, σ² = the mean squared distance over the rows of the two types."
	if c := d.capped(res.Scale); c != "" {
		setup += " The thesis's sizes do not fit: " + c + "."
	}
	f.describe = d.name() + ", cover types 1 vs 2"
	f.setup = func(run.Scale) string { return setup }
	return f, nil
}

// fig4_4Noted adds to the evidence of claim c which Covertype copy its numbers come from when it
// is the subset (so that no verdict on it passes for one on the whole data set), and why n stops
// where it does when the run could not reach the thesis's sizes.
func fig4_4Noted(c run.Claim) run.Claim {
	check := c.Check
	c.Check = func(res *run.Results) (verdict.Verdict, error) {
		v, err := check(res)
		if err != nil {
			return v, err
		}
		d, err := fig4_4Recorded(res)
		if err != nil {
			return verdict.Verdict{}, err
		}
		notes := []string{v.Evidence}
		if dataset.Partial(fig4_4Dataset, d.variant) {
			notes = append(notes, "every member is measured on "+d.name()+", not the whole data set")
		}
		if capped := d.capped(res.Scale); capped != "" {
			notes = append(notes, capped)
		}
		v.Evidence = strings.Join(notes, "; ")
		return v, nil
	}
	return c
}
