package sweep

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/fastkernels/kernellab/lab/csr"
	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/dataset/format"
	"github.com/fastkernels/kernellab/lab/factor"
	"github.com/fastkernels/kernellab/lab/forest"
	"github.com/fastkernels/kernellab/lab/graphkernel"
	"github.com/fastkernels/kernellab/lab/internal/lazymat"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/learn"
	"github.com/fastkernels/kernellab/lab/leverage"
	"github.com/fastkernels/kernellab/lab/lowrank"
	"github.com/fastkernels/kernellab/lab/mmd"
	"github.com/fastkernels/kernellab/lab/plotting"
	"github.com/fastkernels/kernellab/lab/pursuit"
	"github.com/fastkernels/kernellab/lab/text"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// callTimeout is the per-call limit: every call of the sweep works on at most a dozen points, so
// one that runs longer is taken for a hang.
const callTimeout = 10 * time.Second

// sweepMemoryLimit caps one allocation during the sweep (LAB_MEMLIMIT_BYTES), so that a bad size
// that passes a check cannot exhaust the test machine.
const sweepMemoryLimit = "1073741824"

// functions is every exported function of the swept packages (constructors included) but one:
// kernel.ExpNonPositive, the batched exp of the Gram loops, has no error result and documents a
// panic for a dst shorter than src (a programming error, like copy's); it is left out.
var functions = []struct {
	name string
	fn   any
}{
	{"kernel.Cross", kernel.Cross}, {"kernel.CrossInto", kernel.CrossInto}, {"kernel.CrossBlocks", kernel.CrossBlocks},
	{"kernel.Diagonal", kernel.Diagonal},
	{"kernel.Gram", kernel.Gram}, {"kernel.GramInto", kernel.GramInto},
	{"kernel.MeanSquaredDistance", kernel.MeanSquaredDistance}, {"kernel.MedianHeuristic", kernel.MedianHeuristic},
	{"kernel.ThesisRidge", kernel.ThesisRidge}, {"kernel.NewGaussian", kernel.NewGaussian},
	{"kernel.ThesisGaussian", kernel.ThesisGaussian}, {"kernel.NewLaplace", kernel.NewLaplace},
	{"kernel.NewPolynomial", kernel.NewPolynomial},

	{"lowrank.BKA", lowrank.BKA}, {"lowrank.BestRankK", lowrank.BestRankK}, {"lowrank.BestRankKError", lowrank.BestRankKError},
	{"lowrank.FrobeniusError", lowrank.FrobeniusError}, {"lowrank.RelativeFrobenius", lowrank.RelativeFrobenius},
	{"lowrank.RelativeFrobeniusError", lowrank.RelativeFrobeniusError},
	{"lowrank.UniformLandmarks", lowrank.UniformLandmarks}, {"lowrank.WeightedLandmarks", lowrank.WeightedLandmarks},
	{"lowrank.FitMEKA", lowrank.FitMEKA}, {"lowrank.FitMEKAContext", lowrank.FitMEKAContext},
	{"lowrank.FitNystrom", lowrank.FitNystrom}, {"lowrank.NewRFF", lowrank.NewRFF},
	{"lowrank.NewRFFGaussian", lowrank.NewRFFGaussian}, {"lowrank.NewRFFLaplace", lowrank.NewRFFLaplace},

	{"leverage.BernoulliProbabilities", leverage.BernoulliProbabilities},
	{"leverage.BernoulliSample", leverage.BernoulliSample}, {"leverage.BernoulliSizeBound", leverage.BernoulliSizeBound},
	{"leverage.DAC", leverage.DAC}, {"leverage.DACContext", leverage.DACContext},
	{"leverage.DACPartition", leverage.DACPartition}, {"leverage.Exact", leverage.Exact},
	{"leverage.Recursive", leverage.Recursive}, {"leverage.RecursiveContext", leverage.RecursiveContext},
	{"leverage.Sample", leverage.Sample}, {"leverage.Uniform", leverage.Uniform},
	{"leverage.UniformContext", leverage.UniformContext},

	{"mmd.DefaultSize", mmd.DefaultSize}, {"mmd.ErrorRate", mmd.ErrorRate}, {"mmd.ThreeSample", mmd.ThreeSample},
	{"mmd.NewPrecomputed", mmd.NewPrecomputed}, {"mmd.NewVectors", mmd.NewVectors},

	{"pursuit.ExactRecoveryCondition", pursuit.ExactRecoveryCondition},
	{"pursuit.FrankWolfeRadiusThreshold", pursuit.FrankWolfeRadiusThreshold},
	{"pursuit.FrankWolfeRate", pursuit.FrankWolfeRate},
	{"pursuit.FrankWolfeRateFromFirstIteration", pursuit.FrankWolfeRateFromFirstIteration},
	{"pursuit.MatchingPursuitRate", pursuit.MatchingPursuitRate},
	{"pursuit.NonNegativeLeastSquares", pursuit.NonNegativeLeastSquares},
	{"pursuit.RecoverySparsity", pursuit.RecoverySparsity}, {"pursuit.ResidualBound", pursuit.ResidualBound},
	{"pursuit.NewDenseDictionary", pursuit.NewDenseDictionary}, {"pursuit.NewGaussianDictionary", pursuit.NewGaussianDictionary},
	{"pursuit.NewGramDictionary", pursuit.NewGramDictionary},
	{"pursuit.MeasureIncoherence", pursuit.MeasureIncoherence}, {"pursuit.FrankWolfe", pursuit.FrankWolfe},
	{"pursuit.MatchingPursuit", pursuit.MatchingPursuit}, {"pursuit.NonNegativeOMP", pursuit.NonNegativeOMP},
	{"pursuit.OrthogonalMatchingPursuit", pursuit.OrthogonalMatchingPursuit},
	{"pursuit.FrankWolfeContext", pursuit.FrankWolfeContext},
	{"pursuit.MatchingPursuitContext", pursuit.MatchingPursuitContext},
	{"pursuit.NonNegativeOMPContext", pursuit.NonNegativeOMPContext},
	{"pursuit.OrthogonalMatchingPursuitContext", pursuit.OrthogonalMatchingPursuitContext},
	{"pursuit.NewNormalEquations", pursuit.NewNormalEquations},
	{"pursuit.OrthogonalMatchingPursuitGram", pursuit.OrthogonalMatchingPursuitGram},
	{"pursuit.OrthogonalMatchingPursuitGramContext", pursuit.OrthogonalMatchingPursuitGramContext},

	{"learn.Accuracy", learn.Accuracy}, {"learn.MSE", learn.MSE}, {"learn.KMeans", learn.KMeans},
	{"learn.KMeansContext", learn.KMeansContext},
	{"learn.FitKRR", learn.FitKRR}, {"learn.FitKRRScaled", learn.FitKRRScaled},
	{"learn.FitSVM", learn.FitSVM}, {"learn.FitSVMContext", learn.FitSVMContext},

	{"learn.FitKNN", learn.FitKNN}, {"learn.TuneKNN", learn.TuneKNN}, {"learn.ROCAUC", learn.ROCAUC},
	{"learn.FitTopicModel", learn.FitTopicModel}, {"learn.FitTopicModelContext", learn.FitTopicModelContext},
	{"learn.Assignment", learn.Assignment}, {"learn.MatchTopics", learn.MatchTopics},
	{"learn.MatchedKL", learn.MatchedKL}, {"learn.TopicAgreement", learn.TopicAgreement},

	{"factor.FitKernelPCA", factor.FitKernelPCA}, {"factor.FitPCA", factor.FitPCA},
	{"factor.FitPPCA", factor.FitPPCA}, {"factor.AdaptiveRangeFinder", factor.AdaptiveRangeFinder},
	{"factor.FitPPCAContext", factor.FitPPCAContext},
	{"factor.RandomizedSVD", factor.RandomizedSVD}, {"factor.RandomizedSVDContext", factor.RandomizedSVDContext},
	{"factor.FitSparsePCA", factor.FitSparsePCA},
	{"factor.FitSparsePCAContext", factor.FitSparsePCAContext},
	{"factor.ComponentsForMass", factor.ComponentsForMass}, {"factor.TruncatedSVD", factor.TruncatedSVD},

	{"csr.New", csr.New}, {"csr.FromTriplets", csr.FromTriplets},

	{"forest.Fit", forest.Fit}, {"forest.FitContext", forest.FitContext}, {"forest.FitTree", forest.FitTree},
	{"forest.PruneOMP", forest.PruneOMP}, {"forest.PruneNNOMP", forest.PruneNNOMP},
	{"forest.PruneRandom", forest.PruneRandom}, {"forest.PruneEnsemble", forest.PruneEnsemble},
	{"forest.PruneZhangPredictions", forest.PruneZhangPredictions},
	{"forest.PruneZhangSimilarity", forest.PruneZhangSimilarity}, {"forest.PruneKMeans", forest.PruneKMeans},
	{"forest.PruneOMPContext", forest.PruneOMPContext}, {"forest.PruneNNOMPContext", forest.PruneNNOMPContext},
	{"forest.PruneEnsembleContext", forest.PruneEnsembleContext},
	{"forest.PruneZhangPredictionsContext", forest.PruneZhangPredictionsContext},
	{"forest.PruneZhangSimilarityContext", forest.PruneZhangSimilarityContext},
	{"forest.PruneKMeansContext", forest.PruneKMeansContext},
	{"forest.NewPrunedForest", forest.NewPrunedForest},

	{"graphkernel.ShortestPathLengths", graphkernel.ShortestPathLengths},
	{"graphkernel.PathHistogram", graphkernel.PathHistogram}, {"graphkernel.NewShortestPath", graphkernel.NewShortestPath},

	{"text.Build", text.Build}, {"text.FromCorpus", text.FromCorpus}, {"text.Tokenize", text.Tokenize},
	{"text.EnglishStopWords", text.EnglishStopWords},

	{"verdict.AnyOf", verdict.AnyOf}, {"verdict.RateBelow", verdict.RateBelow}, {"verdict.RateAbove", verdict.RateAbove},
	{"verdict.FewerErrors", verdict.FewerErrors}, {"verdict.Holm", verdict.Holm},
	{"verdict.MeanAbove", verdict.MeanAbove}, {"verdict.MeanBelow", verdict.MeanBelow}, {"verdict.Equivalent", verdict.Equivalent},
	{"verdict.RatioBelow", verdict.RatioBelow}, {"verdict.RatioAbove", verdict.RatioAbove}, {"verdict.RatioWithin", verdict.RatioWithin},
	{"verdict.SlopeAbove", verdict.SlopeAbove}, {"verdict.SlopeBelow", verdict.SlopeBelow},
	{"verdict.SlopesEquivalent", verdict.SlopesEquivalent}, {"verdict.SlopeRatioWithin", verdict.SlopeRatioWithin},
	{"verdict.Premise", verdict.Premise}, {"verdict.ExactTest", verdict.ExactTest}, {"verdict.Decide", verdict.Decide},
	{"verdict.InconclusiveVerdict", verdict.InconclusiveVerdict}, {"verdict.Wilson", verdict.Wilson},

	// lab/plotting, but SavePlot and WriteTable, which write files where their first argument says.
	{"plotting.EqualAspect", plotting.EqualAspect}, {"plotting.Coincident", plotting.Coincident},
	{"plotting.PlotPNG", plotting.PlotPNG}, {"plotting.NewFigure", plotting.NewFigure},
	{"plotting.NewPrintFigure", plotting.NewPrintFigure}, {"plotting.HeatMap", plotting.HeatMap},
	{"plotting.LogX", plotting.LogX}, {"plotting.LogY", plotting.LogY}, {"plotting.Style", plotting.Style},
	{"plotting.AddBands", plotting.AddBands}, {"plotting.AddLine", plotting.AddLine},
	{"plotting.AddStyledLine", plotting.AddStyledLine}, {"plotting.AddScatter", plotting.AddScatter},
	{"plotting.AddStyledScatter", plotting.AddStyledScatter}, {"plotting.AddHLine", plotting.AddHLine},
	{"plotting.AddStyledHLine", plotting.AddStyledHLine}, {"plotting.Color", plotting.Color},
	{"plotting.Marker", plotting.Marker}, {"plotting.New", plotting.New}, {"plotting.NewPrint", plotting.NewPrint},
}

