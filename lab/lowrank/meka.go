package lowrank

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// MEKAOptions are the parameters of [FitMEKA] besides the rank. The zero value gives the defaults
// of the MEKA paper and code: η = 0.1, 2k_s landmarks and 3k_s sampled rows per cluster, rank k
// per cluster (set SplitRank for the code's total rank), the default cut-off and link tolerance.
type MEKAOptions struct {
	// Eta is the fraction η of off-diagonal blocks set to zero, in [0, 1]: the ⌊η·c(c−1)/2⌋
	// pairs of clusters whose means are least similar under the kernel. (The authors' code
	// thresholds the kernel matrix of the cluster centres at its ⌈η·c(c−1)⌉-th smallest entry,
	// which drops about as many pairs.) 0 selects DefaultEta, the paper's 0.1; KeepAllBlocks (any
	// negative value) sets η = 0, which keeps every off-diagonal block.
	Eta float64
	// LandmarksPerRank sets the landmarks of each cluster's Nyström approximation to
	// LandmarksPerRank·k_s (at most the cluster's size); 0 means 2, the authors' choice.
	LandmarksPerRank int
	// SamplesPerRank sets the rows (and columns) sampled from each cluster to fit an
	// off-diagonal block to SamplesPerRank·k_s (at most the cluster's size); 0 means 3, the
	// authors' choice.
	SamplesPerRank int
	// SplitRank makes the rank passed to FitMEKA the total Σ k_s, split among the clusters in
	// proportion to their sizes, as the authors' released code does (their published ijcnn1
	// figure, rank 500 with 10 clusters, is in this sense). By default every cluster gets that
	// rank (capped at its size), as in the paper and the course report, for a memory of about n·k.
	SplitRank bool
	// Cutoff is the relative eigenvalue cut-off of the Nyström and least-squares
	// pseudo-inverses; 0 selects DefaultCutoff.
	Cutoff float64
	// LinkTolerance is the absolute eigenvalue tolerance of the pseudo-inverses (W_vsᵀ W_vs)⁺ of
	// the off-diagonal least squares: eigenvalues at or below it count as zero. 0 selects
	// DefaultLinkTolerance, the authors' pinv(·, 1e-6); a negative value keeps only Cutoff.
	// Without it the fit on the sampled rows can amplify noise in the directions the samples
	// barely see, and the approximation of the rows not sampled can be far off (its error
	// reached 10–500× ||K||_F on houses at γ = 4 in perrin_fig3).
	LinkTolerance float64
}

// DefaultEta is the η of the MEKA paper and code, the fraction of off-diagonal blocks that
// [MEKAOptions]{} sets to zero.
const DefaultEta = 0.1

// KeepAllBlocks, as MEKAOptions.Eta, sets η = 0: no off-diagonal block is set to zero.
const KeepAllBlocks = -1.0

// DefaultLinkTolerance is the absolute tolerance of the authors' code on the eigenvalues of
// W_vsᵀ W_vs (their features have rows of norm at most about √k(x, x) = 1).
const DefaultLinkTolerance = 1e-6

// MEKA is a fitted memory-efficient kernel approximation (Si, Hsieh and Dhillon, ICML 2014 and
// JMLR 2017; the course report, §3): with the points partitioned into clusters V_1..V_c (k-means in the
// paper), K ≈ W L Wᵀ where W = diag(W^(1), …, W^(c)) is block-diagonal and L has c×c blocks.
//
//   - W^(s) (n_s×k_s) are the rank-k_s Nyström features of cluster s on uniformly drawn landmarks,
//     so that the diagonal blocks are K^(s,s) ≈ W^(s) W^(s)ᵀ and L^(s,s) = I (the authors' code).
//   - The off-diagonal blocks minimise ||K^(s,t) − W^(s) L^(s,t) W^(t)ᵀ|| on v_s sampled rows and
//     v_t sampled columns: L^(s,t) = (W_vsᵀ W_vs)⁺ W_vsᵀ K̂^(s,t) W_vt (W_vtᵀ W_vt)⁺. The course report
//     prints the right factor as W_vtᵀ (W_vt W_vtᵀ)⁻¹, a transcription slip (the shapes do not
//     match); the form used is the paper's and the authors' code's.
//   - A fraction η of the off-diagonal blocks, those of the least similar clusters, is set to 0.
//
// Memory: Σ n_s k_s ≤ n·k for W plus (Σ k_s)² ≤ (ck)² for L, instead of n² for K; time
// O(n·k·(k + d)) for the diagonal blocks plus O(c²k²(k + d)) for the links.
type MEKA struct {
	kernel    kernel.Kernel
	n         int
	members   [][]int        // point indices of each cluster, clusters in increasing label order
	landmarks [][]int        // landmark indices (into X) of each cluster
	factors   []*mat.Dense   // W^(s), n_s × r_s
	links     [][]*mat.Dense // links[s][t] = L^(s,t) for s < t, nil for a block set to zero
}

