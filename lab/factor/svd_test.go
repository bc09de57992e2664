package factor

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
)

// TestTruncatedSVDMatchesFullSVD compares the k leading triplets with gonum's full SVD (an
// independent reference in the OpenBLAS build, where dgesvdx computes them for k = 6 ≤ 25/4 and
// dgesdd for k = 20) for dense and sparse input, tall and wide.
func TestTruncatedSVDMatchesFullSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][2]int{{40, 25}, {25, 40}} {
		d := randomSparse(rng, shape[0], shape[1], 0.3)
		var ref mat.SVD
		if !ref.Factorize(d, mat.SVDFull) {
			t.Fatal("reference SVD failed")
		}
		values := ref.Values(nil)
		var u, v mat.Dense
		ref.UTo(&u)
		ref.VTo(&v)
		for _, c := range []struct {
			k int
			a mat.Matrix
		}{{6, d}, {6, sparseOf(t, d)}, {20, d}} {
			k, a := c.k, c.a
			got, err := TruncatedSVD(a, k)
			if err != nil {
				t.Fatal(err)
			}
			for j := range k {
				if math.Abs(got.Values[j]-values[j]) > 1e-12*values[0] {
					t.Fatalf("%v %T: σ_%d = %g, want %g", shape, a, j+1, got.Values[j], values[j])
				}
				// Distinct singular values: the vectors agree up to one sign per pair.
				cu := mat.Dot(got.U.ColView(j), u.ColView(j))
				cv := mat.Dot(got.V.ColView(j), v.ColView(j))
				if math.Abs(math.Abs(cu)-1) > 1e-9 || math.Abs(cu-cv) > 1e-9 {
					t.Fatalf("%v %T: ⟨u_%d, u_ref⟩ = %g, ⟨v_%d, v_ref⟩ = %g, want equal ±1", shape, a, j+1, cu, j+1, cv)
				}
			}
		}
	}
}

func TestTruncatedSVDRejectsBadInput(t *testing.T) {
	big, err := csr.FromTriplets(1<<14, 1<<13, []int{0}, []int{0}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		a    mat.Matrix
		k    int
		want string
	}{
		{"nil", nil, 1, "A is nil"},
		{"NaN", mat.NewDense(2, 2, []float64{1, math.NaN(), 0, 1}), 1, "NaN"},
		{"k = 0", mat.NewDense(2, 3, nil), 0, "k = 0"},
		{"k too large", mat.NewDense(2, 3, nil), 3, "min(m, n) = 2"},
		{"too large to densify", big, 1, "RandomizedSVD"},
	} {
		if _, err := TruncatedSVD(c.a, c.k); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}
