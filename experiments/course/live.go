package course

// Live figures of the teaching notebooks (issue 36): figures that notebook.Live redraws as the
// reader moves their sliders. Each precomputes in its constructor what the sliders do not change,
// so that a redraw takes well under 300 ms on two cores, and both draw the circles of
// lecture_fig_kpca, few enough for that.

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/fastkernels/kernellab/experiments/internal/kit"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/notebook"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/run"
)

// Set-up of the live figures.
const (
	livePoints = 300 // points on the two circles
	// Streams of the generators seeded by the notebook: the circles, the random frequencies and
	// the landmarks.
	liveDataStream, liveFeatureStream, liveLandmarkStream = 1, 2, 3
	// The D slider of ApproximationLive; at its largest Nyström takes every point as a landmark.
	liveFeaturesMin, liveFeaturesDefault, liveFeaturesMax = 5, 40, livePoints
	// The σ slider of KernelPCALive: 2·liveSigmaSteps + 1 steps of 2^{1/liveSigmaPerOctave} about
	// the bandwidth of lecture_fig_kpca's γ, its default (σ/8 to 8σ).
	liveSigmaSteps, liveSigmaPerOctave = 12, 4
	// Size of the figures: two print panels side by side (PNG at 300 dpi, about 1300 × 600 pixels).
	liveWidth       = 11 * vg.Centimeter
	livePanelHeight = 5 * vg.Centimeter
)

// Indices of ApproximationLive's method slider.
const (
	liveRFF = iota
	liveNystrom
)

// liveMethods name the methods of ApproximationLive in its slider's order: in full for the slider,
// short for the panel title.
var liveMethods = []struct{ name, short string }{
	liveRFF:     {"random Fourier features", "random features"},
	liveNystrom: {"Nyström (uniform landmarks)", "Nyström"},
}

// liveCircles draws the circles of the live figures (concentricCircles, from the seed's data
// stream) and orders the points by circle, outer first, then by angle, so that a kernel matrix of
// them shows its structure: a narrow band along the diagonal of the outer circle's block, which
// wraps around at its corners, and a broad one in the inner circle's. It returns the points and
// their circles (1 for the inner one).
func liveCircles(seed uint64) (*mat.Dense, []float64) {
	X, class := concentricCircles(rand.New(rand.NewPCG(seed, liveDataStream)), livePoints)
	angle := func(i int) float64 { return math.Atan2(X.At(i, 1), X.At(i, 0)) }
	order := kit.IndexRange(0, livePoints)
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(class[a], class[b]), cmp.Compare(angle(a), angle(b)))
	})
	sorted := make([]float64, livePoints)
	for i, o := range order {
		sorted[i] = class[o]
	}
	return kit.SelectRows(X, order), sorted
}

// checkLiveValues returns an error unless values holds one value per control, each in its range:
// Render's guard, since a notebook may call it with any values.
func checkLiveValues(figure string, controls []notebook.Control, values []int) error {
	if err := notebook.CheckValues(controls, values); err != nil {
		return fmt.Errorf("course: %s: %w", figure, err)
	}
	return nil
}

// liveAlt is a frame's alt text: the values of the controls, then the figure's key number.
func liveAlt(controls []notebook.Control, values []int, key string, value float64) string {
	return fmt.Sprintf("%s; %s = %.4g", notebook.AltText(controls, values), key, value)
}

// livePNG draws the panels side by side as a print figure and returns its PNG for a redraw
// (plotting's LivePNG: zlib's fastest level).
func livePNG(panels ...*plot.Plot) ([]byte, error) {
	fig := plotting.NewPrintFigure(1, len(panels), liveWidth, livePanelHeight)
	for col, p := range panels {
		fig.Set(0, col, p)
	}
	return fig.LivePNG()
}

// ApproximationLive is the live figure "number of random features or landmarks → approximation
// error": the Gaussian kernel matrix K of 300 points on the two circles of lecture_fig_kpca (at its
// γ = 3), points ordered by circle and angle, beside its approximation ΦΦᵀ by D random Fourier
// features or by Nyström on D uniform landmarks (all D eigenpairs kept), on one colour scale, with
// the relative Frobenius error ||K − ΦΦᵀ||_F / ||K||_F. Its sliders choose D and the method.
//
// The frequencies and the landmarks are drawn once, for the largest D, and a smaller D takes the
// first of them: moving the slider adds or removes features instead of drawing new ones, so the
// error changes with D alone.
type ApproximationLive struct {
	x           *mat.Dense      // the points, by circle then by angle
	kernel      kernel.Gaussian // exp(−γ||x − z||²) at lecture_fig_kpca's γ
	exact       *mat.SymDense   // K(X, X)
	frequencies *mat.Dense      // d × liveFeaturesMax, one random frequency per column
	phases      []float64       // their phases
	landmarks   []int           // liveFeaturesMax distinct points, in the order drawn
}

