package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
)

// rowDocs is a Documents of explicit rows, for tests.
type rowDocs struct {
	words  int
	ids    [][]int
	counts [][]float64
}

func (r rowDocs) Dims() (int, int)             { return len(r.ids), r.words }
func (r rowDocs) Row(i int) ([]int, []float64) { return r.ids[i], r.counts[i] }
func (r rowDocs) count(d, w int) (c float64) {
	if k := slices.Index(r.ids[d], w); k >= 0 {
		c = r.counts[d][k]
	}
	return c
}

// add appends a document given as word → count.
func (r *rowDocs) add(c map[int]float64) {
	var ids []int
	for w := range c {
		ids = append(ids, w)
	}
	slices.Sort(ids)
	counts := make([]float64, len(ids))
	for k, w := range ids {
		counts[k] = c[w]
	}
	r.ids, r.counts = append(r.ids, ids), append(r.counts, counts)
}

// mixtureDocs draws D documents of length 30 from T topics with disjoint vocabularies of 20
// words each (topic t uses words 20t … 20t+19) plus 5 words shared by all, and returns them with
// their true topics.
func mixtureDocs(rng *rand.Rand, D, T int) (rowDocs, []int) {
	V := 20*T + 5
	docs := rowDocs{words: V}
	truth := make([]int, D)
	for d := range D {
		t := rng.IntN(T)
		truth[d] = t
		c := map[int]float64{}
		for range 30 {
			if rng.IntN(4) == 0 {
				c[20*T+rng.IntN(5)]++
			} else {
				c[20*t+rng.IntN(20)]++
			}
		}
		docs.add(c)
	}
	return docs, truth
}

// directScores returns log π_t + Σ_w n_dw log φ_tw computed from the dense definitions.
func directScores(m *TopicModel, docs rowDocs) [][]float64 {
	T, V := m.Phi.Dims()
	out := make([][]float64, len(docs.ids))
	for d := range out {
		out[d] = make([]float64, T)
		for t := range T {
			s := math.Log(m.Pi[t])
			for w := range V {
				s += docs.count(d, w) * math.Log(m.Phi.At(t, w))
			}
			out[d][t] = s
		}
	}
	return out
}

func TestTopicModelRecoversSeparatedTopics(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	docs, truth := mixtureDocs(rng, 300, 4)
	m, err := FitTopicModel(rng, docs, 4, TopicModelOptions{Restarts: 5})
	if err != nil {
		t.Fatal(err)
	}
	// The partition is the true one up to a relabelling, found by Assignment on the confusion.
	conf := mat.NewDense(4, 4, nil)
	for d, tt := range truth {
		conf.Set(tt, m.Topics[d], conf.At(tt, m.Topics[d])-1)
	}
	_, agree, err := Assignment(conf)
	if err != nil {
		t.Fatal(err)
	}
	if -agree != 300 {
		t.Errorf("%g of 300 documents in their true topic after matching", -agree)
	}
	for tt := range 4 {
		if s := sumOf(m.Phi.RawRowView(tt)); math.Abs(s-1) > 1e-12 {
			t.Errorf("Φ row %d sums to %g", tt, s)
		}
	}
}