// FitMEKA fits MEKA to the rows of X (n×d) partitioned by clusters (one non-negative label per
// point, e.g. from k-means; empty labels are ignored, clusters are taken in increasing label
// order). rank is the rank k_s = min(rank, n_s) of every cluster, or with opts.SplitRank the
// total Σ k_s, split among the clusters in proportion to their sizes (largest remainders, at
// least 1 each).
//
// Random draws, all from rng, in this order: the landmarks of each cluster ([UniformLandmarks] on
// the cluster's points, taken in increasing index order), then for each kept pair s < t (in
// lexicographic order) the sampled rows of s and of t. A single cluster therefore gives exactly
// the Nyström approximation on Landmarks()[0]: [FitNystrom](k, X, m.Landmarks()[0], rank).
//
// Errors: nil rng or kernel, nil, empty or non-finite X, a wrong number of labels or a negative
// one, rank < 1, a split rank above n or below the number of clusters, options out of range, a
// cluster whose kernel block has no positive eigenvalue.
func FitMEKA(rng *rand.Rand, k kernel.Kernel, X mat.Matrix, clusters []int, rank int, opts MEKAOptions) (*MEKA, error) {
	return FitMEKAContext(context.Background(), rng, k, X, clusters, rank, opts)
}

// FitMEKAContext is [FitMEKA] with a context: it looks at ctx before each cluster's Nyström
// approximation and each kept pair's link, never inside one, so a MEKA it returns is FitMEKA's, bit
// for bit.
// Errors: FitMEKA's, ctx's error (wrapped) once ctx is done, a nil ctx.
// Cost: FitMEKA's; once ctx is done it returns within about one block: O(n_s·k_s·(k_s + d)) for
// cluster s, O(k_s·k_t·(k_s + k_t + d)) for a pair.
func FitMEKAContext(ctx context.Context, rng *rand.Rand, k kernel.Kernel, X mat.Matrix, clusters []int, rank int, opts MEKAOptions) (*MEKA, error) {
	const op = "FitMEKA"
	if err := ctxcheck.NotNil(ctx, "lowrank: "+op); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, fmt.Errorf("lowrank: %s: %w", op, laberr.ErrNilRand)
	}
	if k == nil {
		return nil, fmt.Errorf("lowrank: %s: nil kernel", op)
	}
	x, err := finiteDense(op, "X", X)
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if err := checkLabels(op, clusters, n); err != nil {
		return nil, err
	}
	eta, landmarksPerRank, samplesPerRank, cutoff, err := opts.resolve(op)
	if err != nil {
		return nil, err
	}
	labels, members := groupByLabel(clusters)
	c := len(members)
	var ranks []int
	switch {
	case rank < 1:
		return nil, fmt.Errorf("lowrank: %s: rank %d, want at least 1", op, rank)
	case !opts.SplitRank:
		ranks = make([]int, c)
		for s, m := range members {
			ranks[s] = min(rank, len(m))
		}
	case rank > n || rank < c:
		return nil, fmt.Errorf("lowrank: %s: total rank %d for %d points in %d clusters, want clusters ≤ rank ≤ n", op, rank, n, c)
	default:
		ranks = splitRank(rank, members, n)
	}

	m := &MEKA{kernel: k, n: n, members: members, landmarks: make([][]int, c), factors: make([]*mat.Dense, c)}
	points := make([]*mat.Dense, c)
	for s, idx := range members {
		if err := ctxcheck.Done(ctx, "lowrank: "+op); err != nil {
			return nil, err
		}
		points[s] = gatherRows(x, idx)
		local, err := UniformLandmarks(rng, len(idx), min(len(idx), landmarksPerRank*ranks[s]))
		if err != nil {
			return nil, fmt.Errorf("lowrank: %s: cluster %d: %w", op, labels[s], err)
		}
		ny := &Nystrom{Kernel: k, Rank: ranks[s], Cutoff: cutoff}
		if err := ny.Fit(points[s], local); err != nil {
			return nil, fmt.Errorf("lowrank: %s: cluster %d (%d points): %w", op, labels[s], len(idx), err)
		}
		if m.factors[s], err = ny.Transform(points[s]); err != nil {
			return nil, fmt.Errorf("lowrank: %s: cluster %d: %w", op, labels[s], err)
		}
		m.landmarks[s] = make([]int, len(local))
		for i, l := range local {
			m.landmarks[s][i] = idx[l]
		}
	}

	dropped := leastSimilarPairs(k, x, members, d, eta)
	m.links = make([][]*mat.Dense, c)
	for s := range c {
		m.links[s] = make([]*mat.Dense, c)
		for t := s + 1; t < c; t++ {
			if dropped[[2]int{s, t}] {
				continue
			}
			if err := ctxcheck.Done(ctx, "lowrank: "+op); err != nil {
				return nil, err
			}
			rowsS, err := UniformLandmarks(rng, len(members[s]), min(len(members[s]), samplesPerRank*ranks[s]))
			if err != nil {
				return nil, fmt.Errorf("lowrank: %s: clusters %d, %d: %w", op, labels[s], labels[t], err)
			}
			rowsT, err := UniformLandmarks(rng, len(members[t]), min(len(members[t]), samplesPerRank*ranks[t]))
			if err != nil {
				return nil, fmt.Errorf("lowrank: %s: clusters %d, %d: %w", op, labels[s], labels[t], err)
			}
			sampled, err := kernel.Cross(k, gatherRows(points[s], rowsS), gatherRows(points[t], rowsT))
			if err != nil {
				return nil, fmt.Errorf("lowrank: %s: clusters %d, %d: %w", op, labels[s], labels[t], err)
			}
			link, err := leastSquaresLink(gatherRows(m.factors[s], rowsS), sampled, gatherRows(m.factors[t], rowsT), cutoff, opts.linkFloor())
			if err != nil {
				return nil, fmt.Errorf("lowrank: %s: clusters %d, %d: %w", op, labels[s], labels[t], err)
			}
			m.links[s][t] = link
		}
	}
	return m, nil
}