// fileMethods are exported methods the sweep does not call: they write files where their argument
// says (Figure.Save) or draw on a canvas the caller owns (Figure.Draw, gonum/plot's Drawer
// interface, whose zero canvas is a programming error in gonum/plot itself).
var fileMethods = []string{"plotting.Figure.Save", "plotting.Figure.Draw"}

// receivers returns, for every type of the swept packages with exported methods, its zero value
// and (where one can be built from the fixtures) a built value; every exported method of each is
// swept.
func receivers() []struct {
	name string
	recv any
} {
	built := func(v any, err error) any {
		if err != nil {
			return nil
		}
		return v
	}
	X, y := fixtureX(), labels()
	g := kernel.Gaussian{Sigma: 1}
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	list := []struct {
		name string
		recv any
	}{
		{"kernel.Gaussian", kernel.Gaussian{}}, {"kernel.Gaussian{1}", g}, {"kernel.Laplace", kernel.Laplace{}},
		{"kernel.Polynomial", kernel.Polynomial{}}, {"kernel.Polynomial{1000,10,1}", kernel.Polynomial{Degree: 1000, Scale: 10, Offset: 1}},
		{"kernel.Linear", kernel.Linear{}},
		{"lowrank.MEKA", new(lowrank.MEKA)}, {"lowrank.MEKAOptions", lowrank.MEKAOptions{}},
		{"lowrank.Nystrom", new(lowrank.Nystrom)}, {"lowrank.Nystrom{Gaussian}", &lowrank.Nystrom{Kernel: g, Rank: 2}},
		{"lowrank.RFF", new(lowrank.RFF)},
		{"mmd.Exact", mmd.Exact{}}, {"mmd.Linear", mmd.Linear{}}, {"mmd.Block", mmd.Block{}}, {"mmd.RFF", mmd.RFF{}},
		{"mmd.Nystrom", mmd.Nystrom{}}, {"mmd.Vectors", new(mmd.Vectors)}, {"mmd.Precomputed", new(mmd.Precomputed)},
		{"mmd.Decision", mmd.Decision{XW: math.NaN()}},
		{"pursuit.DenseDictionary", new(pursuit.DenseDictionary)}, {"pursuit.GramDictionary", new(pursuit.GramDictionary)},
		{"pursuit.Incoherence", new(pursuit.Incoherence)}, {"pursuit.NormalEquations", new(pursuit.NormalEquations)},
		{"pursuit.Result", new(pursuit.Result)}, {"pursuit.StepRule", pursuit.StepRule(0)}, {"pursuit.StopReason", pursuit.StopReason(0)},
		{"learn.KRR", new(learn.KRR)}, {"learn.SVM", new(learn.SVM)}, {"learn.RidgeScaling", learn.RidgeScaling(7)},
		{"learn.KMeansResult", new(learn.KMeansResult)},
		{"factor.KernelPCA", new(factor.KernelPCA)}, {"factor.PCA", new(factor.PCA)},
		{"factor.PPCA", new(factor.PPCA)}, {"factor.SparsePCA", new(factor.SparsePCA)}, {"factor.SVD", new(factor.SVD)},
		{"learn.KNN", new(learn.KNN)}, {"learn.KNNTuning", new(learn.KNNTuning)}, {"learn.TopicModel", new(learn.TopicModel)},
		{"learn.TopicScore", new(learn.TopicScore)}, {"csr.Matrix", new(csr.Matrix)},
		{"forest.PrunedForest", new(forest.PrunedForest)}, {"forest.Pruning", new(forest.Pruning)},
		{"forest.Forest", new(forest.Forest)}, {"forest.Tree", new(forest.Tree)}, {"forest.Task", forest.Task(9)},
		{"graphkernel.Histogram", graphkernel.Histogram{}}, {"graphkernel.ShortestPath", new(graphkernel.ShortestPath)},
		{"text.BagOfWords", new(text.BagOfWords)}, {"nil text.BagOfWords", (*text.BagOfWords)(nil)},
		{"verdict.Test", verdict.Test{}}, {"verdict.Verdict", verdict.Verdict{}}, {"verdict.TimeOrder", verdict.Faster},
		{"plotting.Figure", new(plotting.Figure)}, {"nil plotting.Figure", (*plotting.Figure)(nil)},

		{"built lowrank.MEKA", built(lowrank.FitMEKA(rng(), g, X, []int{0, 0, 0, 0, 1, 1, 1, 1}, 2, lowrank.MEKAOptions{}))},
		{"built lowrank.Nystrom", built(lowrank.FitNystrom(g, X, []int{0, 3, 6}, 2))},
		{"built lowrank.RFF", built(lowrank.NewRFFGaussian(rng(), 2, 4, 1))},
		{"built mmd.Vectors", built(mmd.NewVectors(g, X))},
		{"built mmd.Precomputed", built(mmd.NewPrecomputed(gram()))},
		{"built pursuit.DenseDictionary", built(pursuit.NewGaussianDictionary(rng(), 8, 12))},
		{"built pursuit.GramDictionary", built(gramDictionary(rng(), 8, 12))},
		{"built pursuit.NormalEquations", built(pursuit.NewNormalEquations(X, y))},
		{"built learn.KRR", built(learn.FitKRR(g, X, y, 0.1))},
		{"built learn.SVM", built(learn.FitSVM(g, X, y, learn.SVMOptions{}))},
		{"built factor.KernelPCA", built(factor.FitKernelPCA(g, X, 2))},
		{"built factor.PCA", built(factor.FitPCA(X, 2))},
		{"built factor.PPCA", built(factor.FitPPCA(rng(), X, 1, 5))},
		{"built learn.KNN", built(learn.FitKNN(X, y, 3))},
		{"built csr.Matrix", built(csr.FromTriplets(3, 4, []int{0, 1, 2}, []int{0, 3, 1}, []float64{1, 2, 3}))},
		{"built forest.Forest", built(forest.Fit(rng(), forest.Classification, X, y, forest.Options{Trees: 3}))},
		{"built forest.Tree", built(forest.FitTree(rng(), forest.Regression, X, y, forest.TreeOptions{}))},
		{"built graphkernel.ShortestPath", built(graphkernel.NewShortestPath(graphs(), graphkernel.Options{Normalise: true}))},
		{"built graphkernel.Histogram", built(graphkernel.PathHistogram(triangle()))},
		{"built text.BagOfWords", built(text.Build(documents(), text.Options{}))},
		{"built learn.TopicModel", built(learn.FitTopicModel(rng(), bagOfWords(), 2, learn.TopicModelOptions{}))},
		{"built plotting.Figure", figure()},
	}
	if dict, err := pursuit.NewGaussianDictionary(rng(), 8, 12); err == nil {
		list = append(list,
			struct {
				name string
				recv any
			}{"built pursuit.Incoherence", built(pursuit.MeasureIncoherence(dict, 3))},
			struct {
				name string
				recv any
			}{"built pursuit.Result", built(pursuit.OrthogonalMatchingPursuit(dict, y, pursuit.Options{MaxAtoms: 3}))})
	}
	return list
}

