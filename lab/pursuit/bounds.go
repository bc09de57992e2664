package pursuit

import (
	"fmt"
	"math"

	"github.com/fastkernels/kernellab/lab/laberr"
)

// The guarantees of the thesis's chapter 5 for an m-sparse signal y = Dα* in a dictionary of
// unit-norm atoms. babel is μ₁(D, m−1) throughout (Incoherence.Babel(m−1): exact or Tropp's
// bound (m−1)·μ(D)); the sufficient condition of all three results is m < (μ(D)⁻¹ + 1)/2.

// checkRateInputs validates m and μ₁(D, m−1) for the rate functions.
func checkRateInputs(op string, babel float64, m int) error {
	if m < 1 {
		return fmt.Errorf("pursuit: %s: m = %d, want m ≥ 1", op, m)
	}
	if math.IsNaN(babel) || babel < 0 || babel >= 1 {
		return fmt.Errorf("pursuit: %s: μ₁(D, m−1) = %g, want a value in [0, 1)", op, babel)
	}
	return nil
}

// FrankWolfeRate returns θ of the thesis's Theorem 5: with the line-search step, Frank-Wolfe on
// the l1 ball of radius β ≥ ‖α*‖₁ eventually contracts the squared residual by 1 − θ per
// iteration, ‖r_{k+1}‖² ≤ (1 − θ)‖r_k‖², where
//
//	θ = (1/16) · ((1 − μ₁(D, m−1)) / m) · (1 − ‖α*‖₁/β)².
//
// The §5.4 figure draws log‖y‖ + (k/2)·log(1 − θ) (see [ResidualBound]). l1Norm is ‖α*‖₁ and
// radius is β; requires 0 ≤ ‖α*‖₁ < β and 0 ≤ μ₁(D, m−1) < 1 (then 0 < θ ≤ 1/16).
func FrankWolfeRate(babel float64, m int, l1Norm, radius float64) (float64, error) {
	const op = "FrankWolfeRate"
	if err := checkRateInputs(op, babel, m); err != nil {
		return 0, err
	}
	if math.IsNaN(l1Norm) || l1Norm < 0 || !(radius > l1Norm) || math.IsInf(radius, 0) {
		return 0, fmt.Errorf("pursuit: %s: ‖α*‖₁ = %g and β = %g, want 0 ≤ ‖α*‖₁ < β < ∞", op, l1Norm, radius)
	}
	slack := 1 - l1Norm/radius
	return (1 - babel) / float64(m) * slack * slack / 16, nil
}

// FrankWolfeRadiusThreshold returns Theorem 6's radius 2‖y‖₂·√(m/(1 − μ₁(D, m−1))): for a
// radius β above it, Frank-Wolfe with the line search converges exponentially from the first
// iteration (and ‖α*‖₁ < β/2 follows: thesis Remark 3).
func FrankWolfeRadiusThreshold(signalNorm, babel float64, m int) (float64, error) {
	const op = "FrankWolfeRadiusThreshold"
	if err := checkRateInputs(op, babel, m); err != nil {
		return 0, err
	}
	if math.IsNaN(signalNorm) || math.IsInf(signalNorm, 0) || signalNorm < 0 {
		return 0, fmt.Errorf("pursuit: %s: ‖y‖ = %g, want a finite value ≥ 0", op, signalNorm)
	}
	threshold := 2 * signalNorm * math.Sqrt(float64(m)/(1-babel))
	if math.IsInf(threshold, 0) {
		return 0, laberr.Errorf(laberr.ErrNonFinite, "pursuit: %s: the radius 2‖y‖√(m/(1 − μ₁)) overflows for ‖y‖ = %g", op, signalNorm)
	}
	return threshold, nil
}

// FrankWolfeRateFromFirstIteration returns the contraction of Theorem 6's proof, valid at every
// iteration when the radius β exceeds [FrankWolfeRadiusThreshold]: with
// τ = FrankWolfeRadiusThreshold(‖y‖, μ₁(D, m−1), m)/β,
//
//	‖r_{k+1}‖² ≤ (1 − θ₆)‖r_k‖²,  θ₆ = ((1 − μ₁(D, m−1)) / (4m)) · (1 − τ)².
func FrankWolfeRateFromFirstIteration(signalNorm, babel float64, m int, radius float64) (float64, error) {
	const op = "FrankWolfeRateFromFirstIteration"
	threshold, err := FrankWolfeRadiusThreshold(signalNorm, babel, m)
	if err != nil {
		return 0, fmt.Errorf("pursuit: %s: %w", op, err)
	}
	if !(radius > threshold) || math.IsInf(radius, 0) {
		return 0, fmt.Errorf("pursuit: %s: β = %g, want a finite value above the threshold %g", op, radius, threshold)
	}
	slack := 1 - threshold/radius
	return (1 - babel) / (4 * float64(m)) * slack * slack, nil
}

