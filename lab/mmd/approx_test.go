package mmd

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// TestNystromMatchesLemma5 compares the estimator with the formula of Lemma 5 written out with
// full matrices: vᵀ(K_FS K_S⁻¹ K_FSᵀ + λI)v on the pooled sample, the landmarks drawn as
// documented (positions in x‖z by lowrank.UniformLandmarks) and K_S inverted by gonum (distinct
// landmarks of a Gaussian kernel: K_S is invertible).
func TestNystromMatchesLemma5(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	X := stack(gaussianRows(rng, 30, 2, 0, 1), gaussianRows(rng, 25, 2, 0.5, 1.2))
	k := mustGaussian(t, 1)
	p := mustVectors(t, k, X)
	ref := rowKernel(k, X)
	x, z := span(0, 30), span(30, 55)
	v := mat.NewVecDense(55, nil)
	for i := range 55 {
		if i < 30 {
			v.SetVec(i, 1.0/30)
		} else {
			v.SetVec(i, -1.0/25)
		}
	}
	for _, s := range []int{1, 4, 12} {
		for _, lambda := range []float64{0, 0.3} {
			seed := uint64(100*s) + uint64(10*lambda)
			got, err := Nystrom{Landmarks: s, Lambda: lambda}.MMD2(context.Background(), rand.New(rand.NewPCG(seed, 1)), p, x, z)
			if err != nil {
				t.Fatal(err)
			}
			landmarks, _ := lowrank.UniformLandmarks(rand.New(rand.NewPCG(seed, 1)), 55, s)
			kfs := mat.NewDense(55, s, nil)
			ks := mat.NewDense(s, s, nil)
			for a := range 55 {
				for b, j := range landmarks {
					kfs.Set(a, b, ref(a, j))
				}
			}
			for a, i := range landmarks {
				for b, j := range landmarks {
					ks.Set(a, b, ref(i, j))
				}
			}
			var inv, m, approx mat.Dense
			if err := inv.Inverse(ks); err != nil {
				t.Fatal(err)
			}
			m.Mul(kfs, &inv)
			approx.Mul(&m, kfs.T())
			for i := range 55 {
				approx.Set(i, i, approx.At(i, i)+lambda)
			}
			want := mat.Inner(v, &approx, v)
			if !near(got, want, 1e-10) {
				t.Errorf("s = %d, λ = %g: Nyström MMD² = %.15g, Lemma 5 gives %.15g", s, lambda, got, want)
			}
		}
	}
}

// TestNystromAllLandmarksIsExact: with every point of the pooled sample as a landmark and λ = 0,
// K_FS K_S⁺ K_FSᵀ = K_F (up to the eigenvalue cut-off), so the estimate is the exact MMD², also
// with repeated and shared indices (then K_S is singular).
func TestNystromAllLandmarksIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := gaussianRows(rng, 50, 2, 0, 1)
	x, z := make([]int, 40), make([]int, 30)
	for i := range x {
		x[i] = rng.IntN(35)
	}
	for i := range z {
		z[i] = 15 + rng.IntN(35)
	}
	for _, k := range []kernel.Kernel{mustGaussian(t, 0.8), inverseQuadratic{}} {
		p := mustVectors(t, k, X)
		for _, pair := range [][2][]int{{span(0, 25), span(25, 50)}, {x, z}} {
			n := len(pair[0]) + len(pair[1])
			got, err := Nystrom{Landmarks: n}.MMD2(context.Background(), rand.New(rand.NewPCG(5, 6)), p, pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteMMD2(rowKernel(k, X), pair[0], pair[1]); !near(got, want, 1e-9) {
				t.Errorf("%s: Nyström with all %d landmarks = %.12g, exact %.12g", k.Name(), n, got, want)
			}
		}
	}
}

