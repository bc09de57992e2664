package forest

import (
	"math/rand/v2"
	"testing"
)

// The pruning methods on the per-tree predictions of a 100-tree forest on 2000 rows (the
// chapter 6 scale of a merged train+validation set), every size of a 7-point grid.
func BenchmarkPrune(b *testing.B) {
	sizes := []int{1, 3, 5, 10, 15, 20, 30}
	for _, task := range []Task{Regression, Classification} {
		P, y := randomPredictions(rand.New(rand.NewPCG(1, 1)), task, 2000, 100)
		opts := PruneOptions{Task: task}
		for name, f := range map[string]func() (*Pruning, error){
			"OMP":              func() (*Pruning, error) { return PruneOMP(P, y, sizes, opts) },
			"NNOMP":            func() (*Pruning, error) { return PruneNNOMP(P, y, sizes, opts) },
			"Ensemble":         func() (*Pruning, error) { return PruneEnsemble(P, y, sizes, opts) },
			"ZhangPredictions": func() (*Pruning, error) { return PruneZhangPredictions(P, y, sizes, opts) },
			"ZhangSimilarity":  func() (*Pruning, error) { return PruneZhangSimilarity(P, y, sizes, opts) },
			"KMeans": func() (*Pruning, error) {
				return PruneKMeans(rand.New(rand.NewPCG(2, 2)), P, y, sizes, opts)
			},
		} {
			b.Run(task.String()+"/"+name, func(b *testing.B) {
				for b.Loop() {
					if _, err := f(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPruneOMPPath prunes the per-tree predictions of a 1000-tree regression forest on
// 16512 rows (California's training and validation rows) at every size from 1 to 300 (30% of the
// forest): one OMP path. The predictions are synthetic (randomPredictions);
// bench/compare_forest.sh times a real forest's beside scikit-learn.
func BenchmarkPruneOMPPath(b *testing.B) {
	P, y := randomPredictions(rand.New(rand.NewPCG(1, 1)), Regression, 16512, 1000)
	sizes := make([]int, 300)
	for k := range sizes {
		sizes[k] = k + 1
	}
	for b.Loop() {
		if _, err := PruneOMP(P, y, sizes, PruneOptions{Task: Regression}); err != nil {
			b.Fatal(err)
		}
	}
}