// NewApproximationLive draws the circles, the random features and the landmarks from seed and
// forms the exact kernel matrix: all that the sliders do not change.
func NewApproximationLive(seed uint64) (*ApproximationLive, error) {
	X, _ := liveCircles(seed)
	k := kernel.Gaussian{Sigma: 1 / math.Sqrt(2*circlesGamma)}
	K, err := kernel.Gram(k, X)
	if err != nil {
		return nil, fmt.Errorf("course: NewApproximationLive: %w", err)
	}
	_, d := X.Dims()
	rff, err := lowrank.NewRFFGaussian(rand.New(rand.NewPCG(seed, liveFeatureStream)), d, liveFeaturesMax, k.Sigma)
	if err != nil {
		return nil, fmt.Errorf("course: NewApproximationLive: %w", err)
	}
	S, err := lowrank.UniformLandmarks(rand.New(rand.NewPCG(seed, liveLandmarkStream)), livePoints, liveFeaturesMax)
	if err != nil {
		return nil, fmt.Errorf("course: NewApproximationLive: %w", err)
	}
	return &ApproximationLive{x: X, kernel: k, exact: K, frequencies: rff.Frequencies(), phases: rff.Phases(), landmarks: S}, nil
}

// Controls returns the figure's sliders: D, the number of random features or landmarks (5 to 300,
// default 40), and the method (random Fourier features, the default, or Nyström).
func (l *ApproximationLive) Controls() []notebook.Control {
	return []notebook.Control{
		{Label: "features or landmarks D", Min: liveFeaturesMin, Max: liveFeaturesMax, Value: liveFeaturesDefault},
		{Label: "method", Min: 0, Max: len(liveMethods) - 1, Value: liveRFF, Format: func(i int) string {
			if i < 0 || i >= len(liveMethods) {
				return strconv.Itoa(i)
			}
			return liveMethods[i].name
		}},
	}
}

// Render draws the exact kernel matrix beside its approximation for values = (D, method), with
// the relative Frobenius error in the approximation's title and, after the values, in the alt
// text. Values of the wrong number or out of range are an error.
func (l *ApproximationLive) Render(values []int) (notebook.Frame, error) {
	controls := l.Controls()
	if err := checkLiveValues("ApproximationLive", controls, values); err != nil {
		return notebook.Frame{}, err
	}
	D, method := values[0], values[1]
	phi, err := l.features(D, method)
	if err != nil {
		return notebook.Frame{}, fmt.Errorf("course: ApproximationLive: %w", err)
	}
	rel, err := lowrank.RelativeFrobeniusError(l.kernel, l.x, phi, nil)
	if err != nil {
		return notebook.Frame{}, fmt.Errorf("course: ApproximationLive: %w", err)
	}
	var approx mat.SymDense
	approx.SymOuterK(1, phi)
	limit := max(mat.Max(l.exact), mat.Max(&approx), -mat.Min(&approx)) // one scale for both
	panels := []struct {
		m     mat.Matrix
		title string
	}{
		{l.exact, "exact kernel matrix K"},
		{&approx, fmt.Sprintf("%s, D = %d: error %.3g", liveMethods[method].short, D, rel)},
	}
	plots := make([]*plot.Plot, len(panels))
	for i, panel := range panels {
		p := plotting.NewPrint(panel.title, "point j", "point i")
		opt := plotting.HeatMapOptions{Limit: limit, NoBar: i == 0, BarLabel: "kernel value"}
		if err := plotting.HeatMap(p, panel.m, opt); err != nil {
			return notebook.Frame{}, err
		}
		if err := plotting.EqualAspect(p); err != nil {
			return notebook.Frame{}, err
		}
		plots[i] = p
	}
	encoded, err := livePNG(plots...)
	if err != nil {
		return notebook.Frame{}, err
	}
	return notebook.Frame{PNG: encoded, Alt: liveAlt(controls, values, "relative Frobenius error", rel)}, nil
}

// features returns the features Φ of the approximation ΦΦᵀ of K: the first D random Fourier
// features, or Nyström on the first D landmarks with every eigenpair above the cut-off.
func (l *ApproximationLive) features(D, method int) (*mat.Dense, error) {
	if method == liveNystrom {
		ny, err := lowrank.FitNystrom(l.kernel, l.x, l.landmarks[:D], 0)
		if err != nil {
			return nil, err
		}
		return ny.Transform(l.x)
	}
	d, _ := l.frequencies.Dims()
	rff, err := lowrank.NewRFF(l.frequencies.Slice(0, d, 0, D), l.phases[:D])
	if err != nil {
		return nil, err
	}
	return rff.Transform(l.x)
}

