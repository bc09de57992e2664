package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteAssignment returns the minimal total of C over all injective maps of rows to columns.
func bruteAssignment(C *mat.Dense) float64 {
	n, m := C.Dims()
	best := math.Inf(1)
	used := make([]bool, m)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			best = min(best, sum)
			return
		}
		for j := range m {
			if !used[j] {
				used[j] = true
				rec(i+1, sum+C.At(i, j))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

func TestAssignmentAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 1 + rng.IntN(6)
		m := n + rng.IntN(3)
		C := mat.NewDense(n, m, nil)
		for i := range n {
			for j := range m {
				if trial%2 == 0 {
					C.Set(i, j, float64(rng.IntN(5)-2)) // small integers: many ties, exact sums
				} else {
					C.Set(i, j, rng.NormFloat64()*100)
				}
			}
		}
		cols, total, err := Assignment(C)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		var sum float64
		for i, j := range cols {
			if j < 0 || j >= m || seen[j] {
				t.Fatalf("trial %d: cols = %v is not injective into [0, %d)", trial, cols, m)
			}
			seen[j] = true
			sum += C.At(i, j)
		}
		want := bruteAssignment(C)
		if math.Abs(total-want) > 1e-9*(1+math.Abs(want)) || math.Abs(sum-total) > 1e-9*(1+math.Abs(want)) {
			t.Fatalf("trial %d (%d×%d): total %g (sum of the map %g), brute force %g", trial, n, m, total, sum, want)
		}
	}
}

// A 3×3 problem solved by hand: the six permutations' totals are listed in the test.
func TestAssignmentByHand(t *testing.T) {
	C := mat.NewDense(3, 3, []float64{
		8, 4, 7,
		5, 2, 3,
		9, 4, 8,
	})
	// Permutation totals: (0,1,2) 8+2+8=18, (0,2,1) 8+3+4=15, (1,0,2) 4+5+8=17, (1,2,0) 4+3+9=16,
	// (2,0,1) 7+5+4=16, (2,1,0) 7+2+9=18: the optimum is (0,2,1) with 15.
	cols, total, err := Assignment(C)
	if err != nil {
		t.Fatal(err)
	}
	if total != 15 || cols[0] != 0 || cols[1] != 2 || cols[2] != 1 {
		t.Errorf("Assignment = %v, %g; want [0 2 1], 15", cols, total)
	}
}

func TestAssignmentErrors(t *testing.T) {
	for name, C := range map[string]mat.Matrix{
		"nil":         nil,
		"NaN":         mat.NewDense(2, 2, []float64{1, math.NaN(), 0, 1}),
		"Inf":         mat.NewDense(1, 2, []float64{math.Inf(-1), 0}),
		"rows > cols": mat.NewDense(3, 2, nil),
		"huge":        mat.NewDense(2, 2, []float64{math.MaxFloat64, -math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64}),
		"typed nil":   (*mat.Dense)(nil),
	} {
		if _, _, err := Assignment(C); err == nil {
			t.Errorf("%s: nil error", name)
		}
	}
}

// BenchmarkAssignmentTies solves the tie-heavy matrices of issue 34 at a third of their size
// (bench/compare_assignment.sh times the full sizes against scipy): n × n zeros, where the
// earlier solver ran along every assigned column for every row, and integer costs 0–4.
func BenchmarkAssignmentTies(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int
		cost func(rng *rand.Rand) float64
	}{
		{"zeros-1000", 1000, func(*rand.Rand) float64 { return 0 }},
		{"ints-700", 700, func(rng *rand.Rand) float64 { return float64(rng.IntN(5)) }},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		C := mat.NewDense(tc.n, tc.n, nil)
		for i := range tc.n {
			for j := range tc.n {
				C.Set(i, j, tc.cost(rng))
			}
		}
		b.Run(tc.name, func(b *testing.B) {
			for range b.N {
				if _, _, err := Assignment(C); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Square problems start from Jonker and Volgenant's reduction (reduce); wider ones do not. Padding a
// square C with one column that no optimal assignment uses sends the same problem down the other
// path: both must find the same total, on costs with ties, without, negative and of wide range.
func TestAssignmentReducedEqualsUnreduced(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 75 {
		n := 2 + rng.IntN(150)
		C := mat.NewDense(n, n, nil)
		padded := mat.NewDense(n, n+1, nil)
		for i := range n {
			for j := range n {
				var c float64
				switch trial % 5 {
				case 0:
					c = float64(rng.IntN(200)) // some ties, too few to skip the reduction (tied)
				case 4:
					c = float64(rng.IntN(4)) // ties everywhere: no reduction on either path
				case 1:
					c = rng.Float64()
				case 2:
					c = rng.NormFloat64() * 1e6
				default:
					c = math.Exp(20 * rng.NormFloat64()) // spans many decades
				}
				C.Set(i, j, c)
				padded.Set(i, j, c)
			}
		}
		for i := range n {
			padded.Set(i, n, 1e300) // never worth taking: no optimum uses it
		}
		if g := C.RawMatrix(); tied(g) != (trial%5 == 4) && n > 20 {
			t.Errorf("trial %d (%d×%d, kind %d): tied = %v", trial, n, n, trial%5, tied(g))
		}
		cols, total, err := Assignment(C)
		if err != nil {
			t.Fatal(err)
		}
		_, want, err := Assignment(padded)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, n)
		var sum float64
		for i, j := range cols {
			if seen[j] {
				t.Fatalf("trial %d: column %d twice", trial, j)
			}
			seen[j] = true
			sum += C.At(i, j)
		}
		if tol := 1e-12 * (1 + math.Abs(want)) * float64(n); math.Abs(total-want) > tol || math.Abs(sum-total) > tol {
			t.Fatalf("trial %d (%d×%d, kind %d): reduced total %g (its map sums to %g), unreduced %g", trial, n, n, trial%5, total, sum, want)
		}
	}
}
