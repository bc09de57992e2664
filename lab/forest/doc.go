// Package forest grows CART decision trees and random forests (Breiman 2001) for regression and
// binary classification, with the per-tree predictions that the thesis's chapter 6 prunes: OMP
// and NN-OMP run on the n×T matrix [Forest.TreePredictions] returns (lab/pursuit).
//
// Trees ([FitTree]) follow scikit-learn's exact best-split CART: at a node, each candidate
// feature's samples are ordered by value, every threshold between consecutive distinct values is
// tried (the midpoint a/2 + b/2 of the two values, going left when x[f] <= threshold), and the
// split with the lowest weighted child impurity wins: the sum of squared errors for Regression,
// n·Gini for Classification; ties go to the first split found (features in the order they were
// drawn, thresholds ascending). A split leaves at least MinLeaf samples on each side. The
// candidates are MaxFeatures features drawn without replacement; as in scikit-learn, when all of
// them are constant on the node the drawing goes on until a non-constant one turns up or none is
// left. A node becomes a leaf when its targets are all equal, it has fewer than 2·MinLeaf
// samples, it sits at MaxDepth, or no feature splits it. Leaves hold the (weighted) mean target
// for Regression and the majority label for Classification (labels −1 and +1; a tie gives +1,
// where scikit-learn would give −1).
//
// Forests (Fit) train each tree on a bootstrap sample (n draws with replacement, unless
// NoBootstrap) with scikit-learn's defaults: 100 trees, fully grown, MaxFeatures ⌊√d⌋ for
// Classification and d for Regression. As in scikit-learn the bootstrap enters as integer sample
// weights, so MinLeaf counts distinct training rows. The trees are grown on all cores; each has
// its own generator, seeded from the caller's in tree order before any training, so a forest
// depends on the seed only, not on GOMAXPROCS. [Forest.Predict] averages the trees (Regression)
// or takes the sign of the mean ±1 vote, 0 giving +1 (Classification; scikit-learn averages
// class probabilities instead).
//
// Differences from scikit-learn that matter only on edge cases: features are compared in float64
// (scikit-learn rounds X to float32), any two distinct values are split (scikit-learn merges
// values closer than 1e-7), and a node is pure when its targets are exactly equal (scikit-learn:
// impurity at most machine epsilon).
//
// Pruning (thesis chapter 6): each method takes the n×T per-tree predictions on the data it
// prunes on (TreePredictions), the targets and a grid of pruned sizes, and returns a Pruning:
// for every size a Selection of trees and weights. [PruneOMP] and [PruneNNOMP] (Algorithms 6 and
// 7, through lab/pursuit; PruneOptions.NoWeights for their "w/o weights" variants), [PruneRandom],
// [PruneEnsemble] (Caruana et al. 2004), [PruneZhangPredictions] and [PruneZhangSimilarity] (Zhang &
// Wang 2009) and [PruneKMeans] (Fawagreh et al. 2016). All but PruneRandom (one draw) have a
// Context twin ([PruneOMPContext] …) that stops between steps once a context is done, as
// [FitContext] does between trees. [NewPrunedForest] turns a Selection into a model that predicts
// with the kept trees only: Σ wᵢ tᵢ(x) for Regression, its sign for Classification (labels ±1).
//
// Bad input (nil generator, empty or non-finite data, labels other than ±1, negative or
// too large options, a number of columns that differs from the training data) returns an error
// that says what and where; nothing panics on it.
package forest
