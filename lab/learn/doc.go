// Package learn holds the small learners the kernel experiments build on: k-means with k-means++
// seeding (the partition behind BKA and MEKA), kernel ridge regression (the representer-theorem
// example of the HSE lecture; the regression task of thesis Figure 3.5), the binary
// soft-margin kernel SVM trained by SMO with LIBSVM's working-set selection (the classification
// task of Figure 3.5), and the metrics that score them (MSE, accuracy).
//
// For the student slides on randomized factorisations it also holds the brute-force
// k-nearest-neighbour classifier with K tuned on a hold-out and its rank-based ROC-AUC
// (experiment 1), and the one-topic-per-document topic model fitted by hard EM on a sparse
// documents×words count matrix (Documents), whose runs are compared after an optimal one-to-one
// matching of their topics (Assignment, the Hungarian algorithm; [MatchTopics], [TopicAgreement];
// experiment 2).
//
// The vocabulary follows scikit-learn: Fit… returns a fitted model, Predict applies it. Every
// random function takes an explicit *rand.Rand (math/rand/v2), and results never depend on the
// number of goroutines. Bad input (NaN or ±Inf, empty or mismatched matrices, k > n, λ < 0) gives
// an error that says what and where, never a panic.
package learn