// gramDictionary draws a d×n Gaussian dictionary with its Gram matrix.
func gramDictionary(rng *rand.Rand, d, n int) (*pursuit.GramDictionary, error) {
	dd, err := pursuit.NewGaussianDictionary(rng, d, n)
	if err != nil {
		return nil, err
	}
	return pursuit.NewGramDictionary(dd)
}

// Fixtures: small valid inputs, built afresh for every call (a call may keep or change them).

func fixtureX() *mat.Dense {
	X := mat.NewDense(8, 2, nil)
	for i := range 8 {
		X.Set(i, 0, float64(i)/4)
		X.Set(i, 1, math.Sin(float64(i)))
	}
	return X
}

func labels() []float64 { return []float64{-1, 1, -1, 1, -1, 1, -1, 1} }

func gram() *mat.SymDense {
	g, err := kernel.Gram(kernel.Gaussian{Sigma: 1}, fixtureX())
	if err != nil {
		panic(err)
	}
	return g
}

func filled(r, c int, v float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, v)
		}
	}
	return m
}

func triangle() format.Graph {
	return format.Graph{NodeLabels: []int{0, 1, 0}, Edges: [][2]int{{0, 1}, {1, 2}, {0, 2}}}
}

func graphs() []format.Graph {
	return []format.Graph{triangle(), {NodeLabels: []int{0, 0, 1, 1}, Edges: [][2]int{{0, 1}, {1, 2}, {2, 3}}}}
}

