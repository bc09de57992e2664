package course

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/fastkernels/kernellab/experiments/internal/kit"
	"github.com/fastkernels/kernellab/experiments/styles"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// Set-up of notes_fig_rff.
const (
	notesRFFSeed = 1001
	// notesRFFFitFrom is the smallest c of the slope fit. The −1/2 rate is asymptotic: the sup over
	// N ≈ 2·10⁴ pairs of errors of standard deviation s/√c (s ≤ 1) is about s·√(2 ln N)/√c ≈ 4.5/√c,
	// which falls below 0.5, far from the saturation at the range of the estimate, from c ≈ 100.
	notesRFFFitFrom = 100
	// notesRFFSlopeTolerance is the catalogue's tolerance on the fitted exponent.
	notesRFFSlopeTolerance = 0.15
	notesRFFDataset        = "normal"
	notesRFFMetric         = "sup-error"
)

// notesRFFDims are the input dimensions p of the lecture notes' bound O(√(p/c)).
var notesRFFDims = []int{2, 8, 32}

// notesRFFFeatures builds, for the point cloud X in dimension p, the kernel a method approximates
// and a draw of c random features of it.
type notesRFFFeatures func(rng *rand.Rand, X *mat.Dense, p int) (kernel.Kernel, func(c int) (*lowrank.RFF, error), error)

// notesRFFKernels are the two kernels of the lecture notes whose random features the figure
// compares, with their panel titles as labels.
var notesRFFKernels = kit.Methods[notesRFFFeatures]{
	{ID: "rff-gaussian", Label: "Gaussian kernel, σ² = mean squared distance", Run: func(rng *rand.Rand, X *mat.Dense, p int) (kernel.Kernel, func(c int) (*lowrank.RFF, error), error) {
		gauss, _, err := kernel.ThesisGaussian(X)
		if err != nil {
			return nil, nil, err
		}
		return gauss, func(c int) (*lowrank.RFF, error) { return lowrank.NewRFFGaussian(rng, p, c, gauss.Sigma) }, nil
	}},
	{ID: "rff-laplace", Label: "Laplace kernel (l1 norm), σ = mean l1 distance", Run: func(rng *rand.Rand, X *mat.Dense, p int) (kernel.Kernel, func(c int) (*lowrank.RFF, error), error) {
		sigma := meanL1Distance(X)
		return kernel.Laplace{Sigma: sigma}, func(c int) (*lowrank.RFF, error) { return lowrank.NewRFFLaplace(rng, p, c, sigma) }, nil
	}},
}

// notesRFFSizes are the points, the feature grid and the repetitions of notes_fig_rff at a scale.
type notesRFFSizes struct {
	points, reps int
	features     []int
}

var notesRFFScales = run.PerScale[notesRFFSizes]{
	Smoke: notesRFFSizes{points: 40, reps: 2, features: []int{10, 100, 1000}},
	Quick: notesRFFSizes{points: 200, reps: 10, features: []int{10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}},
	Paper: notesRFFSizes{points: 200, reps: 50,
		features: []int{10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000}},
}

// notesFigRFF — the uniform error of random Fourier features against their number c (lecture notes,
// their bound: sup_{x,x'} |⟨φ̂(x), φ̂(x')⟩ − k(x, x')| ≤ O(√(p/c))). A fixed cloud of points x ~ N(0, I_p)
// (200 at quick and paper scale, drawn from the experiment seed and p, so every repetition sees the
// same pairs) is mapped by φ̂(x) = √(2/c) cos(ωᵀx + b) with fresh frequencies in each repetition, and
// the largest error over all pairs (diagonal included) is recorded, for p ∈ {2, 8, 32}, for the
// Gaussian kernel (ω ~ N(0, σ⁻²I)) and the Laplace kernel with the l1 norm (Cauchy frequencies).
// The source leaves the bandwidths open: σ² is the thesis's mean squared distance of the cloud for
// the Gaussian kernel and σ the mean l1 distance for the Laplace kernel, so that typical kernel values
// do not change with p. The claim fits the exponent of c on c ≥ 100 (see notesRFFFitFrom).
func notesFigRFF() *run.Experiment {
	return &run.Experiment{
		ID: "notes_fig_rff", Title: "RFF sup-error vs number of features", Kind: run.Figure, Seed: notesRFFSeed,
		Plan:   planNotesRFF,
		Render: renderNotesRFF,
		Claims: []run.Claim{
			notesRFFRateClaim("gaussian-rate", "rff-gaussian", "Gaussian"),
			notesRFFRateClaim("laplace-rate", "rff-laplace", "Laplace"),
		},
	}
}