// resolve validates the options and returns the effective η, factors and cut-off.
func (o MEKAOptions) resolve(op string) (eta float64, landmarksPerRank, samplesPerRank int, cutoff float64, err error) {
	switch {
	case o.Eta == 0:
		eta = DefaultEta
	case o.Eta < 0:
		eta = 0
	case o.Eta <= 1:
		eta = o.Eta
	default: // above 1, or NaN
		return 0, 0, 0, 0, fmt.Errorf("lowrank: %s: Eta = %g, want a fraction in [0, 1] (0 = default, < 0 = none)", op, o.Eta)
	}
	if o.LandmarksPerRank < 0 || o.SamplesPerRank < 0 {
		return 0, 0, 0, 0, fmt.Errorf("lowrank: %s: LandmarksPerRank = %d, SamplesPerRank = %d, want ≥ 0 (0 = default)",
			op, o.LandmarksPerRank, o.SamplesPerRank)
	}
	if math.IsNaN(o.LinkTolerance) || math.IsInf(o.LinkTolerance, 1) {
		return 0, 0, 0, 0, fmt.Errorf("lowrank: %s: LinkTolerance = %g, want a number below +Inf (0 = default, < 0 = none)", op, o.LinkTolerance)
	}
	landmarksPerRank, samplesPerRank = o.LandmarksPerRank, o.SamplesPerRank
	if landmarksPerRank == 0 {
		landmarksPerRank = 2
	}
	if samplesPerRank == 0 {
		samplesPerRank = 3
	}
	cutoff, err = cutoffOrDefault(op, o.Cutoff)
	return eta, landmarksPerRank, samplesPerRank, cutoff, err
}

// linkFloor is the effective LinkTolerance (resolve has refused NaN and +Inf).
func (o MEKAOptions) linkFloor() float64 {
	switch {
	case o.LinkTolerance == 0:
		return DefaultLinkTolerance
	case o.LinkTolerance < 0:
		return 0
	}
	return o.LinkTolerance
}

// groupByLabel returns the labels present in increasing order and the point indices of each.
func groupByLabel(labels []int) ([]int, [][]int) {
	byLabel := map[int][]int{}
	for i, l := range labels {
		byLabel[l] = append(byLabel[l], i)
	}
	keys := make([]int, 0, len(byLabel))
	for l := range byLabel {
		keys = append(keys, l)
	}
	slices.Sort(keys)
	out := make([][]int, len(keys))
	for s, l := range keys {
		out[s] = byLabel[l]
	}
	return keys, out
}