func documents() []string {
	return []string{"kernel methods scale", "sparse solvers scale", "kernel solvers", "random features kernel"}
}

func bagOfWords() *text.BagOfWords {
	b, err := text.Build(documents(), text.Options{StopWords: []string{}})
	if err != nil {
		panic(err)
	}
	return b
}

// printPlot is a print-style plot with one band, ready to draw.
func printPlot() *plot.Plot {
	p := plotting.NewPrint("title", "x", "y")
	if err := plotting.AddBands(p, band()); err != nil {
		panic(err)
	}
	return p
}

// band is a valid band of three points.
func band() plotting.Band {
	return plotting.Band{Label: "a", X: []float64{1, 2, 3}, Mean: []float64{1, 2, 3}, Lo: []float64{0.5, 1.5, 2.5}, Hi: []float64{1.5, 2.5, 3.5}}
}

// figure is a 1×2 print figure holding one plot.
func figure() *plotting.Figure {
	f := plotting.NewPrintFigure(1, 2, plotting.ColumnWidth, 3*vg.Centimeter)
	f.Set(0, 0, printPlot())
	return f
}

// wideCSR is a 2×2⁴⁰ sparse matrix with two values: free to build, huge to densify or transpose.
func wideCSR() *csr.Matrix {
	m, err := csr.FromTriplets(2, 1<<40, []int{0, 1}, []int{3, 1 << 39}, []float64{1, 2})
	if err != nil {
		panic(err)
	}
	return m
}

// nanKernel is a user kernel that returns NaN; nanPoints are Points whose kernel values are NaN.
type nanKernel struct{}

func (nanKernel) Eval(x, z []float64) float64 { return math.NaN() }
func (nanKernel) Name() string                { return "nan" }

type nanPoints struct{}

func (nanPoints) Len() int { return 8 }
func (nanPoints) Block(dst *mat.Dense, rows, cols []int) error {
	r, c := dst.Dims()
	for i := range r {
		for j := range c {
			dst.Set(i, j, math.NaN())
		}
	}
	return nil
}

// candidate is one argument value, made afresh for each call; the first candidate of a type is
// the valid default used while another argument is varied.
type candidate struct {
	label string
	make  func() reflect.Value
}

func of[T any](label string, f func() T) candidate {
	return candidate{label, func() reflect.Value { return reflect.ValueOf(f()) }}
}

// typed returns a candidate holding v as a value of type t (nil interfaces and pointers included).
func typed(label string, t reflect.Type, f func() any) candidate {
	return candidate{label, func() reflect.Value {
		v := f()
		if v == nil {
			return reflect.Zero(t)
		}
		return reflect.ValueOf(v).Convert(t)
	}}
}

var (
	tMatrix    = reflect.TypeFor[mat.Matrix]()
	tSymmetric = reflect.TypeFor[mat.Symmetric]()
	tKernel    = reflect.TypeFor[kernel.Kernel]()
	tPoints    = reflect.TypeFor[mmd.Points]()
	tEstimator = reflect.TypeFor[mmd.Estimator]()
	tDict      = reflect.TypeFor[pursuit.Dictionary]()
	tContext   = reflect.TypeFor[context.Context]()
	tDocuments = reflect.TypeFor[learn.Documents]()
)

