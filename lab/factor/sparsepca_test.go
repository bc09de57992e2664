package factor

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSparsePCAWithoutPenaltyIsALS: at λ = 0 the alternation is alternating least squares, whose
// V spans the leading right singular subspace and whose UVᵀ is the best rank-k approximation
// (compared with gonum's SVD), for dense and sparse data.
func TestSparsePCAWithoutPenaltyIsALS(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	values := []float64{10, 8, 6, 1, 0.5, 0.25, 0.1}
	d := withSpectrum(rng, 50, 30, values)
	var ref mat.SVD
	if !ref.Factorize(d, mat.SVDThin) {
		t.Fatal("reference SVD failed")
	}
	var refV mat.Dense
	ref.VTo(&refV)
	lead := mat.DenseCopyOf(refV.Slice(0, 30, 0, 3))
	for _, a := range []mat.Matrix{d, sparseOf(t, d)} {
		fit, err := FitSparsePCA(rand.New(rand.NewPCG(33, 34)), a, 3, SparsePCAOptions{Iterations: 60})
		if err != nil {
			t.Fatal(err)
		}
		v := mat.DenseCopyOf(fit.V)
		orthonormalize(v)
		if gap := subspaceGap(t, lead, v); gap > 1e-8 {
			t.Fatalf("%T: span V is %g away from the leading singular subspace", a, gap)
		}
		var fitted mat.Dense
		fitted.Mul(fit.U, fit.V.T())
		// ½‖A − A_3‖²_F = ½Σ_{i>3}σ_i².
		var tail float64
		for _, s := range values[3:] {
			tail += s * s / 2
		}
		last := fit.Objective[len(fit.Objective)-1]
		if math.Abs(last-tail) > 1e-9 {
			t.Fatalf("%T: final objective %g, want ½Σ_{i>3}σ_i² = %g", a, last, tail)
		}
	}
}

// TestSparsePCAPenalty: the objective never increases; with a penalty the final V satisfies the
// lasso optimality (KKT) conditions given U; the number of exact zeros grows with λ, and a λ
// above every |A·V₀| entry zeroes both factors.
func TestSparsePCAPenalty(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	a := randomSparse(rng, 60, 40, 0.3)
	zeros := -1
	for _, lambda := range []float64{0, 0.3, 1, 3, 1e6} {
		fit, err := FitSparsePCA(rand.New(rand.NewPCG(37, 38)), a, 4, SparsePCAOptions{Penalty: lambda, Iterations: 30})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(fit.Objective); i++ {
			if fit.Objective[i] > fit.Objective[i-1]*(1+1e-12) {
				t.Fatalf("λ = %g: objective rose from %g to %g at iteration %d", lambda, fit.Objective[i-1], fit.Objective[i], i+1)
			}
		}
		// KKT for V: with g = (UᵀU)v − Aᵀu-row, g_j = −λ·sign(v_j) where v_j ≠ 0, |g_j| ≤ λ elsewhere.
		var gram, c, g mat.Dense
		gram.Mul(fit.U.T(), fit.U)
		c.Mul(a.T(), fit.U)
		g.Mul(fit.V, &gram)
		g.Sub(&g, &c)
		scale := 1e-7 * (1 + mat.Norm(&c, math.Inf(1)))
		count := 0
		for i := range 40 {
			for j := range 4 {
				v, gij := fit.V.At(i, j), g.At(i, j)
				switch {
				case v == 0:
					count++
					if math.Abs(gij) > lambda+scale {
						t.Fatalf("λ = %g: V[%d,%d] = 0 with |gradient| %g > λ", lambda, i, j, math.Abs(gij))
					}
				case math.Abs(gij+lambda*math.Copysign(1, v)) > scale:
					t.Fatalf("λ = %g: V[%d,%d] = %g with gradient %g, want %g", lambda, i, j, v, gij, -lambda*math.Copysign(1, v))
				}
			}
		}
		for i := range 60 {
			for j := range 4 {
				if fit.U.At(i, j) == 0 {
					count++
				}
			}
		}
		if count < zeros || (lambda == 0) != (count == 0) {
			t.Fatalf("λ = %g: %d exact zeros after %d at the smaller penalty", lambda, count, zeros)
		}
		t.Logf("λ = %g: %d of %d entries exactly zero, objective %.4g", lambda, count, (60+40)*4, fit.Objective[len(fit.Objective)-1])
		zeros = count
	}
	if zeros != (60+40)*4 {
		t.Fatalf("λ = 1e6: %d zeros, want all %d", zeros, (60+40)*4)
	}
}

func TestSparsePCARejectsBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	for _, c := range []struct {
		name string
		k    int
		opts SparsePCAOptions
		rng  *rand.Rand
		want string
	}{
		{"k 0", 0, SparsePCAOptions{Iterations: 1}, rng, "k = 0"},
		{"negative penalty", 1, SparsePCAOptions{Penalty: -1, Iterations: 1}, rng, "Penalty = -1"},
		{"NaN penalty", 1, SparsePCAOptions{Penalty: math.NaN(), Iterations: 1}, rng, "Penalty = NaN"},
		{"no iterations", 1, SparsePCAOptions{}, rng, "Iterations = 0"},
		{"nil rng", 1, SparsePCAOptions{Iterations: 1}, nil, "rng is nil"},
	} {
		if _, err := FitSparsePCA(c.rng, a, c.k, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestSparsePCAReplicationInvariance: repeating every row of A p times and every column q times
// multiplies ‖A‖_F, the singular values and, at the optimum, λ by √(pq) (the fit term grows by pq
// and the ℓ1 norms of the balanced factors by √(pq) each). From the SVD start the fit of the
// replicated matrix with λ·√(pq) must therefore be the replicated fit: pq times the objective at
// every iteration and the same zero pattern, repeated. A Gaussian start would break this, since a
// random vector of the larger space is not a repeated one. A has rank 4 ≤ k + oversampling, so the
// randomized SVD of both matrices is exact.
func TestSparsePCAReplicationInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	a := withSpectrum(rng, 12, 9, []float64{9, 5, 3, 2})
	const p, q, k, lambda = 2, 3, 3, 0.4
	m, n := a.Dims()
	big := mat.NewDense(m*p, n*q, nil)
	for i := range m * p {
		for j := range n * q {
			big.Set(i, j, a.At(i/p, j/q))
		}
	}
	opts := SparsePCAOptions{Penalty: lambda, Iterations: 8}
	small, err := FitSparsePCA(rand.New(rand.NewPCG(43, 44)), a, k, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Penalty = lambda * math.Sqrt(p*q)
	large, err := FitSparsePCA(rand.New(rand.NewPCG(45, 46)), big, k, opts)
	if err != nil {
		t.Fatal(err)
	}
	for it, obj := range small.Objective {
		if got := large.Objective[it] / (p * q); math.Abs(got-obj) > 1e-9*obj {
			t.Fatalf("iteration %d: replicated objective / pq = %.12g, want %.12g", it+1, got, obj)
		}
	}
	// Column j of the replicated V is column j of V repeated q times, scaled by √(p/q)
	// (and of U, repeated p times, by √(q/p)); both SVDs fix signs by the largest entry of U.
	zeros := 0
	for j := range k {
		for i := range n * q {
			want, got := small.V.At(i/q, j)*math.Sqrt(float64(p)/q), large.V.At(i, j)
			if (want == 0) != (got == 0) || math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
				t.Fatalf("V[%d, %d] = %g, want %g (V[%d, %d] of the small fit, scaled)", i, j, got, want, i/q, j)
			}
			if got == 0 {
				zeros++
			}
		}
	}
	if zeros == 0 {
		t.Fatal("no loading is exactly zero: λ is too small for this test to check the zero pattern")
	}
}
