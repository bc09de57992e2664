package forest_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/forest"
)

// californiaLike is a synthetic stand-in for the California housing data (n = 20000, d = 8:
// median income, house age, rooms, bedrooms, population, occupancy, latitude, longitude), with
// the real data's kinds of columns: skewed, integer-valued and rounded ones, so with ties, and
// a target capped at 5 like the median house value.
var californiaLike = sync.OnceValues(func() (*mat.Dense, []float64) {
	const n = 20000
	rng := rand.New(rand.NewPCG(1990, 8))
	X := mat.NewDense(n, 8, nil)
	y := make([]float64, n)
	for i := range n {
		income := math.Exp(1.2 + 0.45*rng.NormFloat64())
		age := float64(1 + rng.IntN(52))
		rooms := max(1, 5+1.5*rng.NormFloat64())
		bedrooms := max(0.5, 1+0.1*rng.NormFloat64())
		population := math.Round(math.Exp(7 + 0.8*rng.NormFloat64()))
		occupancy := max(0.7, 3+0.8*rng.NormFloat64())
		latitude := math.Round((32.5+9*rng.Float64())*100) / 100
		longitude := math.Round((-124+10*rng.Float64())*100) / 100
		X.SetRow(i, []float64{income, age, rooms, bedrooms, population, occupancy, latitude, longitude})
		coast := math.Exp(-math.Abs(longitude+0.9*(latitude-32.5)+118) / 2)
		v := 0.4*income + 0.01*age + 1.5*coast - 0.05*occupancy + 0.3*rng.NormFloat64()
		y[i] = min(5, max(0.15, v))
	}
	return X, y
})

// BenchmarkFit grows 100 fully grown regression trees with bootstrap on the California-like
// data (scikit-learn's RandomForestRegressor defaults) on all cores; s/op is the headline.
func BenchmarkFit(b *testing.B) {
	X, y := californiaLike()
	for b.Loop() {
		if _, err := forest.Fit(rand.New(rand.NewPCG(1, 1)), forest.Regression, X, y, forest.Options{Trees: 100}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}

// BenchmarkFit1000 grows 1000 fully grown trees with bootstrap, the forest size of the thesis's
// chapter 6, on the first 12384 California-like rows (the size of California's 60% training
// split): Regression with MaxFeatures = d and Classification (labels: the sign of y − 2) with
// ⌊√d⌋, scikit-learn's defaults. bench/compare_forest.sh times the same fits on the real data
// beside scikit-learn.
func BenchmarkFit1000(b *testing.B) {
	X, y := californiaLike()
	train := X.Slice(0, 12384, 0, 8).(*mat.Dense)
	labels := make([]float64, 12384)
	for i := range labels {
		labels[i] = 1
		if y[i] < 2 {
			labels[i] = -1
		}
	}
	for _, c := range []struct {
		task   forest.Task
		target []float64
	}{{forest.Regression, y[:12384]}, {forest.Classification, labels}} {
		b.Run(c.task.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := forest.Fit(rand.New(rand.NewPCG(1, 1)), c.task, train, c.target, forest.Options{Trees: 1000}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
		})
	}
}

// BenchmarkTreePredictions predicts the 20000 training rows with a 100-tree forest.
func BenchmarkTreePredictions(b *testing.B) {
	X, y := californiaLike()
	f, err := forest.Fit(rand.New(rand.NewPCG(1, 1)), forest.Regression, X, y, forest.Options{Trees: 100})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := f.TreePredictions(X); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}