// candidates returns the argument values swept for parameters of type t.
func candidates(t reflect.Type) []candidate {
	if c := ioCandidates(t); c != nil {
		return c
	}
	rng := func() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }
	switch t {
	case tMatrix:
		return []candidate{
			typed("X", t, func() any { return fixtureX() }),
			typed("nil", t, func() any { return nil }),
			typed("nil *Dense", t, func() any { return (*mat.Dense)(nil) }),
			typed("empty Dense", t, func() any { return &mat.Dense{} }),
			typed("NaN", t, func() any { m := fixtureX(); m.Set(3, 1, math.NaN()); return m }),
			typed("+Inf", t, func() any { m := fixtureX(); m.Set(0, 0, math.Inf(1)); return m }),
			typed("[1e200; 2e200]", t, func() any { return mat.NewDense(2, 1, []float64{1e200, 2e200}) }),
			typed("[1e200; -1e200; 0]", t, func() any { return mat.NewDense(3, 1, []float64{1e200, -1e200, 0}) }),
			typed("1..8", t, func() any { return mat.NewDense(8, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8}) }),
			typed("±MaxFloat64", t, func() any {
				m := filled(8, 2, math.MaxFloat64)
				m.Set(1, 0, -math.MaxFloat64)
				return m
			}),
			typed("1e-310", t, func() any { return filled(8, 2, 1e-310) }),
			typed("zeros", t, func() any { return filled(8, 2, 0) }),
			typed("1×1", t, func() any { return mat.NewDense(1, 1, []float64{1}) }),
			typed("transpose", t, func() any { return fixtureX().T() }),
			typed("CSR 8×2", t, func() any { return csrOf(fixtureX()) }),
			typed("lazy 2⁴⁰×3", t, func() any { return lazymat.Ones{R: 1 << 40, C: 3} }),
			typed("lazy 3×2⁴⁰", t, func() any { return lazymat.Ones{R: 3, C: 1 << 40} }),
			typed("lazy 2⁴⁰×2⁴⁰", t, func() any { return lazymat.Ones{R: 1 << 40, C: 1 << 40} }),
			typed("CSR 2×2⁴⁰", t, func() any { return wideCSR() }),
			typed("nil *csr.Matrix", t, func() any { return (*csr.Matrix)(nil) }),
		}
	case tSymmetric:
		return []candidate{
			typed("K", t, func() any { return gram() }),
			typed("nil", t, func() any { return nil }),
			typed("nil *SymDense", t, func() any { return (*mat.SymDense)(nil) }),
			typed("empty SymDense", t, func() any { return &mat.SymDense{} }),
			typed("NaN", t, func() any { k := gram(); k.SetSym(0, 1, math.NaN()); return k }),
			typed("1e300", t, func() any { k := gram(); k.ScaleSym(1e300, k); return k }),
			typed("indefinite", t, func() any { return mat.NewSymDense(2, []float64{0, 1, 1, 0}) }),
			typed("all 1e300", t, func() any { return filledSym(8, 1e300) }),
			typed("lazy 2⁴⁰", t, func() any { return lazymat.SymOnes{N: 1 << 40} }),
		}
	case reflect.TypeFor[*mat.Dense]():
		return []candidate{
			of("8×2", fixtureX), of("nil", func() *mat.Dense { return nil }),
			of("empty", func() *mat.Dense { return &mat.Dense{} }),
			of("NaN", func() *mat.Dense { return filled(8, 2, math.NaN()) }),
			of("1e200", func() *mat.Dense { return filled(8, 2, 1e200) }),
			of("8×8", func() *mat.Dense { return mat.NewDense(8, 8, nil) }),
		}
	case reflect.TypeFor[*mat.SymDense]():
		return []candidate{
			of("empty", func() *mat.SymDense { return &mat.SymDense{} }), of("nil", func() *mat.SymDense { return nil }),
			of("2×2", func() *mat.SymDense { return mat.NewSymDense(2, nil) }),
		}
	case tKernel:
		return []candidate{
			typed("Gaussian{1}", t, func() any { return kernel.Gaussian{Sigma: 1} }),
			typed("nil", t, func() any { return nil }),
			typed("nil *Gaussian", t, func() any { return (*kernel.Gaussian)(nil) }),
			typed("Gaussian{0}", t, func() any { return kernel.Gaussian{} }),
			typed("Gaussian{NaN}", t, func() any { return kernel.Gaussian{Sigma: math.NaN()} }),
			typed("Gaussian{1e-300}", t, func() any { return kernel.Gaussian{Sigma: 1e-300} }),
			typed("Laplace{5e-324}", t, func() any { return kernel.Laplace{Sigma: 5e-324} }),
			typed("Laplace{1}", t, func() any { return &kernel.Laplace{Sigma: 1} }),
			typed("Polynomial{1000,10,1}", t, func() any { return kernel.Polynomial{Degree: 1000, Scale: 10, Offset: 1} }),
			typed("Linear", t, func() any { return kernel.Linear{} }),
			typed("user NaN", t, func() any { return nanKernel{} }),
		}
	case reflect.TypeFor[func(lo, hi int, block *mat.Dense)]():
		return []candidate{
			of("sum", func() func(int, int, *mat.Dense) { return func(_, _ int, b *mat.Dense) { _ = mat.Sum(b) } }),
			of("nil", func() func(int, int, *mat.Dense) { return nil }),
		}
	case reflect.TypeFor[*rand.Rand]():
		return []candidate{of("rng", rng), of("nil", func() *rand.Rand { return nil })}
	case tDocuments:
		return []candidate{
			typed("bag of words", t, func() any { return bagOfWords() }),
			typed("nil", t, func() any { return nil }),
			typed("nil *BagOfWords", t, func() any { return (*text.BagOfWords)(nil) }),
			typed("empty BagOfWords", t, func() any { return new(text.BagOfWords) }),
			typed("2⁴⁰ words", t, func() any { return lazymat.Documents{Words: 1 << 40} }),
			typed("CSR 2×2⁴⁰", t, func() any { return wideCSR() }),
		}
	case reflect.TypeFor[string]():
		return []candidate{
			of("label", func() string { return "a label" }), of("empty", func() string { return "" }),
			of("invalid UTF-8", func() string { return "caf\xe9 \xff\xfe word" }),
			of("a data set's name", func() string { return "kc1" }),
		}
	case reflect.TypeFor[[]string]():
		return []candidate{
			of("documents", documents), of("nil", func() []string { return nil }),
			of("empty documents", func() []string { return []string{"", ""} }),
			of("stop words only", func() []string { return []string{"the and of", "a an"} }),
		}
	case reflect.TypeFor[[]bool]():
		return []candidate{
			of("errors", func() []bool { return []bool{true, false, false, true, false, true, false, false} }),
			of("nil", func() []bool { return nil }), of("len 3", func() []bool { return []bool{true, true, false} }),
			of("all wrong", func() []bool { return []bool{true, true, true, true, true, true, true, true} }),
		}
	case reflect.TypeFor[[]verdict.Test]():
		return []candidate{
			of("two tests", func() []verdict.Test {
				return []verdict.Test{verdict.MeanAbove("a", labels(), 0), verdict.Premise("b", "no premise")}
			}),
			of("nil", func() []verdict.Test { return nil }),
			of("NaN test", func() []verdict.Test {
				return []verdict.Test{{Label: "x", PSupport: math.NaN(), PContradict: math.NaN()}}
			}),
		}
	case tContext:
		return []candidate{
			typed("3 s deadline", t, func() any { return deadline(3 * time.Second) }),
			typed("nil", t, func() any { return nil }),
			typed("cancelled", t, func() any { ctx, cancel := context.WithCancel(context.Background()); cancel(); return ctx }),
		}
	case tPoints:
		return []candidate{
			typed("Vectors", t, func() any { v, _ := mmd.NewVectors(kernel.Gaussian{Sigma: 1}, fixtureX()); return v }),
			typed("nil", t, func() any { return nil }),
			typed("zero Vectors", t, func() any { return &mmd.Vectors{} }),
			typed("zero Precomputed", t, func() any { return &mmd.Precomputed{} }),
			typed("Precomputed", t, func() any { p, _ := mmd.NewPrecomputed(gram()); return p }),
			typed("NaN points", t, func() any { return nanPoints{} }),
			typed("zero ShortestPath", t, func() any { return new(graphkernel.ShortestPath) }),
		}
	case tEstimator:
		return []candidate{
			typed("Exact", t, func() any { return mmd.Exact{} }),
			typed("nil", t, func() any { return nil }),
			typed("RFF{2⁴⁰}", t, func() any { return mmd.RFF{Features: 1 << 40} }),
			typed("Block{-1}", t, func() any { return mmd.Block{Size: -1} }),
			typed("Nystrom{NaN}", t, func() any { return mmd.Nystrom{Lambda: math.NaN()} }),
			typed("Linear", t, func() any { return mmd.Linear{} }),
		}
	case tDict:
		return []candidate{
			typed("Gaussian 8×12", t, func() any { d, _ := pursuit.NewGaussianDictionary(rng(), 8, 12); return d }),
			typed("nil", t, func() any { return nil }),
			typed("zero DenseDictionary", t, func() any { return &pursuit.DenseDictionary{} }),
			typed("subnormal", t, func() any { d, _ := pursuit.NewDenseDictionary(filled(8, 3, 1e-310)); return d }),
			typed("Gaussian 8×12 with its Gram matrix", t, func() any { d, _ := gramDictionary(rng(), 8, 12); return d }),
			typed("zero GramDictionary", t, func() any { return &pursuit.GramDictionary{} }),
			typed("huge atoms with their Gram matrix", t, func() any {
				d, _ := pursuit.NewDenseDictionary(filled(8, 3, 1e300))
				g, _ := pursuit.NewGramDictionary(d)
				return g
			}),
		}
	case reflect.TypeFor[*pursuit.DenseDictionary]():
		return []candidate{
			typed("Gaussian 8×12", t, func() any { d, _ := pursuit.NewGaussianDictionary(rng(), 8, 12); return d }),
			typed("nil", t, func() any { return nil }),
			typed("zero DenseDictionary", t, func() any { return &pursuit.DenseDictionary{} }),
			typed("subnormal", t, func() any { d, _ := pursuit.NewDenseDictionary(filled(8, 3, 1e-310)); return d }),
		}
	case reflect.TypeFor[format.Graph]():
		return []candidate{
			of("triangle", triangle), of("empty", func() format.Graph { return format.Graph{} }),
			of("edge to 200000", func() format.Graph { return format.Graph{Edges: [][2]int{{0, 200000}}} }),
			of("edge to 2⁴⁰", func() format.Graph { return format.Graph{Edges: [][2]int{{0, 1 << 40}}} }),
			of("negative edge", func() format.Graph { return format.Graph{Edges: [][2]int{{-1, 0}}} }),
			of("labels ≠ attributes", func() format.Graph {
				return format.Graph{NodeLabels: []int{0}, NodeAttributes: [][]float64{{1}, {2}}}
			}),
		}
	case reflect.TypeFor[[]format.Graph]():
		return []candidate{
			of("two graphs", graphs), of("nil", func() []format.Graph { return nil }),
			of("edge to 200000", func() []format.Graph { return []format.Graph{{Edges: [][2]int{{0, 200000}}}} }),
			of("empty graphs", func() []format.Graph { return []format.Graph{{}, {}} }),
		}
	case reflect.TypeFor[graphkernel.Histogram]():
		return []candidate{
			of("triangle", func() graphkernel.Histogram { h, _ := graphkernel.PathHistogram(triangle()); return h }),
			of("2 paths, 1 count", func() graphkernel.Histogram {
				return graphkernel.Histogram{Paths: []graphkernel.Triple{{Start: 0, End: 0, Length: 1}, {Start: 0, End: 1, Length: 1}}, Counts: []float64{1}}
			}),
			of("huge counts", func() graphkernel.Histogram {
				return graphkernel.Histogram{Paths: []graphkernel.Triple{{Start: 0, End: 0, Length: 1}}, Counts: []float64{1e300}}
			}),
		}
	case reflect.TypeFor[[]mmd.Decision]():
		return []candidate{
			of("decisions", func() []mmd.Decision { return []mmd.Decision{{XW: 1, ZW: 2}, {XW: 2, ZW: 1}} }),
			of("nil", func() []mmd.Decision { return nil }),
			of("NaN", func() []mmd.Decision { return []mmd.Decision{{XW: math.NaN(), ZW: 1}} }),
		}
	case reflect.TypeFor[*plot.Plot]():
		return []candidate{
			of("print plot", printPlot), of("nil", func() *plot.Plot { return nil }),
			of("empty plot", func() *plot.Plot { return plotting.New("", "", "") }),
			of("log-log plot", func() *plot.Plot {
				p := printPlot()
				_ = plotting.LogX(p)
				_ = plotting.LogY(p)
				return p
			}),
			of("zero plot", func() *plot.Plot { return new(plot.Plot) }),
		}
	case reflect.TypeFor[plotting.Band]():
		return []candidate{
			of("band", band), of("zero", func() plotting.Band { return plotting.Band{} }),
			of("NaN mean", func() plotting.Band { b := band(); b.Mean[1] = math.NaN(); return b }),
			of("Lo above Hi", func() plotting.Band { b := band(); b.Lo[0] = 9; return b }),
			of("short Lo", func() plotting.Band { b := band(); b.Lo = b.Lo[:1]; return b }),
			of("decreasing X", func() plotting.Band { b := band(); b.X[2] = 0; return b }),
			of("±MaxFloat64", func() plotting.Band {
				return plotting.Band{Label: "m", X: []float64{-math.MaxFloat64, math.MaxFloat64}, Mean: []float64{math.MaxFloat64, -math.MaxFloat64}}
			}),
			of("1e-310", func() plotting.Band {
				return plotting.Band{Label: "s", X: []float64{1e-310, 2e-310}, Mean: []float64{1e-310, 3e-310}}
			}),
		}
	case reflect.TypeFor[[]plotting.Band]():
		return []candidate{
			of("two bands", func() []plotting.Band { return []plotting.Band{band(), band()} }),
			of("nil", func() []plotting.Band { return nil }),
			of("mismatched", func() []plotting.Band { b := band(); b.X = b.X[:2]; return []plotting.Band{band(), b} }),
		}
	case reflect.TypeFor[*dataset.Corpus]():
		return []candidate{
			of("20 Newsgroups-like", func() *dataset.Corpus { return &dataset.Corpus{Name: "corpus_20newsgroups", Docs: documents()} }),
			of("nil", func() *dataset.Corpus { return nil }),
			of("unknown corpus", func() *dataset.Corpus { return &dataset.Corpus{Name: "other", Docs: documents()} }),
		}
	}
	switch t.Kind() {
	case reflect.Float64:
		return floats(t, 0.5, 0, -1, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, 1e-19, math.MaxFloat64)
	case reflect.Int:
		if t.Name() != "int" { // enumerations: StepRule, Task, RidgeScaling...
			return ints(t, 1, 0, 2, -1, 99)
		}
		return ints(t, 2, 0, 1, -1, 1<<40, math.MaxInt, math.MinInt)
	case reflect.Bool:
		return []candidate{of("false", func() bool { return false }), of("true", func() bool { return true })}
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Float64:
			return []candidate{
				of("labels", labels), of("nil", func() []float64 { return nil }),
				of("NaN", func() []float64 { v := labels(); v[2] = math.NaN(); return v }),
				of("±MaxFloat64", func() []float64 {
					v := labels()
					for i := range v {
						v[i] *= math.MaxFloat64
					}
					return v
				}),
				of("1e-310", func() []float64 { return []float64{1e-310, 1e-310, 1e-310, 1e-310, 1e-310, 1e-310, 1e-310, 1e-310} }),
				of("len 3", func() []float64 { return []float64{0.1, 0.2, 0.3} }),
				of("zeros", func() []float64 { return make([]float64, 8) }),
			}
		case reflect.Int:
			return []candidate{
				of("{0,1,2,3}", func() []int { return []int{0, 1, 2, 3} }), of("nil", func() []int { return nil }),
				of("clusters", func() []int { return []int{0, 0, 0, 0, 1, 1, 1, 1} }),
				of("{4..7}", func() []int { return []int{4, 5, 6, 7} }),
				of("{-1}", func() []int { return []int{-1} }),
				of("{0, 2⁴⁰}", func() []int { return []int{0, 1 << 40} }),
				of("{0, 0}", func() []int { return []int{0, 0} }),
			}
		}
	case reflect.Struct:
		return structs(t)
	}
	return []candidate{typed("zero "+t.String(), t, func() any { return nil })}
}

