package lowrank

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// clusteredPoints returns n points in d dimensions around the given centres (Gaussian noise of
// standard deviation spread), with their cluster labels.
func clusteredPoints(seed uint64, centres [][]float64, perCluster int, spread float64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	d := len(centres[0])
	x := mat.NewDense(len(centres)*perCluster, d, nil)
	labels := make([]int, 0, len(centres)*perCluster)
	for i := range len(centres) * perCluster {
		c := rng.IntN(len(centres))
		for j := range d {
			x.Set(i, j, centres[c][j]+spread*rng.NormFloat64())
		}
		labels = append(labels, 2*c+1) // sparse labels
	}
	return x, labels
}

// One cluster: MEKA is the Nyström approximation on the same landmarks (2·rank uniform draws,
// the first thing MEKA takes from its generator).
func TestMEKAOneClusterEqualsNystrom(t *testing.T) {
	const n, d, rank, sigma = 90, 3, 8, 0.5
	x := randomPoints(61, n, d)
	labels := make([]int, n)
	m, err := FitMEKA(rand.New(rand.NewPCG(8, 9)), gaussianFor(t, sigma), x, labels, rank, MEKAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := UniformLandmarks(rand.New(rand.NewPCG(8, 9)), n, 2*rank)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Landmarks(); len(got) != 1 || !slices.Equal(got[0], want) {
		t.Fatalf("MEKA landmarks %v, want the first UniformLandmarks draw %v", got, want)
	}
	ny, err := FitNystrom(gaussianFor(t, sigma), x, want, rank)
	if err != nil {
		t.Fatal(err)
	}
	phi, err := ny.Transform(x)
	if err != nil {
		t.Fatal(err)
	}
	var nyApprox mat.Dense
	nyApprox.Mul(phi, phi.T())
	approx, err := m.Approximation()
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "MEKA with one cluster against Nyström", approx, &nyApprox, 1e-12)
}

// With every cluster at full rank (all its points as landmarks) and every row sampled, the
// diagonal blocks are exact and the least-squares links solve K^(s,t) = W^(s) L W^(t)ᵀ exactly:
// MEKA reproduces K. This checks the orientation of the link formula; the absolute link tolerance
// is turned off, since exactness needs the smallest eigenvalues too.
func TestMEKAFullRankReproducesK(t *testing.T) {
	const sigma = 0.6
	x, labels := clusteredPoints(62, [][]float64{{0, 0}, {1, 0}, {0, 1}}, 12, 0.3)
	m, err := FitMEKA(rand.New(rand.NewPCG(1, 1)), gaussianFor(t, sigma), x, labels, 1000,
		MEKAOptions{Eta: KeepAllBlocks, LandmarksPerRank: 1, SamplesPerRank: 1, LinkTolerance: -1})
	if err != nil {
		t.Fatal(err)
	}
	approx, err := m.Approximation()
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "full-rank MEKA against K", approx, bruteCross(x, x, func(a, b []float64) float64 { return bruteGaussian(a, b, sigma) }), 1e-8)
}