// KernelPCALive is the live figure "Gaussian bandwidth → kernel PCA's embedding of the rings":
// 300 points on the two circles of lecture_fig_kpca, coloured by circle, beside their projections
// on the first two components of Gaussian kernel PCA, drawn as that figure draws them, with the
// best single threshold on the first component, whose accuracy (the share of points it puts on
// their circle's side) is in the title and the alt text. Its slider sets the bandwidth σ on a
// logarithmic grid, from σ₀/8 to 8σ₀ about lecture_fig_kpca's σ₀ = 1/√(2·3), where the first
// component separates the circles: a small σ sees only near neighbours and a large one the
// linear structure, which separates nothing.
type KernelPCALive struct {
	x     *mat.Dense
	class []float64 // 1 for the inner circle
	input []run.Row // the points as circlesScatter reads them
}

// NewKernelPCALive draws the circles from seed (those of NewApproximationLive). Kernel PCA itself
// depends on σ, so Render fits it; the error, always nil, keeps the constructors of the live
// figures alike.
func NewKernelPCALive(seed uint64) (*KernelPCALive, error) {
	X, class := liveCircles(seed)
	return &KernelPCALive{x: X, class: class, input: pointRows("input", X, class, "x1", "x2")}, nil
}

// liveSigma returns the bandwidth at step i of KernelPCALive's slider.
func liveSigma(i int) float64 {
	return math.Exp2(float64(i-liveSigmaSteps)/liveSigmaPerOctave) / math.Sqrt(2*circlesGamma)
}

// Controls returns the figure's slider: the Gaussian bandwidth σ, shown with its γ = 1/(2σ²), on
// a logarithmic grid of 25 steps, by default lecture_fig_kpca's.
func (l *KernelPCALive) Controls() []notebook.Control {
	return []notebook.Control{{Label: "Gaussian bandwidth σ", Min: 0, Max: 2 * liveSigmaSteps, Value: liveSigmaSteps,
		Format: func(i int) string {
			s := liveSigma(i)
			return fmt.Sprintf("%.3g (γ = %.3g)", s, 1/(2*s*s))
		}}}
}

// Render fits kernel PCA with the bandwidth of values[0] and draws the circles beside their
// projections on the first two components, with the best threshold on the first; its accuracy
// follows the value of σ in the alt text. Values of the wrong number or out of range are an
// error, and so is a bandwidth at which kernel PCA finds no two components.
func (l *KernelPCALive) Render(values []int) (notebook.Frame, error) {
	controls := l.Controls()
	if err := checkLiveValues("KernelPCALive", controls, values); err != nil {
		return notebook.Frame{}, err
	}
	sigma := liveSigma(values[0])
	kpca, err := factor.FitKernelPCA(kernel.Gaussian{Sigma: sigma}, l.x, 2)
	if err != nil {
		return notebook.Frame{}, fmt.Errorf("course: KernelPCALive: σ = %.3g: %w", sigma, err)
	}
	proj := kpca.TrainingProjections()
	cut, acc := bestThreshold(mat.Col(nil, 0, proj), l.class)
	res := &run.Results{ID: "KernelPCALive", Rows: append(slices.Clone(l.input), pointRows("kernel-pca", proj, l.class, "pc1", "pc2")...)}
	res.Rows = append(res.Rows,
		run.Row{Dataset: circlesDataset, Method: "kernel-pca", Metric: pc1CutName, Value: cut},
		run.Row{Dataset: circlesDataset, Method: "kernel-pca", Metric: pc1AccuracyName, Value: acc})
	input, err := circlesScatter(res, "input", 0, "x1", "x2", "input space", "x₁", "x₂")
	if err != nil {
		return notebook.Frame{}, err
	}
	embedding, err := circlesScatter(res, "kernel-pca", 0, "pc1", "pc2", fmt.Sprintf("kernel PCA, σ = %.3g", sigma),
		"kernel principal component 1", "kernel principal component 2")
	if err != nil {
		return notebook.Frame{}, err
	}
	encoded, err := livePNG(input, embedding)
	if err != nil {
		return notebook.Frame{}, err
	}
	return notebook.Frame{PNG: encoded, Alt: liveAlt(controls, values, "accuracy of the best threshold on component 1", acc)}, nil
}

// pointRows returns the rows in which lecture_fig_kpca records its first repetition's points
// (circlesPoints, one row per coordinate, parameters point and class), for the columns 0 and 1
// of Z as the metrics xMetric and yMetric of the method: what circlesScatter draws.
func pointRows(method string, Z mat.Matrix, class []float64, xMetric, yMetric string) []run.Row {
	rows := make([]run.Row, 0, 2*len(class))
	for i, c := range class {
		params := []run.Param{run.P("point", i), run.P("class", c)}
		rows = append(rows,
			run.Row{Dataset: circlesPoints, Method: method, Params: params, Metric: xMetric, Value: Z.At(i, 0)},
			run.Row{Dataset: circlesPoints, Method: method, Params: params, Metric: yMetric, Value: Z.At(i, 1)})
	}
	return rows
}