// splitRank divides total (number of clusters ≤ total ≤ n) among the clusters in proportion to
// their sizes by the largest-remainder method, giving each cluster between 1 and its size.
func splitRank(total int, members [][]int, n int) []int {
	c := len(members)
	ranks := make([]int, c)
	remainders := make([]float64, c)
	assigned := 0
	for s, m := range members {
		quota := float64(total) * float64(len(m)) / float64(n)
		ranks[s] = min(len(m), max(1, int(quota)))
		remainders[s] = quota - float64(ranks[s])
		assigned += ranks[s]
	}
	order := make([]int, c)
	for s := range order {
		order[s] = s
	}
	// Clusters by decreasing remainder (ties by index): the first ones gain a unit, the last
	// ones give one back.
	sort.SliceStable(order, func(a, b int) bool { return remainders[order[a]] > remainders[order[b]] })
	for assigned < total {
		for _, s := range order {
			if assigned < total && ranks[s] < len(members[s]) {
				ranks[s]++
				assigned++
			}
		}
	}
	for assigned > total {
		for i := c - 1; i >= 0; i-- {
			if s := order[i]; assigned > total && ranks[s] > 1 {
				ranks[s]--
				assigned--
			}
		}
	}
	return ranks
}

// leastSimilarPairs returns the ⌊η·c(c−1)/2⌋ cluster pairs (s < t) whose means have the smallest
// kernel value (ties by pair order).
func leastSimilarPairs(k kernel.Kernel, x *mat.Dense, members [][]int, d int, eta float64) map[[2]int]bool {
	c := len(members)
	pairs := c * (c - 1) / 2
	drop := int(math.Floor(eta*float64(pairs) + 1e-9))
	if drop == 0 {
		return nil
	}
	means := make([][]float64, c)
	for s, idx := range members {
		means[s] = make([]float64, d)
		for _, i := range idx {
			for j, v := range x.RawRowView(i) {
				means[s][j] += v
			}
		}
		for j := range means[s] {
			means[s][j] /= float64(len(idx))
		}
	}
	type pair struct {
		s, t       int
		similarity float64
	}
	all := make([]pair, 0, pairs)
	for s := range c {
		for t := s + 1; t < c; t++ {
			all = append(all, pair{s, t, k.Eval(means[s], means[t])})
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].similarity < all[b].similarity })
	out := make(map[[2]int]bool, drop)
	for _, p := range all[:drop] {
		out[[2]int{p.s, p.t}] = true
	}
	return out
}

// leastSquaresLink returns L = (AᵀA)⁺ Aᵀ G B (BᵀB)⁺, the minimiser of ||G − A L Bᵀ||_F of
// smallest norm, with the pseudo-inverses cut at max(cutoff·λ_max, floor).
func leastSquaresLink(a, g, b *mat.Dense, cutoff, floor float64) (*mat.Dense, error) {
	var ata, btb mat.SymDense
	ata.SymOuterK(1, a.T())
	btb.SymOuterK(1, b.T())
	pinvA, err := pseudoInverse(&ata, cutoff, floor)
	if err != nil {
		return nil, err
	}
	pinvB, err := pseudoInverse(&btb, cutoff, floor)
	if err != nil {
		return nil, err
	}
	var gb, atgb, left, link mat.Dense
	gb.Mul(g, b)
	atgb.Mul(a.T(), &gb)
	left.Mul(pinvA, &atgb)
	link.Mul(&left, pinvB)
	return &link, nil
}

// Landmarks returns, for each cluster (in increasing label order), the indices into X of the
// landmarks of its Nyström approximation.
func (m *MEKA) Landmarks() [][]int {
	out := make([][]int, len(m.landmarks))
	for s, l := range m.landmarks {
		out[s] = append([]int(nil), l...)
	}
	return out
}