// TestNystromLemma4 checks that the regularised Nyström MMD separates distinct empirical
// distributions. With the linear kernel on the line, X = {1, 3} and Z = {2} have equal means, so
// the exact MMD and the unregularised Nyström MMD are 0 although X ≠ Z; with λ > 0 the estimate is
// λ||v||² = λ(1/4 + 1/4 + 1). And on random samples it is never below λ||v||² > 0.
func TestNystromLemma4(t *testing.T) {
	line := mustVectors(t, kernel.Linear{}, mat.NewDense(3, 1, []float64{1, 3, 2}))
	x, z := []int{0, 1}, []int{2}
	ctx := context.Background()
	exact, err := Exact{}.MMD2(ctx, nil, line, x, z)
	if err != nil || math.Abs(exact) > 1e-15 {
		t.Errorf("exact linear MMD² = %g, %v; want 0", exact, err)
	}
	for _, tc := range []struct{ lambda, want float64 }{{0, 0}, {0.5, 0.75}, {2, 3}} {
		got, err := Nystrom{Landmarks: 2, Lambda: tc.lambda}.MMD2(ctx, rand.New(rand.NewPCG(1, 1)), line, x, z)
		if err != nil || math.Abs(got-tc.want) > 1e-14 {
			t.Errorf("λ = %g: Nyström MMD² = %.17g, %v; want %g", tc.lambda, got, err, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	X := gaussianRows(rng, 20, 2, 0, 1)
	p := mustVectors(t, mustGaussian(t, 1), X)
	const lambda = 1e-6
	for seed := range uint64(20) {
		got, err := Nystrom{Landmarks: 2, Lambda: lambda}.MMD2(ctx, rand.New(rand.NewPCG(seed, 2)), p, span(0, 10), span(10, 20))
		if err != nil {
			t.Fatal(err)
		}
		if floor := lambda * (0.1 + 0.1); got < floor*(1-1e-9) {
			t.Errorf("seed %d: Nyström MMD² = %g below λ||v||² = %g", seed, got, floor)
		}
	}
}

func TestWeightDifferenceNorm2(t *testing.T) {
	// x = {0, 0, 1}: weights 2/3, 1/3; z = {1, 2}: weights 1/2, 1/2.
	// v = (2/3, 1/3 − 1/2, −1/2), ||v||² = 16/36 + 1/36 + 9/36.
	if got, want := weightDifferenceNorm2(5, []int{0, 0, 1}, []int{1, 2}), 26.0/36; math.Abs(got-want) > 1e-15 {
		t.Errorf("||v||² = %g, want %g", got, want)
	}
	if got := weightDifferenceNorm2(4, []int{3, 1, 3}, []int{1, 3, 3}); got != 0 {
		t.Errorf("||v||² of equal multisets = %g, want 0", got)
	}
}

// TestRFFConvergesToExact: the RFF estimate is an average of s terms in [0, 4] whose mean is the
// exact MMD² (E_ω cos(ωᵀ(x − z)) = k(x, z)), so by Hoeffding |RFF − exact| ≤ 4√(ln(2/δ)/(2s))
// with probability 1 − δ; δ = 1e-6 here, for s from 100 to 50 000, fixed seeds.
func TestRFFConvergesToExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	X := stack(gaussianRows(rng, 40, 2, 0, 1), gaussianRows(rng, 40, 2, 0.7, 1))
	x, z := span(0, 40), span(40, 80)
	laplace, _ := kernel.NewLaplace(1.5)
	for _, k := range []kernel.Kernel{mustGaussian(t, 1), laplace, &laplace} {
		p := mustVectors(t, k, X)
		exact := bruteMMD2(rowKernel(k, X), x, z)
		for _, s := range []int{100, 1000, 10000, 50000} {
			got, err := RFF{Features: s}.MMD2(context.Background(), rand.New(rand.NewPCG(uint64(s), 3)), p, x, z)
			if err != nil {
				t.Fatal(err)
			}
			if bound := 4 * math.Sqrt(math.Log(2/1e-6)/(2*float64(s))); math.Abs(got-exact) > bound {
				t.Errorf("%s, s = %d: RFF MMD² = %.6g, exact %.6g: error above the Hoeffding bound %.3g", k.Name(), s, got, exact, bound)
			}
		}
	}
}

// TestBlockOneBlockIsUnbiased: with s = min(n, m) there is one block holding both samples whole,
// whatever the shuffle, so the estimate is the U-statistic of the samples.
func TestBlockOneBlockIsUnbiased(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X := gaussianRows(rng, 61, 3, 0, 1)
	k := mustGaussian(t, 1.3)
	p := mustVectors(t, k, X)
	for _, pair := range [][2][]int{{span(0, 30), span(30, 60)}, {span(0, 31), span(31, 61)}} {
		got, err := Block{Size: 30}.MMD2(context.Background(), rand.New(rand.NewPCG(1, 1)), p, pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteUnbiasedMMD2(rowKernel(k, X), pair[0], pair[1]); !near(got, want, 1e-13) {
			t.Errorf("n = %d: block MMD² = %.15g, U-statistic %.15g", len(pair[0]), got, want)
		}
	}
}

// TestBlockMatchesDocumentedDraws replays the documented draws (x then z shuffled with
// rng.Shuffle, parts [b·n/B, (b+1)·n/B)) and averages brute-force U-statistics.
func TestBlockMatchesDocumentedDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	X := stack(gaussianRows(rng, 50, 2, 0, 1), gaussianRows(rng, 40, 2, 0.5, 1))
	k := mustGaussian(t, 1)
	p := mustVectors(t, k, X)
	x, z := span(0, 50), span(50, 90)
	got, err := Block{Size: 7}.MMD2(context.Background(), rand.New(rand.NewPCG(15, 16)), p, x, z)
	if err != nil {
		t.Fatal(err)
	}
	replay := rand.New(rand.NewPCG(15, 16))
	px, pz := slices.Clone(x), slices.Clone(z)
	replay.Shuffle(len(px), func(i, j int) { px[i], px[j] = px[j], px[i] })
	replay.Shuffle(len(pz), func(i, j int) { pz[i], pz[j] = pz[j], pz[i] })
	const blocks = 40 / 7
	var want float64
	for b := range blocks {
		want += bruteUnbiasedMMD2(rowKernel(k, X), px[b*50/blocks:(b+1)*50/blocks], pz[b*40/blocks:(b+1)*40/blocks])
	}
	want /= blocks
	if !near(got, want, 1e-13) {
		t.Errorf("block MMD² = %.15g, replayed %.15g", got, want)
	}
}

// TestLinearMatchesDocumentedDraws replays the subsets (⌈√50⌉ = 8 of x, then ⌈√17⌉ = 5 of z) and
// computes their MMD² by brute force.
func TestLinearMatchesDocumentedDraws(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	X := gaussianRows(rng, 67, 2, 0, 1)
	k := mustGaussian(t, 1)
	p := mustVectors(t, k, X)
	x, z := span(0, 50), span(50, 67)
	got, err := Linear{}.MMD2(context.Background(), rand.New(rand.NewPCG(19, 20)), p, x, z)
	if err != nil {
		t.Fatal(err)
	}
	replay := rand.New(rand.NewPCG(19, 20))
	px, _ := lowrank.UniformLandmarks(replay, 50, 8)
	pz, _ := lowrank.UniformLandmarks(replay, 17, 5)
	sx, sz := make([]int, 8), make([]int, 5)
	for a, i := range px {
		sx[a] = x[i]
	}
	for a, i := range pz {
		sz[a] = z[i]
	}
	if want := bruteMMD2(rowKernel(k, X), sx, sz); !near(got, want, 1e-13) {
		t.Errorf("linear MMD² = %.15g, replayed %.15g", got, want)
	}
}

func TestDefaultSize(t *testing.T) {
	for _, tc := range [][2]int{{-3, 2}, {0, 2}, {1, 2}, {7, 2}, {21, 3}, {10000, 9}, {100000, 12}, {1000000, 14}} {
		if got := DefaultSize(tc[0]); got != tc[1] {
			t.Errorf("DefaultSize(%d) = %d, want %d", tc[0], got, tc[1])
		}
	}
}

// TestThreeSample: W ~ P_X = N(0, I), Z ~ N(1.5·1, I) in two dimensions, 200 points each: every
// estimator attributes W to P_X; and ErrorRate counts the decisions that do not.
func TestThreeSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	X := stack(stack(gaussianRows(rng, 200, 2, 0, 1), gaussianRows(rng, 200, 2, 1.5, 1)), gaussianRows(rng, 200, 2, 0, 1))
	p := mustVectors(t, mustGaussian(t, 1.5), X)
	x, z, w := span(0, 200), span(200, 400), span(400, 600)
	for _, est := range []Estimator{Exact{}, Linear{}, Block{}, RFF{}, Nystrom{Lambda: 1e-3}} {
		d, err := ThreeSample(context.Background(), rand.New(rand.NewPCG(23, 24)), est, p, x, z, w)
		if err != nil {
			t.Fatal(err)
		}
		if !d.FromX() {
			t.Errorf("%s: D(X, W) = %g > D(Z, W) = %g", est.Name(), d.XW, d.ZW)
		}
	}
	rate, err := ErrorRate([]Decision{{XW: 1, ZW: 2}, {XW: 3, ZW: 2}, {XW: 2, ZW: 2}, {XW: -1, ZW: 0}})
	if err != nil || rate != 0.25 {
		t.Errorf("ErrorRate = %g, %v; want 0.25", rate, err)
	}
	if _, err := ErrorRate(nil); err == nil {
		t.Error("ErrorRate(nil): no error")
	}
	if _, err := ErrorRate([]Decision{{XW: math.NaN()}}); err == nil {
		t.Error("ErrorRate with NaN: no error")
	}
}