// MatchingPursuitRate returns the rate of Gribonval & Vandergheynst (2006) for matching
// pursuit on an m-sparse signal when the exact-recovery condition holds: each iteration removes
// at least max_i ⟨v_i, r⟩² ≥ ‖r‖²·(1 − μ₁(D, m−1))/m (their Lemma 2), hence
//
//	‖r_k‖² ≤ ‖y‖² (1 − θ_MP)^k,  θ_MP = (1 − μ₁(D, m−1)) / m.
func MatchingPursuitRate(babel float64, m int) (float64, error) {
	if err := checkRateInputs("MatchingPursuitRate", babel, m); err != nil {
		return 0, err
	}
	return (1 - babel) / float64(m), nil
}

// ResidualBound returns ‖y‖·(1 − θ)^(k/2), the bound on ‖r_k‖₂ after k iterations of a
// per-iteration contraction ‖r_{k+1}‖² ≤ (1 − θ)‖r_k‖²; its logarithm,
// log‖y‖ + (k/2)·log(1 − θ), is the straight line of the §5.4 figure.
//
// Errors: ‖y‖ negative or not finite, θ outside [0, 1] (no contraction, and (1 − θ)^(k/2) is
// NaN below 0), k < 0.
func ResidualBound(signalNorm, theta float64, k int) (float64, error) {
	if !(signalNorm >= 0) || math.IsInf(signalNorm, 0) {
		return 0, fmt.Errorf("pursuit: ResidualBound: ‖y‖ = %g, want a finite value ≥ 0", signalNorm)
	}
	if !(theta >= 0 && theta <= 1) {
		return 0, fmt.Errorf("pursuit: ResidualBound: θ = %g, want a contraction rate in [0, 1]", theta)
	}
	if k < 0 {
		return 0, fmt.Errorf("pursuit: ResidualBound: k = %d, want k ≥ 0", k)
	}
	return signalNorm * math.Pow(1-theta, float64(k)/2), nil
}

// minCoherence is the smallest μ RecoverySparsity accepts, 2⁻⁵²: below it m* exceeds 2⁵¹, where
// (2m ± 1)·μ is no longer computed exactly enough to decide the condition (and, below about
// 10⁻¹⁹, m* overflows an int). No dictionary of float64 atoms has a smaller non-zero coherence
// that means anything.
const minCoherence = 0x1p-52

// RecoverySparsity returns m* = ⌈(μ⁻¹ − 1)/2⌉, the largest sparsity m with m < (μ⁻¹ + 1)/2, the
// condition of Theorems 4–6 (and of Tropp's exact recovery by OMP) for a dictionary of coherence
// μ ∈ (0, 1]. The integer is found from the condition (2m − 1)·μ < 1 itself, not from a rounded
// quotient. (The thesis's §5.4 reports μ = 5.8·10⁻² and m* = 8, but μ = 0.058 gives 9: m* = 8
// needs μ ≥ 1/17 ≈ 0.0588; see the package documentation.)
//
// Errors: μ outside [2⁻⁵², 1] (see minCoherence).
func RecoverySparsity(mu float64) (int, error) {
	if !(mu > 0) || mu > 1 {
		return 0, fmt.Errorf("pursuit: RecoverySparsity: μ = %g, want a value in (0, 1]", mu)
	}
	if mu < minCoherence {
		return 0, fmt.Errorf("pursuit: RecoverySparsity: μ = %g is below 2⁻⁵² ≈ %.3g: m* ≈ 1/(2μ) would exceed 2⁵¹, beyond exact float64 arithmetic", mu, minCoherence)
	}
	m := int(math.Ceil((1/mu - 1) / 2))
	for m > 0 && float64(2*m-1)*mu >= 1 {
		m--
	}
	for float64(2*m+1)*mu < 1 {
		m++
	}
	return m, nil
}
