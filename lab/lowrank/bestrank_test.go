package lowrank

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// withSpectrum returns Q diag(values) Qᵀ for a random orthogonal Q (from a QR factorisation).
func withSpectrum(seed uint64, values []float64) *mat.SymDense {
	n := len(values)
	rng := rand.New(rand.NewPCG(seed, 1))
	g := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	out := mat.NewSymDense(n, nil)
	for j, v := range values {
		out.SymRankOne(out, v, q.ColView(j))
	}
	return out
}

// Eckart–Young: the error of the best rank-k approximation is √(Σ_{i>k} λ_i²) over the
// eigenvalues sorted by magnitude, known here by construction (listed in that order; one is
// negative). BestRankKError, from eigenvalues alone, gives it relative to ||K||_F = √(Σ λ_i²).
func TestBestRankKMatchesEckartYoung(t *testing.T) {
	values := []float64{9, 5, -4, 3, 1, 0.5, 0.25, 0.1, 0, 0}
	k := withSpectrum(41, values)
	var total float64
	for _, v := range values {
		total += v * v
	}
	for rank := 1; rank <= len(values); rank++ {
		approx, err := BestRankK(k, rank)
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		for _, v := range values[rank:] {
			want += v * v
		}
		want = math.Sqrt(want)
		var diff mat.Dense
		diff.Sub(k, approx)
		if got := mat.Norm(&diff, 2); math.Abs(got-want) > 1e-12*9 {
			t.Errorf("rank %d: ||K − K_k||_F = %.15g, want %.15g", rank, got, want)
		}
		rel, err := BestRankKError(k, rank)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(rel-want/math.Sqrt(total)) > 1e-12 {
			t.Errorf("rank %d: BestRankKError = %.15g, want %.15g", rank, rel, want/math.Sqrt(total))
		}
	}
}

// [[2, 1], [1, 2]] has eigenpairs 3, (1, 1)/√2 and 1, (1, −1)/√2: its rank-1 part is 1.5·11ᵀ.
func TestBestRankKByHand(t *testing.T) {
	approx, err := BestRankK(mat.NewSymDense(2, []float64{2, 1, 1, 2}), 1)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "rank-1 part", approx, mat.NewSymDense(2, []float64{1.5, 1.5, 1.5, 1.5}), 1e-15)
}

// Both functions refuse the same bad input; BestRankKError also a zero K (its error is 0/0).
func TestBestRankKErrors(t *testing.T) {
	good := mat.NewSymDense(2, []float64{2, 1, 1, 2})
	cases := []struct {
		name string
		k    mat.Symmetric
		rank int
	}{
		{"rank 0", good, 0},
		{"rank above n", good, 3},
		{"nil K", nil, 1},
		{"typed nil K", (*mat.SymDense)(nil), 1},
		{"infinite entry", mat.NewSymDense(2, []float64{1, math.Inf(1), math.Inf(1), 1}), 1},
		{"NaN entry", mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), 1},
	}
	for _, c := range cases {
		_, err := BestRankK(c.k, c.rank)
		wantError(t, "BestRankK: "+c.name, err)
		_, err = BestRankKError(c.k, c.rank)
		wantError(t, "BestRankKError: "+c.name, err)
	}
	_, err := BestRankKError(mat.NewSymDense(2, nil), 1)
	wantError(t, "BestRankKError: zero K", err)
}
