package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomLogPosterior returns a D×T matrix whose rows are log-probabilities.
func randomLogPosterior(rng *rand.Rand, D, T int) *mat.Dense {
	p := mat.NewDense(D, T, nil)
	for d := range D {
		row := p.RawRowView(d)
		for t := range row {
			row[t] = 3 * rng.NormFloat64()
		}
		lse := logSumExp(row)
		for t := range row {
			row[t] -= lse
		}
	}
	return p
}

// klUnder returns Σ_d KL(p_d ‖ q_d∘σ) from the definition.
func klUnder(P, Q *mat.Dense, sigma []int) float64 {
	D, T := P.Dims()
	var s float64
	for d := range D {
		for t := range T {
			p := math.Exp(P.At(d, t))
			s += p * (P.At(d, t) - Q.At(d, sigma[t]))
		}
	}
	return s
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(slices.Clone(p[:i]), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func TestMatchTopicsAgainstAllPermutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for trial := range 30 {
		D, T := 1+rng.IntN(20), 1+rng.IntN(5)
		P, Q := randomLogPosterior(rng, D, T), randomLogPosterior(rng, D, T)
		match, mean, err := MatchTopics(P, Q)
		if err != nil {
			t.Fatal(err)
		}
		best := math.Inf(1)
		for _, sigma := range permutations(T) {
			best = min(best, klUnder(P, Q, sigma))
		}
		if got := klUnder(P, Q, match); math.Abs(got-best) > 1e-9*(1+best) || math.Abs(mean-best/float64(D)) > 1e-9*(1+best) {
			t.Fatalf("trial %d: matched total %g, mean %g; best over permutations %g", trial, got, mean, best)
		}
		kl, err := MatchedKL(P, Q, match)
		if err != nil {
			t.Fatal(err)
		}
		if s := sumOf(kl); math.Abs(s-best) > 1e-9*(1+best) {
			t.Fatalf("trial %d: Σ MatchedKL = %g, want %g", trial, s, best)
		}
	}
}

// A model compared with a relabelled copy of itself: the matching undoes the relabelling.
func TestMatchTopicsRelabelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	P := randomLogPosterior(rng, 50, 4)
	perm := []int{2, 0, 3, 1} // topic t of P is topic perm[t] of Q
	Q := mat.NewDense(50, 4, nil)
	for d := range 50 {
		for tt := range 4 {
			Q.Set(d, perm[tt], P.At(d, tt))
		}
	}
	match, mean, err := MatchTopics(P, Q)
	if err != nil || !slices.Equal(match, perm) || mean > 1e-15 {
		t.Errorf("MatchTopics = %v, %g, %v; want %v, 0", match, mean, err, perm)
	}
}

// TopicAgreement on two documents and three guarantor runs, computed by hand from MatchedKL's
// definition: the guarantors are best itself (KL 0) and two models that put their mass
// elsewhere.
func TestTopicAgreementByHand(t *testing.T) {
	l := math.Log
	best := mat.NewDense(2, 2, []float64{l(0.9), l(0.1), l(0.5), l(0.5)})
	g1 := mat.NewDense(2, 2, []float64{l(0.6), l(0.4), l(0.5), l(0.5)})
	g2 := mat.NewDense(2, 2, []float64{l(0.8), l(0.2), l(0.3), l(0.7)})
	kl := func(p, q []float64) (s float64) {
		for i := range p {
			s += p[i] * l(p[i]/q[i])
		}
		return s
	}
	// Matchings: identity for g1 (swapping would cost more on document 0) and for g2, checked
	// by comparing both permutations' totals.
	for _, g := range []*mat.Dense{g1, g2} {
		if id, sw := klUnder(best, g, []int{0, 1}), klUnder(best, g, []int{1, 0}); id >= sw {
			t.Fatalf("test set-up: the identity is not the best matching (%g vs %g)", id, sw)
		}
	}
	var want float64
	for _, rows := range [][3][]float64{
		{{0.9, 0.1}, {0.6, 0.4}, {0.8, 0.2}},
		{{0.5, 0.5}, {0.5, 0.5}, {0.3, 0.7}},
	} {
		k := []float64{0, kl(rows[0], rows[1]), kl(rows[0], rows[2])} // best, g1, g2
		mean := (k[0] + k[1] + k[2]) / 3
		variance := ((k[0]-mean)*(k[0]-mean) + (k[1]-mean)*(k[1]-mean) + (k[2]-mean)*(k[2]-mean)) / 3
		want += (k[0] + k[1] + k[2]) / variance / 2
	}
	got, err := TopicAgreement(best, []mat.Matrix{best, g1, g2})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Score-want) > 1e-9*want || got.Used != 2 || got.Skipped != 0 {
		t.Errorf("TopicAgreement = %+v, want score %g over 2 documents", got, want)
	}
	// Against identical guarantors every variance is zero: no score.
	if _, err := TopicAgreement(best, []mat.Matrix{g1, g1}); err == nil {
		t.Error("identical guarantors: nil error")
	}
}

func TestTopicMatchErrors(t *testing.T) {
	P := mat.NewDense(2, 2, []float64{0, math.Inf(-1), 0, 0})
	Q := mat.NewDense(2, 2, nil)
	if _, _, err := MatchTopics(P, Q); err == nil {
		t.Error("MatchTopics: -Inf log-probability: nil error")
	}
	if _, _, err := MatchTopics(Q, mat.NewDense(2, 3, nil)); err == nil {
		t.Error("MatchTopics: shapes: nil error")
	}
	for _, match := range [][]int{{0}, {0, 0}, {0, 2}} {
		if _, err := MatchedKL(Q, Q, match); err == nil {
			t.Errorf("MatchedKL(match = %v): nil error", match)
		}
	}
	if _, err := TopicAgreement(Q, []mat.Matrix{Q}); err == nil {
		t.Error("TopicAgreement: one guarantor: nil error")
	}
}