func planNotesRFF(sc run.Scale) ([]run.Task, error) {
	sz := notesRFFScales.At(sc)
	var tasks []run.Task
	for _, kern := range notesRFFKernels {
		for _, p := range notesRFFDims {
			for rep := range sz.reps {
				tasks = append(tasks, run.Task{
					Key: fmt.Sprintf("%s/p=%d/rep=%d", kern.ID, p, rep), Rep: rep,
					Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
						return notesRFFRecords(ctx, env.RNG, kern.ID, p, sz)
					}})
			}
		}
	}
	return tasks, nil
}

// notesRFFPoints draws the fixed cloud of the experiment for dimension p: m points from N(0, I_p),
// from a generator seeded by the experiment seed and p alone, so that all repetitions and both
// kernels measure the same pairs.
func notesRFFPoints(m, p int) *mat.Dense {
	rng := rand.New(rand.NewPCG(notesRFFSeed, uint64(p)))
	X := mat.NewDense(m, p, nil)
	for i := range m {
		for j := range p {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	return X
}

// meanL1Distance returns the mean l1 distance over the ordered pairs of distinct rows of X, the
// Laplace bandwidth of notes_fig_rff (O(m²p), for the small clouds it is used on).
func meanL1Distance(X mat.Matrix) float64 {
	m, p := X.Dims()
	total := 0.0
	for i := range m {
		for j := i + 1; j < m; j++ {
			for l := range p {
				total += math.Abs(X.At(i, l) - X.At(j, l))
			}
		}
	}
	return 2 * total / float64(m*(m-1))
}

// notesRFFRecords measures one repetition: for every c of the grid, fresh random features of the
// kernel and the sup over all pairs of the cloud of |φ̂(x)·φ̂(x') − k(x, x')|.
func notesRFFRecords(ctx context.Context, rng *rand.Rand, method string, p int, sz notesRFFSizes) ([]run.Record, error) {
	X := notesRFFPoints(sz.points, p)
	m, ok := notesRFFKernels.Lookup(method)
	if !ok {
		return nil, fmt.Errorf("notes_fig_rff: unknown method %q", method)
	}
	kern, draw, err := m.Run(rng, X, p)
	if err != nil {
		return nil, err
	}
	K, err := kernel.Gram(kern, X)
	if err != nil {
		return nil, err
	}
	var recs []run.Record
	var estimate mat.SymDense
	for _, c := range sz.features {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rff, err := draw(c)
		if err != nil {
			return nil, err
		}
		phi, err := rff.Transform(X)
		if err != nil {
			return nil, err
		}
		estimate.Reset()
		estimate.SymOuterK(1, phi)
		sup := 0.0
		for i := range sz.points {
			for j := i; j < sz.points; j++ {
				sup = math.Max(sup, math.Abs(estimate.At(i, j)-K.At(i, j)))
			}
		}
		recs = append(recs, run.Record{Dataset: notesRFFDataset, Method: method,
			Params: []run.Param{run.P("p", p), run.P("points", sz.points), run.P("c", c)},
			Metric: notesRFFMetric, Value: sup})
	}
	return recs, nil
}

// notesRFFCurve summarises the sup error of one kernel and dimension over the repetitions, against c.
func notesRFFCurve(res *run.Results, method string, p int) ([]run.Summary, error) {
	want := fmt.Sprint(p)
	var rows []run.Row
	for _, r := range res.Where(notesRFFDataset, method, notesRFFMetric) {
		if v, ok := r.Param("p"); ok && v == want {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no %s rows for %s, p = %d", res.ID, notesRFFMetric, method, p)
	}
	return run.Summarise(rows, "c")
}

// notesRFFLogDraws returns ln c and ln(sup error) of every repetition of one kernel and dimension,
// on the points c ≥ notesRFFFitFrom.
func notesRFFLogDraws(res *run.Results, method string, p int) (lc, le []float64, err error) {
	want := fmt.Sprint(p)
	for _, r := range res.Where(notesRFFDataset, method, notesRFFMetric) {
		if v, ok := r.Param("p"); !ok || v != want {
			continue
		}
		c, err := r.ParamFloat("c")
		if err != nil {
			return nil, nil, err
		}
		if c < notesRFFFitFrom {
			continue
		}
		if !(r.Value > 0) {
			return nil, nil, fmt.Errorf("%s: %s, p = %d, c = %g: sup error %g has no logarithm", res.ID, method, p, c, r.Value)
		}
		lc, le = append(lc, math.Log(c)), append(le, math.Log(r.Value))
	}
	if len(lc) == 0 {
		return nil, nil, fmt.Errorf("%s: no %s rows for %s, p = %d with c ≥ %d", res.ID, notesRFFMetric, method, p, notesRFFFitFrom)
	}
	return lc, le, nil
}

// notesRFFRateClaim tests that the sup error of one kernel falls as c^{-1/2} for every p: the
// exponent within ±notesRFFSlopeTolerance of −1/2, by two one-sided tests on the least-squares slope
// per p (together a TOST), all in one Holm family.
func notesRFFRateClaim(id, method, name string) run.Claim {
	return run.Claim{
		ID:   id,
		Kind: run.Check, // Rahimi and Recht's bound: a theorem, so a test of the implementation
		Text: fmt.Sprintf("%s kernel: the sup error of RFF falls as c^{-1/2}, for every input dimension p", name),
		Rule: fmt.Sprintf("least-squares slope of ln(sup error) against ln c over every repetition with c ≥ %d (where the −1/2 rate applies, "+
			"see the doc), per p; two one-sided t tests per p (a TOST): slope above %.2f and below %.2f (the catalogue's tolerance ±%.2f), "+
			"Holm over the %d tests; supported if all hold, contradicted if a slope is shown outside",
			notesRFFFitFrom, -0.5-notesRFFSlopeTolerance, -0.5+notesRFFSlopeTolerance, notesRFFSlopeTolerance, 2*len(notesRFFDims)),
		Check: func(res *run.Results) (verdict.Verdict, error) {
			var tests []verdict.Test
			for _, p := range notesRFFDims {
				lc, le, err := notesRFFLogDraws(res, method, p)
				if err != nil {
					return verdict.Verdict{}, err
				}
				label := fmt.Sprintf("p = %d: exponent of c", p)
				tests = append(tests,
					verdict.SlopeAbove(label, lc, le, -0.5-notesRFFSlopeTolerance),
					verdict.SlopeBelow(label, lc, le, -0.5+notesRFFSlopeTolerance))
			}
			return verdict.Decide(tests), nil
		},
	}
}

// renderNotesRFF draws one log-log panel per kernel: the mean sup error over the repetitions with its
// min–max band for each p, and a reference line of slope −1/2.
func renderNotesRFF(res *run.Results, out *run.Output) error {
	points := "the"
	if rows := res.Where(notesRFFDataset, "", notesRFFMetric); len(rows) > 0 {
		points, _ = rows[0].Param("points")
	}
	panels := make([]*plot.Plot, len(notesRFFKernels))
	var first kit.Curve
	var notes, slopes []string
	for col, kern := range notesRFFKernels {
		p := plotting.NewPrint(kern.Label, "number of random features c", "sup error over all pairs")
		if err := kit.LogLog(p); err != nil {
			return err
		}
		// The input dimensions p are not methods: their series take index styles.
		cs := make([]kit.Curve, len(notesRFFDims))
		for i, dim := range notesRFFDims {
			sums, err := notesRFFCurve(res, kern.ID, dim)
			if err != nil {
				return err
			}
			cs[i] = kit.Curve{Method: fmt.Sprintf("input dimension p = %d", dim), Points: sums}
		}
		if col == 0 {
			first = cs[0]
		}
		var fitted []string
		for i, c := range cs {
			var xs, ys []float64
			for _, pt := range c.Points {
				if pt.X >= notesRFFFitFrom {
					xs, ys = append(xs, pt.X), append(ys, pt.Mean)
				}
			}
			v, err := kit.LogLogSlope(xs, ys)
			if err != nil {
				return fmt.Errorf("%s: %s, p = %d: %w", res.ID, kern.ID, notesRFFDims[i], err)
			}
			fitted = append(fitted, slope(v))
		}
		slopes = append(slopes, fmt.Sprintf("%s for the %s kernel", strings.Join(fitted, ", "), strings.Fields(kern.Label)[0]))
		if err := kit.AddMinMaxBands(p, cs, nil); err != nil {
			return err
		}
		for _, pair := range plotting.Coincident(meanBands(cs), 0.05) {
			notes = append(notes, fmt.Sprintf("In (%c) the mean lines of %s and %s agree within 5%% at every c: the second lies on the first, their markers show both.",
				'a'+col, cs[pair[0]].Method, cs[pair[1]].Method))
		}
		// The reference line starts 1.5 times above the mean error (over p) at the first c of the fit.
		cFit, cMax := math.Inf(1), cs[0].Last().X
		for _, s := range cs[0].Points {
			if s.X >= notesRFFFitFrom {
				cFit = math.Min(cFit, s.X)
			}
		}
		anchor, found := 0.0, 0
		for _, c := range cs {
			if s, ok := c.At(cFit); ok {
				anchor, found = anchor+s.Mean, found+1
			}
		}
		if found > 0 && cMax > cFit {
			anchor /= float64(found)
			ref := func(c float64) float64 { return 1.5 * anchor * math.Sqrt(cFit/c) }
			if err := styles.AddLine(p, []float64{cFit, cMax}, []float64{ref(cFit), ref(cMax)}, "slope −1/2", "slope"); err != nil {
				return err
			}
		}
		panels[col] = p
	}
	if err := kit.SavePrintRow(out, 5.5*vg.Centimeter, panels...); err != nil {
		return err
	}
	dims := make([]string, len(notesRFFDims))
	for i, d := range notesRFFDims {
		dims[i] = fmt.Sprint(d)
	}
	result := fmt.Sprintf("From c = %d on, the mean sup error falls with fitted log-log slopes %s (p = %s; the notes' O(√(p/c)) rate: −0.5).",
		notesRFFFitFrom, strings.Join(slopes, " and "), strings.Join(dims, ", "))
	return kit.WriteCaption(out, res, result, fmt.Sprintf(
		"Uniform error of random Fourier features against their number c (lecture notes: sup_{x,x'} |⟨φ̂(x), φ̂(x')⟩ − k(x, x')| ≤ "+
			"O(√(p/c))). A fixed cloud of %s points x ~ N(0, I_p), the same in every repetition, is mapped by φ̂(x) = √(2/c) cos(ωᵀx + b) "+
			"with fresh frequencies in each of %d repetitions; the largest error over all pairs (diagonal included) is shown for "+
			"p ∈ {2, 8, 32} and c = %s. (a) Gaussian kernel, ω ~ N(0, σ⁻²I) with σ² the mean squared distance of the cloud; "+
			"(b) Laplace kernel with the l1 norm (Cauchy frequencies), σ the mean l1 distance, so that typical kernel values do not "+
			"change with p (the bandwidths are our choice; the notes leave them open). Lines: mean over the repetitions; bands: "+
			"minimum to maximum. The line of slope −1/2 starts at c = %d, where the rate's fit starts, 1.5 times above the mean "+
			"error over p. Log-log axes. %s",
		points, kit.Reps(first), kit.PlainFloats(kit.Xs(first)), notesRFFFitFrom, strings.Join(notes, " ")))
}

// meanBands returns the mean lines of curves as bands without spread, labelled by their Method,
// for plotting.Coincident.
func meanBands(cs []kit.Curve) []plotting.Band {
	out := make([]plotting.Band, len(cs))
	for i, c := range cs {
		out[i] = plotting.Band{Label: c.Method, X: kit.Xs(c), Mean: c.Means()}
	}
	return out
}