func floats(t reflect.Type, vs ...float64) []candidate {
	out := make([]candidate, len(vs))
	for i, v := range vs {
		out[i] = typed(fmt.Sprint(v), t, func() any { return v })
	}
	return out
}

func ints(t reflect.Type, vs ...int) []candidate {
	out := make([]candidate, len(vs))
	for i, v := range vs {
		out[i] = typed(fmt.Sprint(v), t, func() any { return v })
	}
	return out
}

// structs returns, for an options struct, its zero value and, for each exported numeric field,
// that field set to each bad value (the others zero), plus bad partitions for [][]int fields.
func structs(t reflect.Type) []candidate {
	out := []candidate{{"zero " + t.Name(), func() reflect.Value { return reflect.New(t).Elem() }}}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		var bad []any
		switch {
		case f.Type.Kind() == reflect.Float64:
			bad = []any{math.NaN(), math.Inf(1), -1.0, 5e-324, math.MaxFloat64}
		case f.Type.Kind() == reflect.Int:
			bad = []any{-1, 1 << 40, math.MaxInt}
		case f.Type.Kind() == reflect.Bool:
			bad = []any{true}
		case f.Type == reflect.TypeFor[[][]int]():
			bad = []any{[][]int{{}}, [][]int{{0, 0}}, [][]int{{0, 1, 2, 3}, {4, 5, 6, 1 << 40}}}
		}
		for _, b := range bad {
			out = append(out, candidate{fmt.Sprintf("%s{%s: %v}", t.Name(), f.Name, b), func() reflect.Value {
				v := reflect.New(t).Elem()
				v.Field(i).Set(reflect.ValueOf(b).Convert(f.Type))
				return v
			}})
		}
	}
	return out
}

