// Package verdict holds the statistics that decide a claim of the source on an experiment's
// results: one-sided tests that give each claim a Verdict, SUPPORTED, CONTRADICTED or
// INCONCLUSIVE, with the numbers behind it.
//
// Every test is a Test: an estimate with its two-sided 1 − 2·Alpha (90%) interval and two
// one-sided p-values, one whose rejection at level Alpha supports the claim and one whose
// rejection contradicts it; a test that can reject neither is inconclusive, never a coin flip.
// The tests:
//
//   - means of draws, e.g. paired differences between two methods: MeanAbove, MeanBelow, and
//     Equivalent (two one-sided tests against a margin);
//   - rates of events and paired decisions: RateBelow, RateAbove, FewerErrors (McNemar);
//   - least-squares slopes, e.g. of a power law on log-log axes: SlopeAbove, SlopeBelow,
//     SlopesEquivalent (difference within a margin) and SlopeRatioWithin (ratio within a factor,
//     Fieller's method);
//   - ratios, e.g. of timings, by t tests on log ratios (the geometric-mean ratio): RatioBelow,
//     RatioAbove, RatioWithin;
//   - a quantity computed exactly (ExactTest) and a premise that does not hold (Premise).
//
// Every primitive holds its level: under a simulated null at 3 to 50 draws it supports a claim in
// at most Alpha of the draws, within Monte Carlo error (calibration_test.go).
//
// Decide turns the tests of a claim made over a family (every data set, every size) into one
// Verdict, holding the family-wise error at Alpha by Holm's step-down method (Holm); AnyOf
// combines tests for a claim that holds for at least one of them.
//
// The package knows nothing of results tables: a claim check (lab/run's Claim.Check) reads the
// rows it needs, e.g. with run.PairedDifferences, and passes plain numbers here.
package verdict