// The fitted model is a fixed point of hard EM: Φ and π are the smoothed M-step of the topics,
// the topics the argmax of the directly computed scores, and the log-likelihoods those of the
// definitions.
func TestTopicModelFixedPointAndLikelihood(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	docs, _ := mixtureDocs(rng, 60, 3)
	const beta = 0.05
	m, err := FitTopicModel(rng, docs, 3, TopicModelOptions{Smoothing: beta, Restarts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Iterations >= defaultTopicMaxIter {
		t.Fatalf("no convergence in %d iterations", m.Iterations)
	}
	T, V := m.Phi.Dims()
	for tt := range T {
		var n float64
		nw := make([]float64, V)
		docsOf := 0
		for d, td := range m.Topics {
			if td != tt {
				continue
			}
			docsOf++
			for w := range V {
				nw[w] += docs.count(d, w)
				n += docs.count(d, w)
			}
		}
		if got, want := m.Pi[tt], float64(docsOf)/60; math.Abs(got-want) > 1e-15 {
			t.Errorf("π_%d = %g, want %g", tt, got, want)
		}
		for w := range V {
			if got, want := m.Phi.At(tt, w), (nw[w]+beta)/(n+float64(V)*beta); math.Abs(got-want) > 1e-15 {
				t.Fatalf("φ_%d,%d = %g, want %g", tt, w, got, want)
			}
		}
	}
	var ll, cll float64
	for d, s := range directScores(m, docs) {
		if best := slices.Index(s, slices.Max(s)); best != m.Topics[d] {
			t.Errorf("document %d: topic %d, argmax %d", d, m.Topics[d], best)
		}
		var sum float64
		for _, v := range s {
			sum += math.Exp(v) // the scores are ≥ −300 here, no underflow
		}
		ll += math.Log(sum)
		cll += s[m.Topics[d]]
	}
	if math.Abs(m.LogLikelihood-ll) > 1e-9*math.Abs(ll) || math.Abs(m.CompleteLogLikelihood-cll) > 1e-9*math.Abs(cll) {
		t.Errorf("log-likelihoods %g, %g; direct %g, %g", m.LogLikelihood, m.CompleteLogLikelihood, ll, cll)
	}
	post, err := m.LogPosterior(docs)
	if err != nil {
		t.Fatal(err)
	}
	for d, s := range directScores(m, docs) {
		lse := logSumExp(s)
		for tt := range T {
			if got, want := post.At(d, tt), s[tt]-lse; math.Abs(got-want) > 1e-9 {
				t.Fatalf("log posterior (%d,%d) = %g, want %g", d, tt, got, want)
			}
		}
	}
}

// FitTopicModel gives the same bits on one goroutine and on all, with compressed rows and with
// dense ones (several blocks of documents, and of words for the dense M-step).
func TestTopicModelDeterministic(t *testing.T) {
	sparse, _ := mixtureDocs(rand.New(rand.NewPCG(17, 18)), 700, 5)
	dense := denseMixture(rand.New(rand.NewPCG(17, 18)), 600, 5, 2*wordBlock)
	for name, docs := range map[string]rowDocs{"compressed": sparse, "dense": dense} {
		fit := func() *TopicModel {
			m, err := FitTopicModel(rand.New(rand.NewPCG(1, 2)), docs, 5, TopicModelOptions{Restarts: 3})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		a := fit()
		procs := runtime.GOMAXPROCS(1)
		b := fit()
		runtime.GOMAXPROCS(procs)
		if !slices.Equal(a.Topics, b.Topics) || !mat.Equal(a.Phi, b.Phi) || a.LogLikelihood != b.LogLikelihood || a.Restart != b.Restart {
			t.Errorf("%s rows: FitTopicModel differs between GOMAXPROCS(1) and the default with the same seed", name)
		}
	}
}

// FitTopicModelContext looks at its context once per EM iteration and stops with the context's
// error: a fit allowed k looks ends after k iterations of its first restart, one allowed as many
// looks as the whole fit needs gives FitTopicModel's bits.
func TestTopicModelContext(t *testing.T) {
	docs, _ := mixtureDocs(rand.New(rand.NewPCG(3, 4)), 300, 4)
	opts := TopicModelOptions{Restarts: 2, MaxIter: 50}
	want, err := FitTopicModel(rand.New(rand.NewPCG(5, 6)), docs, 4, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, 3} {
		ctx := ctxcheck.NewCountdown(k)
		if _, err := FitTopicModelContext(ctx, rand.New(rand.NewPCG(5, 6)), docs, 4, opts); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d looks: err = %v, want context.Canceled", k, err)
		}
		if ctx.Calls() != k+1 {
			t.Errorf("cancelled after %d looks: Err called %d times, want %d (once per iteration, stop at the first error)", k, ctx.Calls(), k+1)
		}
	}
	ctx := ctxcheck.NewCountdown(math.MaxInt)
	got, err := FitTopicModelContext(ctx, rand.New(rand.NewPCG(5, 6)), docs, 4, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Topics, want.Topics) || !mat.Equal(got.Phi, want.Phi) || got.LogLikelihood != want.LogLikelihood {
		t.Error("an uncancelled FitTopicModelContext differs from FitTopicModel with the same seed")
	}
	if ctx.Calls() < 2 {
		t.Errorf("Err called %d times over two restarts, want one per iteration", ctx.Calls())
	}
	// A nil context is bad input: an error, not a panic.
	if _, err := FitTopicModelContext(nil, rand.New(rand.NewPCG(5, 6)), docs, 4, opts); err == nil {
		t.Error("nil context: nil error")
	}
}

// reseedEmpty gives an empty topic the document its own topic explains worst per word, among
// topics of two or more documents: per word, not in total (document 2, -5 for one word, against
// document 1, -30 for ten), and never the only document of a topic (document 3).
func TestTopicModelReseedEmpty(t *testing.T) {
	docs := rowDocs{words: 10, ids: [][]int{{0}, {1, 2}, {3}, {4}}, counts: [][]float64{{2}, {4, 6}, {1}, {0.5}}}
	c := compressedCounts(docs)
	const T = 3
	scores := []float64{
		-4, -9, -9, // document 0, topic 0: -2 per word
		-30, -50, -50, // document 1, topic 0: -3 per word
		-5, -9, -9, // document 2, topic 0: -5 per word
		-9, -100, -9, // document 3, alone in topic 1: -100 per count of at most one
	}
	topics := []int{0, 0, 0, 1}
	c.reseedEmpty(scores, T, topics)
	if want := []int{0, 0, 2, 1}; !slices.Equal(topics, want) {
		t.Errorf("topics after re-seeding = %v, want %v", topics, want)
	}
	if !slices.Equal(c.totals, []float64{2, 10, 1, 0.5}) {
		t.Errorf("document totals = %v, want [2 10 1 0.5]", c.totals)
	}
}

func TestTopicModelTopWords(t *testing.T) {
	m := &TopicModel{Phi: mat.NewDense(2, 4, []float64{0.1, 0.4, 0.1, 0.4, 0.7, 0.1, 0.1, 0.1}), Pi: []float64{0.5, 0.5}}
	for _, c := range []struct {
		t, k int
		want []int
	}{{0, 3, []int{1, 3, 0}}, {1, 2, []int{0, 1}}} {
		got, err := m.TopWords(c.t, c.k)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("TopWords(%d, %d) = %v, %v; want %v", c.t, c.k, got, err, c.want)
		}
	}
	if _, err := m.TopWords(2, 1); err == nil {
		t.Error("TopWords: topic out of range: nil error")
	}
	if _, err := m.TopWords(0, 5); err == nil {
		t.Error("TopWords: k > V: nil error")
	}
}

func TestTopicModelErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	good := rowDocs{words: 3, ids: [][]int{{0, 2}, {1}}, counts: [][]float64{{1, 2}, {3}}}
	for name, docs := range map[string]Documents{
		"nil":             nil,
		"no words":        rowDocs{words: 0, ids: [][]int{{}}, counts: [][]float64{{}}},
		"ID out of range": rowDocs{words: 3, ids: [][]int{{0, 3}}, counts: [][]float64{{1, 1}}},
		"repeated ID":     rowDocs{words: 3, ids: [][]int{{1, 1}}, counts: [][]float64{{1, 1}}},
		"lengths":         rowDocs{words: 3, ids: [][]int{{1}}, counts: [][]float64{{1, 1}}},
		"negative":        rowDocs{words: 3, ids: [][]int{{1}}, counts: [][]float64{{-1}}},
		"NaN":             rowDocs{words: 3, ids: [][]int{{1}}, counts: [][]float64{{math.NaN()}}},
		"Inf":             rowDocs{words: 3, ids: [][]int{{1}}, counts: [][]float64{{math.Inf(1)}}},
		"overflow":        rowDocs{words: 3, ids: [][]int{{0, 1}, {2}}, counts: [][]float64{{1e308, 1e308}, {1}}},
	} {
		if _, err := FitTopicModel(rng, docs, 1, TopicModelOptions{}); err == nil {
			t.Errorf("%s: nil error", name)
		}
	}
	if _, err := FitTopicModel(nil, good, 1, TopicModelOptions{}); err == nil {
		t.Error("nil rng: nil error")
	}
	if _, err := FitTopicModel(rng, good, 3, TopicModelOptions{}); err == nil {
		t.Error("T > D: nil error")
	}
	if _, err := FitTopicModel(rng, good, 1, TopicModelOptions{Smoothing: math.NaN()}); err == nil {
		t.Error("NaN smoothing: nil error")
	}
	m, err := FitTopicModel(rng, good, 2, TopicModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.LogPosterior(rowDocs{words: 4, ids: [][]int{{0}}, counts: [][]float64{{1}}}); err == nil {
		t.Error("LogPosterior: other vocabulary size: nil error")
	}
	if _, err := new(TopicModel).LogPosterior(good); err == nil {
		t.Error("zero model: nil error")
	}
}

// BenchmarkTopicModelIteration reports documents per second and per EM iteration (E-step, empty
// topic check and M-step) at the deck's 30 topics: 20,000 documents of 60 tokens over 10,000
// words. The time also covers copying the rows once and the final E-step of each fit.
func BenchmarkTopicModelIteration(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const D, V, T = 20000, 10000, 30
	docs := rowDocs{words: V}
	for range D {
		c := map[int]float64{}
		for range 60 {
			c[rng.IntN(V)]++
		}
		docs.add(c)
	}
	iterations := 0
	for b.Loop() {
		m, err := FitTopicModel(rng, docs, T, TopicModelOptions{MaxIter: 5})
		if err != nil {
			b.Fatal(err)
		}
		iterations += m.Iterations
	}
	b.ReportMetric(D*float64(iterations)/b.Elapsed().Seconds(), "docs·iter/s")
}

// denseMixture returns mixtureDocs with a small positive amount u·0.1 (u uniform) added to every
// count: fractional documents with every entry non-zero, like a clipped low-rank reconstruction,
// which readDocuments stores in dense rows.
func denseMixture(rng *rand.Rand, D, T, extraWords int) rowDocs {
	docs, _ := mixtureDocs(rng, D, T)
	docs.words += extraWords
	for d := range docs.ids {
		c := map[int]float64{}
		for w := range docs.words {
			c[w] = docs.count(d, w) + 0.1*rng.Float64()
		}
		docs.ids[d], docs.counts[d] = nil, nil
		dense := rowDocs{words: docs.words}
		dense.add(c)
		docs.ids[d], docs.counts[d] = dense.ids[0], dense.counts[0]
	}
	return docs
}

// compressedCounts copies docs into compressed rows without readDocuments' switch to dense rows.
func compressedCounts(docs rowDocs) *counts {
	c := &counts{docs: len(docs.ids), words: docs.words, start: []int{0}}
	for d := range docs.ids {
		c.ids = append(c.ids, docs.ids[d]...)
		c.vals = append(c.vals, docs.counts[d]...)
		c.start = append(c.start, len(c.ids))
	}
	c.sumTotals()
	return c
}

// Dense rows (a matrix product for the E-step, word blocks for the M-step) fit the same model as
// compressed rows of the same documents: the same topics at every restart, Φ and the
// log-likelihoods equal up to the order of the sums. The data span several document blocks and
// several word blocks.
func TestTopicModelDenseRowsAgree(t *testing.T) {
	docs := denseMixture(rand.New(rand.NewPCG(19, 20)), 2*docBlock+7, 4, wordBlock+300)
	dense, err := readDocuments("test", docs)
	if err != nil {
		t.Fatal(err)
	}
	if dense.dense == nil {
		t.Fatal("readDocuments kept compressed rows for documents without a zero count")
	}
	sparse := compressedCounts(docs)
	opts := TopicModelOptions{MaxIter: defaultTopicMaxIter, Smoothing: defaultTopicSmoothing}
	fit := func(c *counts, seed uint64) *TopicModel {
		m, err := c.hardEM(context.Background(), rand.New(rand.NewPCG(seed, 1)), 4, opts)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for seed := range uint64(3) {
		a, b := fit(dense, seed), fit(sparse, seed)
		if !slices.Equal(a.Topics, b.Topics) || a.Iterations != b.Iterations {
			t.Fatalf("seed %d: dense and compressed rows give different topics (%d and %d iterations)", seed, a.Iterations, b.Iterations)
		}
		if !mat.EqualApprox(a.Phi, b.Phi, 1e-13) || math.Abs(a.LogLikelihood-b.LogLikelihood) > 1e-12*math.Abs(b.LogLikelihood) ||
			math.Abs(a.CompleteLogLikelihood-b.CompleteLogLikelihood) > 1e-12*math.Abs(b.CompleteLogLikelihood) {
			t.Errorf("seed %d: Φ or log-likelihoods differ: %g against %g", seed, a.LogLikelihood, b.LogLikelihood)
		}
	}
}

// readDocuments switches to dense rows as soon as a quarter of the D·V counts are stored: one
// document of 8 words with 1, 2 or 8 counts; and four documents whose first two hold one count
// each, so that the switch happens at the third and the fourth is written straight into the dense
// rows.
func TestReadDocumentsSwitchesToDenseRows(t *testing.T) {
	for _, c := range []struct {
		fill      int
		wantDense bool
	}{{1, false}, {2, true}, {8, true}} {
		doc := rowDocs{words: 8}
		row := map[int]float64{}
		for w := range c.fill {
			row[w] = 1
		}
		doc.add(row)
		got, err := readDocuments("test", doc)
		if err != nil {
			t.Fatal(err)
		}
		if (got.dense != nil) != c.wantDense {
			t.Errorf("%d of 8 counts stored: dense rows %v, want %v", c.fill, got.dense != nil, c.wantDense)
		}
	}
	docs := rowDocs{words: 8}
	docs.add(map[int]float64{3: 1.5})
	docs.add(map[int]float64{0: 2})
	want := []float64{0, 0, 0, 1.5, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}
	for d := 2; d < 4; d++ {
		row := map[int]float64{}
		for w := range 8 {
			row[w] = float64(10*d + w)
			want = append(want, float64(10*d+w))
		}
		docs.add(row)
	}
	got, err := readDocuments("test", docs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.dense, want) || got.ids != nil || got.vals != nil || got.start != nil {
		t.Errorf("dense rows %v (compressed rows released: %v), want %v", got.dense, got.ids == nil && got.vals == nil && got.start == nil, want)
	}
}

// BenchmarkTopicModelDenseRows runs hard EM (T = 30, 5 iterations) on 4000 documents × 5000 words
// of fractional counts, three quarters of them non-zero (like slides_table2's reconstructions),
// stored in dense rows as readDocuments stores them and, for comparison, in compressed rows.
func BenchmarkTopicModelDenseRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const D, V, T = 4000, 5000, 30
	docs := rowDocs{words: V}
	for range D {
		c := map[int]float64{}
		for w := range V {
			if rng.IntN(4) > 0 {
				c[w] = rng.ExpFloat64()
			}
		}
		docs.add(c)
	}
	dense, err := readDocuments("bench", docs)
	if err != nil || dense.dense == nil {
		b.Fatal("documents not stored in dense rows", err)
	}
	opts := TopicModelOptions{MaxIter: 5, Smoothing: defaultTopicSmoothing}
	for name, c := range map[string]*counts{"dense": dense, "compressed": compressedCounts(docs)} {
		b.Run(name, func(b *testing.B) {
			iterations := 0
			for b.Loop() {
				m, err := c.hardEM(context.Background(), rng, T, opts)
				if err != nil {
					b.Fatal(err)
				}
				iterations += m.Iterations
			}
			b.ReportMetric(D*float64(iterations)/b.Elapsed().Seconds(), "docs·iter/s")
		})
	}
}