// Factors returns W (n×R, block-diagonal up to the order of the points: row i is zero outside
// the columns of its cluster) and L (R×R) with K̂ = W L Wᵀ, R = Σ_s k_s; nil, nil for a MEKA not
// made by [FitMEKA]. Memory: n·R + R².
func (m *MEKA) Factors() (*mat.Dense, *mat.SymDense) {
	if m.n == 0 {
		return nil, nil
	}
	offsets := make([]int, len(m.factors)+1)
	for s, f := range m.factors {
		_, r := f.Dims()
		offsets[s+1] = offsets[s] + r
	}
	total := offsets[len(m.factors)]
	w := mat.NewDense(m.n, total, nil)
	l := mat.NewSymDense(total, nil)
	for s, f := range m.factors {
		for row, i := range m.members[s] {
			copy(w.RawRowView(i)[offsets[s]:offsets[s+1]], f.RawRowView(row))
		}
		for j := offsets[s]; j < offsets[s+1]; j++ {
			l.SetSym(j, j, 1)
		}
		for t := s + 1; t < len(m.factors); t++ {
			link := m.links[s][t]
			if link == nil {
				continue
			}
			rs, rt := link.Dims()
			for a := range rs {
				for b := range rt {
					l.SetSym(offsets[s]+a, offsets[t]+b, link.At(a, b))
				}
			}
		}
	}
	return w, l
}

var errNotFittedMEKA = laberr.Errorf(laberr.ErrNotFitted, "lowrank: MEKA not fitted (make it with FitMEKA)")

// maxApproximationPoints bounds Approximation's n×n result (20000² doubles = 3.2 GB).
const maxApproximationPoints = 20000

// Approximation returns the n×n matrix W L Wᵀ in the order of the points, computed block by
// block (W^(s) L^(s,t) W^(t)ᵀ). Memory: 8n² bytes, so it is refused above 20000 points: use
// [RelativeFrobeniusError] there.
func (m *MEKA) Approximation() (*mat.SymDense, error) {
	if m.n == 0 {
		return nil, errNotFittedMEKA
	}
	if m.n > maxApproximationPoints {
		return nil, fmt.Errorf("lowrank: MEKA.Approximation: %d points would need %.1f GB, more than the %d-point limit; use RelativeFrobeniusError",
			m.n, 8*float64(m.n)*float64(m.n)/1e9, maxApproximationPoints)
	}
	out := mat.NewSymDense(m.n, nil)
	for s, fs := range m.factors {
		for t := s; t < len(m.factors); t++ {
			var block mat.Dense
			switch {
			case t == s:
				block.Mul(fs, fs.T())
			case m.links[s][t] != nil:
				var left mat.Dense
				left.Mul(fs, m.links[s][t])
				block.Mul(&left, m.factors[t].T())
			default:
				continue
			}
			for a, i := range m.members[s] {
				for b, j := range m.members[t] {
					if i <= j || s != t {
						out.SetSym(min(i, j), max(i, j), block.At(a, b))
					}
				}
			}
		}
	}
	return out, nil
}

// [FrobeniusError] returns ||K − W L Wᵀ||_F on the rows and columns subset of X (all when empty),
// X being the matrix given to [FitMEKA], computed in tiles without forming n×n matrices (see the
// package function FrobeniusError). Errors as for it, plus X with a row count other than the
// fitted one.
func (m *MEKA) FrobeniusError(X mat.Matrix, subset []int) (float64, error) {
	left, right, err := m.errorFactors("MEKA.FrobeniusError", X)
	if err != nil {
		return 0, err
	}
	diff2, _, err := frobeniusSums("MEKA.FrobeniusError", m.kernel, X, left, right, subset)
	return math.Sqrt(diff2), err
}

// [RelativeFrobeniusError] returns ||K − W L Wᵀ||_F / ||K||_F on the rows and columns subset of X,
// the error measure of the MEKA paper, computed like [FrobeniusError].
func (m *MEKA) RelativeFrobeniusError(X mat.Matrix, subset []int) (float64, error) {
	left, right, err := m.errorFactors("MEKA.RelativeFrobeniusError", X)
	if err != nil {
		return 0, err
	}
	return relativeFrobenius("MEKA.RelativeFrobeniusError", m.kernel, X, left, right, subset)
}

// errorFactors returns W·L and W, whose product W L Wᵀ is the approximation.
func (m *MEKA) errorFactors(op string, X mat.Matrix) (left, right *mat.Dense, err error) {
	if m.n == 0 {
		return nil, nil, fmt.Errorf("%w (%s)", errNotFittedMEKA, op)
	}
	x, err := finiteDense(op, "X", X)
	if err != nil {
		return nil, nil, err
	}
	if r, _ := x.Dims(); r != m.n {
		return nil, nil, laberr.Errorf(laberr.ErrShape, "lowrank: %s: X has %d rows, MEKA was fitted on %d", op, r, m.n)
	}
	w, l := m.Factors()
	var wl mat.Dense
	wl.Mul(w, l)
	return &wl, w, nil
}