// Three clusters on a line at 0, 1 and 10: with η = 1/3 one of the three pairs is dropped, the
// farthest one (0, 2), and its block of K̂ is zero while the others are not; with η = 1 MEKA is
// block-diagonal Nyström.
func TestMEKAEtaDropsLeastSimilarPair(t *testing.T) {
	x, labels := clusteredPoints(63, [][]float64{{0}, {1}, {10}}, 15, 0.2)
	g := gaussianFor(t, 2)
	m, err := FitMEKA(rand.New(rand.NewPCG(2, 2)), g, x, labels, 6, MEKAOptions{Eta: 1.0 / 3})
	if err != nil {
		t.Fatal(err)
	}
	approx, err := m.Approximation()
	if err != nil {
		t.Fatal(err)
	}
	n, _ := x.Dims()
	blockNorm := map[[2]int]float64{}
	for i := range n {
		for j := range n {
			blockNorm[[2]int{labels[i] / 2, labels[j] / 2}] += math.Abs(approx.At(i, j))
		}
	}
	if blockNorm[[2]int{0, 2}] != 0 || blockNorm[[2]int{2, 0}] != 0 {
		t.Errorf("block (0, 2) has mass %g, want 0", blockNorm[[2]int{0, 2}])
	}
	if blockNorm[[2]int{0, 1}] == 0 || blockNorm[[2]int{1, 2}] == 0 {
		t.Errorf("blocks (0, 1) and (1, 2) have mass %g and %g, want non-zero", blockNorm[[2]int{0, 1}], blockNorm[[2]int{1, 2}])
	}

	blockDiagonal, err := FitMEKA(rand.New(rand.NewPCG(2, 2)), g, x, labels, 6, MEKAOptions{Eta: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, l := blockDiagonal.Factors()
	r, _ := l.Dims()
	if !mat.Equal(l, identity(r)) {
		t.Errorf("η = 1: L = %v, want the identity", mat.Formatted(l))
	}
}

func identity(n int) *mat.SymDense {
	out := mat.NewSymDense(n, nil)
	for i := range n {
		out.SetSym(i, i, 1)
	}
	return out
}

// Factors, Approximation and the tiled error agree with each other and with brute force.
func TestMEKAFactorsAndErrors(t *testing.T) {
	const sigma = 0.5
	x, labels := clusteredPoints(64, [][]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}}, 40, 0.5)
	g := gaussianFor(t, sigma)
	m, err := FitMEKA(rand.New(rand.NewPCG(3, 3)), g, x, labels, 12, MEKAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	approx, err := m.Approximation()
	if err != nil {
		t.Fatal(err)
	}
	w, l := m.Factors()
	var wl, wlw mat.Dense
	wl.Mul(w, l)
	wlw.Mul(&wl, w.T())
	assertClose(t, "W L Wᵀ against Approximation", &wlw, approx, 1e-12)

	k := bruteCross(x, x, func(a, b []float64) float64 { return bruteGaussian(a, b, sigma) })
	var diff mat.Dense
	diff.Sub(k, approx)
	wantAbs, wantRel := mat.Norm(&diff, 2), mat.Norm(&diff, 2)/mat.Norm(k, 2)
	gotAbs, err := m.FrobeniusError(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	gotRel, err := m.RelativeFrobeniusError(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(gotAbs-wantAbs) > 1e-9*wantAbs || math.Abs(gotRel-wantRel) > 1e-9*wantRel {
		t.Errorf("errors %g, %g; brute force %g, %g", gotAbs, gotRel, wantAbs, wantRel)
	}
	ks := mat.NewSymDense(len(labels), nil)
	for i := range len(labels) {
		for j := i; j < len(labels); j++ {
			ks.SetSym(i, j, k.At(i, j))
		}
	}
	rel, err := RelativeFrobenius(ks, approx)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(rel-wantRel) > 1e-12 {
		t.Errorf("RelativeFrobenius = %g, want %g", rel, wantRel)
	}
}

// Proportional split by largest remainders, at least 1 and at most the size of each cluster.
func TestSplitRank(t *testing.T) {
	sizes := func(s ...int) [][]int {
		out := make([][]int, len(s))
		for i, v := range s {
			out[i] = make([]int, v)
		}
		return out
	}
	for _, c := range []struct {
		total int
		sizes []int
		want  []int
	}{
		{10, []int{50, 30, 20}, []int{5, 3, 2}},
		{3, []int{1, 99}, []int{1, 2}},
		{3, []int{98, 1, 1}, []int{1, 1, 1}},
		{4, []int{98, 1, 1}, []int{2, 1, 1}},
		{10, []int{5, 5}, []int{5, 5}},
		{7, []int{10, 10, 10}, []int{3, 2, 2}},
	} {
		n := 0
		for _, s := range c.sizes {
			n += s
		}
		if got := splitRank(c.total, sizes(c.sizes...), n); !slices.Equal(got, c.want) {
			t.Errorf("splitRank(%d, %v) = %v, want %v", c.total, c.sizes, got, c.want)
		}
	}
}

func TestMEKAErrors(t *testing.T) {
	x := randomPoints(65, 20, 2)
	labels := make([]int, 20)
	labels[5] = 3
	g := gaussianFor(t, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	var opts MEKAOptions
	_, err := FitMEKA(nil, g, x, labels, 4, opts)
	wantError(t, "nil rng", err)
	_, err = FitMEKA(rng, nil, x, labels, 4, opts)
	wantError(t, "nil kernel", err)
	_, err = FitMEKA(rng, g, nil, labels, 4, opts)
	wantError(t, "nil X", err)
	_, err = FitMEKA(rng, g, x, labels[:19], 4, opts)
	wantError(t, "label count", err)
	_, err = FitMEKA(rng, g, x, append(labels[:19:19], -2), 4, opts)
	wantError(t, "negative label", err)
	_, err = FitMEKA(rng, g, x, labels, 0, opts)
	wantError(t, "rank 0", err)
	split := MEKAOptions{Eta: KeepAllBlocks, SplitRank: true}
	_, err = FitMEKA(rng, g, x, labels, 21, split)
	wantError(t, "split rank above n", err)
	_, err = FitMEKA(rng, g, x, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 5, split)
	wantError(t, "split rank below the number of clusters", err)
	for _, bad := range []MEKAOptions{{Eta: 1.5}, {Eta: math.NaN()}, {Eta: math.Inf(1)}, {LandmarksPerRank: -1}, {SamplesPerRank: -2}, {Cutoff: -1}} {
		_, err = FitMEKA(rng, g, x, labels, 4, bad)
		wantError(t, "bad options", err)
	}
	m, err := FitMEKA(rng, g, x, labels, 4, opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.FrobeniusError(randomPoints(1, 19, 2), nil)
	wantError(t, "X of another size", err)
	_, err = m.RelativeFrobeniusError(nil, nil)
	wantError(t, "nil X for the error", err)

	// Approximation refuses an n×n result above its limit (one cheap cluster of 20001 points).
	big := mat.NewDense(maxApproximationPoints+1, 1, nil)
	for i := range maxApproximationPoints + 1 {
		big.Set(i, 0, float64(i%97)/97)
	}
	mb, err := FitMEKA(rng, g, big, make([]int, maxApproximationPoints+1), 1, opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = mb.Approximation()
	wantError(t, "Approximation above the limit", err)
}

// The link pseudo-inverse drops eigenvalues at or below the absolute floor: for diag(4, 1e-7)
// with floor 1e-6 it is diag(1/4, 0), without a floor diag(1/4, 1e7).
func TestPseudoInverseFloor(t *testing.T) {
	a := mat.NewSymDense(2, []float64{4, 0, 0, 1e-7})
	for _, c := range []struct {
		floor float64
		want  []float64
	}{{1e-6, []float64{0.25, 0, 0, 0}}, {0, []float64{0.25, 0, 0, 1e7}}} {
		got, err := pseudoInverse(a, DefaultCutoff, c.floor)
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, fmt.Sprintf("pseudo-inverse with floor %g", c.floor), got, mat.NewDense(2, 2, c.want), 1e-9)
	}
}
