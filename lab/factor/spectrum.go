package factor

import "fmt"

// SlidesSpectrumFraction is the share of ‖Σ‖₁ that the student slides keep: "only the
// singular values that add up to 70% of the ℓ1 norm of Σ".
const SlidesSpectrumFraction = 0.7

// ComponentsForMass returns the smallest k such that σ_1 + … + σ_k ≥ fraction·(σ_1 + … + σ_n)
// for the singular values in values, which must be sorted in decreasing order: the number of
// components the slides keep with fraction = [SlidesSpectrumFraction]. The sums are accumulated in
// order, so a partial sum equal to the target up to rounding may need one more value.
// Errors: no values, a NaN, ±Inf or negative value, values not decreasing, all values zero, a
// fraction outside (0, 1].
func ComponentsForMass(values []float64, fraction float64) (int, error) {
	const op = "factor: ComponentsForMass"
	if len(values) == 0 {
		return 0, fmt.Errorf("%s: no singular values", op)
	}
	if !(fraction > 0 && fraction <= 1) {
		return 0, fmt.Errorf("%s: fraction = %g, want 0 < fraction ≤ 1", op, fraction)
	}
	var total float64
	for i, v := range values {
		if !(v >= 0) || v-v != 0 {
			return 0, fmt.Errorf("%s: values[%d] = %g, want finite values ≥ 0", op, i, v)
		}
		if i > 0 && v > values[i-1] {
			return 0, fmt.Errorf("%s: values[%d] = %g exceeds values[%d] = %g, want decreasing order", op, i, v, i-1, values[i-1])
		}
	}
	// The values are summed relative to the largest, so that subnormal ones keep their
	// proportions ([5e-324, 5e-324] needs both for 70%) and huge ones do not overflow the total.
	top := values[0]
	if top == 0 {
		return 0, fmt.Errorf("%s: all %d singular values are zero", op, len(values))
	}
	for _, v := range values {
		total += v / top
	}
	target := fraction * total
	var sum float64
	for i, v := range values {
		sum += v / top
		if sum >= target {
			return i + 1, nil
		}
	}
	return len(values), nil // fraction = 1 with a rounded-down running sum
}