// deadline returns a context cancelled after d: the default context of the sweep, so that a call
// asked for 2⁴⁰ iterations or restarts through a Context function must stop within one of them
// (issue 34) instead of running for hours.
func deadline(d time.Duration) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(d, cancel)
	return ctx
}

// csrOf converts a dense matrix to CSR.
func csrOf(m *mat.Dense) *csr.Matrix {
	r, c := m.Dims()
	var is, js []int
	var vs []float64
	for i := range r {
		for j := range c {
			if v := m.At(i, j); v != 0 {
				is, js, vs = append(is, i), append(js, j), append(vs, v)
			}
		}
	}
	out, err := csr.FromTriplets(r, c, is, js, vs)
	if err != nil {
		panic(err)
	}
	return out
}

// filledSym is an n×n SymDense filled with v.
func filledSym(n int, v float64) *mat.SymDense {
	m := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			m.SetSym(i, j, v)
		}
	}
	return m
}

// outcome is what one call did.
type outcome int

const (
	returned outcome = iota // finite results and a nil error
	failed                  // an error
	panicked
	hung
	silentNonFinite      // NaN or ±Inf in a result with a nil error
	documentedNaN        // NaN or ±Inf from an unvalidating getter whose contract says so (Eval, Gamma)
	longByRequest        // not run: asks for 2⁴⁰ or more units of work (see longRunning)
	documentedIndexPanic // an index accessor given an index out of range (see indexAccessors)
)

// indexAccessors are the element accessors without an error result that panic on an index out of
// range, as their documentation says: csr.Matrix implements gonum's mat.Matrix, whose At panics
// like mat.Dense.At does (and like slice indexing); Row follows it.
var indexAccessors = []string{"csr.Matrix.At", "csr.Matrix.Row"}

// documentedNonFinite are the functions without an error result whose documentation says they
// return NaN (or ±Inf) for invalid parameters: the Kernel interface's Eval (Gram and Cross report
// those as errors), ShortestPath.Eval for indices out of range (every index of the zero value),
// Gaussian.Gamma of σ = 0, verdict.Wilson of invalid counts or level, Verdict.Deciding's p when
// it says there is no deciding test (ok false).
var documentedNonFinite = []string{".Eval", ".Gamma", "verdict.Wilson", "verdict.Verdict.Deciding"}

// longRunning are the arguments that ask for an amount of work, not of memory: a call given 2⁴⁰
// of them runs for hours by request, which the timeout cannot tell from a hang. Such calls of a
// function without a context are not run but counted apart (the log says how many); the same
// calls of its Context variant run with the sweep's deadline and must stop within one iteration
// of it. Any other call past the timeout fails.
var longRunning = []string{"KMeansOptions{NInit: ", "SparsePCAOptions{Iterations: ", "RandomizedSVDOptions{PowerIterations: ",
	"TopicModelOptions{Restarts: ", "TopicModelOptions{MaxIter: "}

