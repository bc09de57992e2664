package leverage

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/lowrank"
)

// Theorem 1, empirically: Algorithm 3 on DAC scores gives K − λI ⪯ K̂ ⪯ K, i.e. ||K − K̂||₂ ≤ λ, and
// |S| ≤ 32 ln(Σ l̂/ρ) Σ l̂, in at least 1 − ρ of seeded trials. The set-up (n = 600 points on a line,
// σ = 0.3, λ = 10, blocks of n/2) is one where the theorem's constants leave a real choice: about
// 340 of the 600 points are kept, so K̂ ≠ K. ||K − K̂||₂ ≤ λ is checked as λI − (K − K̂) ⪰ 0 (a
// Cholesky factorisation with a relative slack of 1e-9), K̂ ⪯ K as K − K̂ + 1e-9 n I ≻ 0
// (λ_max(K) ≤ n for the Gaussian kernel).
func TestTheorem1WithDACScores(t *testing.T) {
	const (
		n, sigma, lambda, rho = 600, 0.3, 10.0, 0.2
		trials                = 10
	)
	x := randomPoints(51, n, 1)
	k := gaussian(t, sigma)
	K := bruteGram(k, x)
	rng := rand.New(rand.NewPCG(2022, 3))
	good, kept := 0, 0
	for trial := range trials {
		scores, err := DAC(rng, k, x, lambda, DACOptions{BlockSize: n / 2})
		if err != nil {
			t.Fatal(err)
		}
		landmarks, err := BernoulliSample(rng, scores, rho)
		if err != nil {
			t.Fatal(err)
		}
		bound, err := BernoulliSizeBound(scores, rho)
		if err != nil {
			t.Fatal(err)
		}
		kept += len(landmarks)
		ny, err := lowrank.FitNystrom(k, x, landmarks, 0)
		if err != nil {
			t.Fatal(err)
		}
		phi, err := ny.Transform(x)
		if err != nil {
			t.Fatal(err)
		}
		var residual mat.SymDense // K − K̂
		residual.SymOuterK(-1, phi)
		residual.AddSym(&residual, K)
		upper := positiveDefinite(&residual, -1, lambda*(1+1e-9)) // λI − (K − K̂) ≻ 0
		lower := positiveDefinite(&residual, 1, 1e-9*n)           // K − K̂ ⪰ 0, λ_max(K) ≤ n
		if upper && lower && float64(len(landmarks)) <= bound {
			good++
		} else {
			t.Logf("trial %d: |S| = %d (bound %.0f), ||K − K̂||₂ ≤ λ: %v, K̂ ⪯ K: %v", trial, len(landmarks), bound, upper, lower)
		}
	}
	if good < int((1-rho)*trials) {
		t.Errorf("Theorem 1 held in %d of %d trials, want at least %d", good, trials, int((1-rho)*trials))
	}
	if mean := float64(kept) / trials; mean > 0.8*n {
		t.Errorf("mean |S| = %.0f of %d points: the set-up no longer tests a real approximation", mean, n)
	}
}

// positiveDefinite reports whether scale·A + shift·I has a Cholesky factorisation.
func positiveDefinite(a *mat.SymDense, scale, shift float64) bool {
	var b mat.SymDense
	b.ScaleSym(scale, a)
	for i := range b.SymmetricDim() {
		b.SetSym(i, i, b.At(i, i)+shift)
	}
	_, ok := lapack64.Potrf(b.RawSymmetric())
	return ok
}