// documentedTestNaN reports whether a non-finite value at path (as nonFinite describes it) in a
// result of name is a verdict.Test's Estimate, Lo or Hi, which its documentation makes NaN when a
// test has none (a premise, an exact test), or a member test that Decide hands back as given.
func documentedTestNaN(name, path string) bool {
	if !strings.HasPrefix(name, "verdict.") {
		return false
	}
	if strings.HasPrefix(name, "verdict.Decide") && strings.HasPrefix(path, ".Tests[") {
		return true // the member tests as the caller gave them, NaN included (Decide reads a NaN p as 1)
	}
	for _, f := range []string{".Estimate", ".Lo", ".Hi"} {
		if strings.Contains(path, f) && !strings.Contains(path[strings.Index(path, f)+len(f):], ".") {
			return true
		}
	}
	return false
}

// call runs f on args with recovery and the per-call timeout and classifies the result.
func call(name string, f reflect.Value, args []reflect.Value) (outcome, string) {
	type result struct {
		out   []reflect.Value
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panic: r}
			}
		}()
		if f.Type().IsVariadic() { // the last candidate is the whole variadic slice
			done <- result{out: f.CallSlice(args)}
			return
		}
		done <- result{out: f.Call(args)}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			msg := fmt.Sprint(r.panic)
			for _, a := range indexAccessors {
				if strings.HasSuffix(name, a) && strings.Contains(msg, "index out of range") {
					return documentedIndexPanic, msg
				}
			}
			return panicked, msg
		}
		for _, v := range r.out {
			if v.Type() == reflect.TypeFor[error]() && !v.IsNil() {
				return failed, ""
			}
		}
		for _, v := range r.out {
			if where := nonFinite(v, 0); where != "" {
				for _, suffix := range documentedNonFinite {
					if strings.HasSuffix(name, suffix) {
						return documentedNaN, where
					}
				}
				if documentedTestNaN(name, where) {
					return documentedNaN, where
				}
				return silentNonFinite, where
			}
		}
		return returned, ""
	case <-time.After(callTimeout):
		return hung, ""
	}
}

// nonFinite describes the first NaN or ±Inf in v (matrices, slices, structs' exported fields),
// or returns "".
func nonFinite(v reflect.Value, depth int) string {
	if depth > 6 || !v.IsValid() {
		return ""
	}
	if v.Type() == reflect.TypeFor[*plot.Plot]() {
		return "" // gonum/plot's own state: an axis without data has Min +Inf and Max −Inf
	}
	if v.CanInterface() {
		if m, ok := v.Interface().(mat.Matrix); ok && !(v.Kind() == reflect.Pointer && v.IsNil()) && m != nil {
			if e, ok := m.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
				return ""
			}
			r, c := m.Dims()
			for i := range r {
				for j := range c {
					if x := m.At(i, j); math.IsNaN(x) || math.IsInf(x, 0) {
						return fmt.Sprintf("[%d,%d] = %g", i, j, x)
					}
				}
			}
			return ""
		}
	}
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprint(x)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return nonFinite(v.Elem(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if w := nonFinite(v.Index(i), depth+1); w != "" {
				return fmt.Sprintf("[%d]%s", i, w)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if w := nonFinite(v.Field(i), depth+1); w != "" {
					return "." + v.Type().Field(i).Name + w
				}
			}
		}
	}
	return ""
}

// sweepOne calls f with every argument at its default, then with each argument in turn set to
// each of its candidates (the others at their defaults).
func sweepOne(name string, f reflect.Value, record func(string, outcome, string)) {
	ft := f.Type()
	cands := make([][]candidate, ft.NumIn())
	for i := range cands {
		cands[i] = candidates(ft.In(i))
	}
	run := func(pos, choice int) {
		args := make([]reflect.Value, len(cands))
		labels := make([]string, len(cands))
		for i, cs := range cands {
			c := cs[0]
			if i == pos {
				c = cs[choice]
			}
			args[i] = c.make()
			labels[i] = c.label
		}
		what := fmt.Sprintf("%s(%s)", name, strings.Join(labels, ", "))
		for _, l := range longRunning {
			if strings.Contains(what, l) && !strings.Contains(what, l+"-1}") && !strings.HasSuffix(name, "Context") {
				record(what, longByRequest, "")
				return
			}
		}
		o, detail := call(name, f, args)
		record(what, o, detail)
	}
	run(-1, 0)
	for pos, cs := range cands {
		for choice := 1; choice < len(cs); choice++ {
			run(pos, choice)
		}
	}
}

// TestSweep is the robustness sweep of issue 16 (see the package documentation). It logs the
// counts of calls, errors, panics, hangs and silent non-finite results.
func TestSweep(t *testing.T) {
	t.Setenv("LAB_MEMLIMIT_BYTES", sweepMemoryLimit)
	ioSetUp(t)
	counts := map[outcome]int{}
	var problems []string
	record := func(what string, o outcome, detail string) {
		counts[o]++
		switch o {
		case panicked:
			problems = append(problems, "PANIC "+what+": "+detail)
		case hung:
			problems = append(problems, fmt.Sprintf("HANG (> %v) %s", callTimeout, what))
		case silentNonFinite:
			problems = append(problems, "NON-FINITE "+what+": "+detail)
		}
	}
	for _, fn := range append(functions, ioFunctions...) {
		sweepOne(fn.name, reflect.ValueOf(fn.fn), record)
	}
	for _, r := range append(receivers(), ioReceivers(t)...) {
		if r.recv == nil {
			t.Errorf("%s: the fixture could not be built", r.name)
			continue
		}
		v := reflect.ValueOf(r.recv)
		for i := range v.NumMethod() {
			m := v.Type().Method(i)
			name := strings.TrimPrefix(strings.TrimPrefix(r.name, "built "), "nil ") + "." + m.Name
			if slices.Contains(fileMethods, name) {
				continue
			}
			sweepOne(name, v.Method(i), record)
		}
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	t.Logf("sweep: %d calls: %d returned finite results, %d errors, %d panics, %d hangs, %d silent non-finite; %d documented non-finite (Eval, Gamma, verdict's NaN where a test has no value), %d long by request (%v), %d index panics of %v (documented)",
		total, counts[returned], counts[failed], counts[panicked], counts[hung], counts[silentNonFinite], counts[documentedNaN],
		counts[longByRequest], longRunning, counts[documentedIndexPanic], indexAccessors)
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}
