package learn

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/ctxcheck"
	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/internal/memlimit"
	"github.com/fastkernels/kernellab/lab/internal/parallel"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// Documents is a documents×words matrix of counts read one document at a time: Row(i) returns
// the word IDs (distinct, in [0, words)) of document i and their counts (finite, ≥ 0; fractional
// counts such as those of a clipped low-rank reconstruction are fine). lab/csr.Matrix and
// lab/text.BagOfWords satisfy it. [FitTopicModel] reads every row once, so a Row that computes its
// row on the fly is called once per document.
type Documents interface {
	Dims() (docs, words int)
	Row(i int) (words []int, counts []float64)
}

// TopicModelOptions tunes [FitTopicModel]; the zero value selects the defaults given for each field.
type TopicModelOptions struct {
	// MaxIter bounds the EM iterations of each restart (0 selects 100); a restart also stops
	// when no document changes topic, a fixed point of hard EM.
	MaxIter int
	// Restarts is the number of runs from different random seeds; the run with the highest
	// log-likelihood is kept (0 selects 1).
	Restarts int
	// Smoothing is the β of the M-step φ_tw = (n_tw + β) / (n_t + Vβ), additive (Lidstone)
	// smoothing: the MAP estimate under a symmetric Dirichlet(1 + β) prior on each topic's word
	// distribution. It keeps every φ_tw > 0, so that a word a topic has not seen does not make a
	// document impossible for it (0 selects 0.01). A β below minTopicSmoothing (10⁻³⁰⁰) is
	// refused: φ_tw = β / (n_t + Vβ) of an unseen word would underflow to 0 and its log to −∞.
	Smoothing float64
}

const (
	defaultTopicMaxIter   = 100
	defaultTopicRestarts  = 1
	defaultTopicSmoothing = 0.01
	// minTopicSmoothing is the smallest β > 0 accepted: β / (n_t + Vβ) stays above the smallest
	// float64 (5·10⁻³²⁴) for every topic of up to 2·10²³ words.
	minTopicSmoothing = 1e-300
)

// TopicModel is a fitted one-topic-per-document model (a mixture of unigrams): document d has a
// single topic t_d drawn from π, and each of its words is drawn from the topic's word
// distribution φ_{t_d}, so p(W, t | Φ, π) = Π_d π_{t_d} Π_n φ_{t_d w_dn}.
type TopicModel struct {
	// Phi is the T×V topic-word matrix: row t is the word distribution of topic t (sums to 1).
	Phi *mat.Dense
	// Pi[t] is the prior probability of topic t: the fraction of documents assigned to it.
	Pi []float64
	// Topics[d] is the topic of training document d after the last E-step.
	Topics []int
	// LogLikelihood is the incomplete-data log-likelihood Σ_d log Σ_t π_t Π_w φ_tw^{n_dw} of
	// the training documents, the quantity the deck maximises and restarts are compared by.
	LogLikelihood float64
	// CompleteLogLikelihood is Σ_d [log π_{t_d} + Σ_w n_dw log φ_{t_d w}], the objective of
	// hard EM at the returned topics.
	CompleteLogLikelihood float64
	// Iterations is the number of EM iterations of the kept restart; Restart its index.
	Iterations, Restart int
}

// FitTopicModel fits the student slides' topic model (experiment 2: "LDA" by hard EM) with T
// topics to the documents×words counts docs. Each restart seeds the T topic-word distributions
// with the smoothed word distributions of T distinct documents drawn at random and π uniform,
// then alternates
//
//   - E-step: KL(q(t) ‖ p(t | W, Φ, π)) → min over q in the delta functions, i.e. each document
//     takes its most likely topic t_d = argmax_t log π_t + Σ_w n_dw log φ_tw (lowest t on ties);
//   - M-step: E_q log p(W, t | Φ, π) → max over Φ and π, i.e. φ_tw = (n_tw + β)/(n_t + Vβ) with
//     n_tw the count of word w in the documents of topic t and β = opts.Smoothing, and
//     π_t = (documents of topic t)/D;
//
// until no document changes topic or opts.MaxIter iterations are done. A topic left without
// documents is given the document that its own topic explains worst (lowest log π + Σ n log φ
// per word, taken from a topic with two or more documents), as k-means re-seeds an empty cluster,
// so all T topics stay in use. Of opts.Restarts restarts the one with the highest
// LogLikelihood is kept.
//
// rng drives the seeding only; the E-step runs on GOMAXPROCS goroutines over blocks of
// documents and does not change the result. Errors: nil rng or docs, T < 1 or T > D, a row
// with word IDs out of range or repeated, words and counts of different lengths, negative, NaN
// or ±Inf counts, negative or NaN options. Cost: O(nnz·T) time per iteration (nnz the non-zero
// counts), O(nnz + T·V + D·T) memory (the rows are copied once). Documents with at least a
// quarter of their D·V counts non-zero (a clipped low-rank reconstruction, not a bag of words)
// are kept in dense rows instead: O(D·V·T) time per iteration, but as one matrix product, about
// 3 times as fast as the compressed rows at three quarters non-zero
// (BenchmarkTopicModelDenseRows), and O(D·V) memory, no more than twice the compressed copy
// would take.
func FitTopicModel(rng *rand.Rand, docs Documents, T int, opts TopicModelOptions) (*TopicModel, error) {
	return FitTopicModelContext(context.Background(), rng, docs, T, opts)
}

// FitTopicModelContext is [FitTopicModel] that gives up with ctx's error when ctx is cancelled: it
// looks once per EM iteration (one pass over the documents), so that a fit of many minutes (10
// restarts on a 50,000-document reconstruction take a quarter of an hour) stops within one
// iteration of being asked to.
func FitTopicModelContext(ctx context.Context, rng *rand.Rand, docs Documents, T int, opts TopicModelOptions) (*TopicModel, error) {
	const op = "FitTopicModel"
	if err := ctxcheck.NotNil(ctx, "learn: "+op); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, laberr.Errorf(laberr.ErrNilRand, "learn: %s: nil rng", op)
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	c, err := readDocuments(op, docs)
	if err != nil {
		return nil, err
	}
	if T < 1 || T > c.docs {
		return nil, fmt.Errorf("learn: %s: T = %d topics, want 1 ≤ T ≤ D = %d (the number of documents)", op, T, c.docs)
	}
	// Φ and its log, T×V each, and the scores of every document, D×T.
	if err := memlimit.Check("learn: "+op, fmt.Sprintf("the %d×%d topic-word probabilities", T, c.words), 8*3, T, c.words); err != nil {
		return nil, err
	}
	if err := memlimit.Check("learn: "+op, fmt.Sprintf("the %d×%d document scores", c.docs, T), 8, c.docs, T); err != nil {
		return nil, err
	}
	var best *TopicModel
	for r := range opts.Restarts {
		m, err := c.hardEM(ctx, rng, T, opts)
		if err != nil {
			return nil, err
		}
		m.Restart = r
		if best == nil || m.LogLikelihood > best.LogLikelihood {
			best = m
		}
	}
	if best.LogLikelihood-best.LogLikelihood != 0 {
		return nil, fmt.Errorf("learn: %s: the log-likelihood is %g; the counts are too large, rescale them", op, best.LogLikelihood)
	}
	return best, nil
}

// withDefaults validates the options and fills in the zero fields.
func (o TopicModelOptions) withDefaults() (TopicModelOptions, error) {
	const op = "learn: FitTopicModel"
	switch {
	case o.MaxIter < 0:
		return o, fmt.Errorf("%s: MaxIter = %d, want ≥ 0 (0 selects %d)", op, o.MaxIter, defaultTopicMaxIter)
	case o.Restarts < 0:
		return o, fmt.Errorf("%s: Restarts = %d, want ≥ 0 (0 selects %d)", op, o.Restarts, defaultTopicRestarts)
	case !(o.Smoothing >= 0) || math.IsInf(o.Smoothing, 0) || o.Smoothing > 0 && o.Smoothing < minTopicSmoothing:
		return o, fmt.Errorf("%s: Smoothing = %g, want a finite β ≥ %g (smaller ones underflow the probabilities of unseen words to 0), or 0 to select %g",
			op, o.Smoothing, minTopicSmoothing, defaultTopicSmoothing)
	}
	return TopicModelOptions{
		MaxIter:   orDefault(o.MaxIter, defaultTopicMaxIter),
		Restarts:  orDefault(o.Restarts, defaultTopicRestarts),
		Smoothing: orDefault(o.Smoothing, defaultTopicSmoothing),
	}, nil
}

// LogPosterior returns the D×T matrix of log p(t | W_d, Φ, π) for the documents docs (same
// vocabulary): the soft topic distribution q(t_d) that the deck's score compares between models.
// Log-probabilities stay finite where the probabilities underflow. Errors: a zero model, and
// those of [FitTopicModel]'s reading of docs, a vocabulary of another size included. Cost as one
// E-step.
func (m *TopicModel) LogPosterior(docs Documents) (*mat.Dense, error) {
	const op = "TopicModel.LogPosterior"
	if m == nil || m.Phi == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "learn: %s: the model is not fitted (use FitTopicModel)", op)
	}
	c, err := readDocuments(op, docs)
	if err != nil {
		return nil, err
	}
	T, V := m.Phi.Dims()
	if c.words != V {
		return nil, fmt.Errorf("learn: %s: docs have %d words but the model's vocabulary has %d", op, c.words, V)
	}
	if err := memlimit.Check("learn: "+op, fmt.Sprintf("the %d×%d log posteriors", c.docs, T), 8, c.docs, T); err != nil {
		return nil, err
	}
	scores := make([]float64, c.docs*T)
	c.scores(newLogParams(m.Phi, m.Pi), scores)
	for d := range c.docs {
		row := scores[d*T : (d+1)*T]
		lse := logSumExp(row)
		if lse-lse != 0 {
			return nil, fmt.Errorf("learn: %s: document %d has log-likelihood %g; its counts are too large, rescale them", op, d, lse)
		}
		for t := range row {
			row[t] -= lse
		}
	}
	return mat.NewDense(c.docs, T, scores), nil
}

// TopWords returns the IDs of the k most probable words of topic t, most probable first (lowest
// ID on ties): the rows of the deck's top-words table (slides_table3). Errors: a zero model, t
// outside [0, T), k outside [1, V].
func (m *TopicModel) TopWords(t, k int) ([]int, error) {
	if m == nil || m.Phi == nil {
		return nil, laberr.Errorf(laberr.ErrNotFitted, "learn: TopicModel.TopWords: the model is not fitted (use FitTopicModel)")
	}
	T, V := m.Phi.Dims()
	if t < 0 || t >= T || k < 1 || k > V {
		return nil, fmt.Errorf("learn: TopicModel.TopWords: topic %d and k = %d, want 0 ≤ topic < %d and 1 ≤ k ≤ %d", t, k, T, V)
	}
	phi := m.Phi.RawRowView(t)
	ids := make([]int, V)
	for w := range ids {
		ids[w] = w
	}
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(phi[b], phi[a]) })
	return ids[:k:k], nil
}

// counts is a validated copy of a Documents matrix: in compressed rows, or in dense rows when
// at least a quarter of its entries are stored (see toDense).
type counts struct {
	docs, words int
	start       []int // row d is ids/vals[start[d]:start[d+1]]
	ids         []int
	vals        []float64
	// dense, when not nil, holds the docs×words counts row-major, and start, ids and vals are nil.
	dense []float64
	// totals[d] is the sum of the counts of document d.
	totals []float64
}

// row returns the word IDs and counts of document d; compressed rows only.
func (c *counts) row(d int) ([]int, []float64) {
	return c.ids[c.start[d]:c.start[d+1]], c.vals[c.start[d]:c.start[d+1]]
}

// denseRow returns the counts of document d, one per word; dense rows only.
func (c *counts) denseRow(d int) []float64 { return c.dense[d*c.words : (d+1)*c.words] }

// addRow adds the counts of document d to dst (one entry per word) and, one by one, to *total.
func (c *counts) addRow(d int, dst []float64, total *float64) {
	if c.dense != nil {
		for w, v := range c.denseRow(d) {
			dst[w] += v
			*total += v
		}
		return
	}
	ids, vals := c.row(d)
	for k, w := range ids {
		dst[w] += vals[k]
		*total += vals[k]
	}
}

// sumTotals sets c.totals[d] to the sum of the counts of document d, once, so that re-seeding
// an empty topic (which compares every document's fit per word) costs O(D), not a pass over the
// counts per empty topic.
func (c *counts) sumTotals() {
	c.totals = make([]float64, c.docs)
	for d := range c.docs {
		if c.dense != nil {
			c.totals[d] = sumOf(c.denseRow(d))
			continue
		}
		_, vals := c.row(d)
		c.totals[d] = sumOf(vals)
	}
}

// minDenseFill is the fraction of stored (non-zero) counts from which readDocuments stores the
// documents in dense rows: a clipped low-rank reconstruction (slides_table2's at quick scale) has
// 70–80% of its entries positive. Dense rows then take at most twice the memory of compressed ones
// (8 bytes per entry against 16 per stored count), and the E-step becomes one matrix product
// (BLAS level 3) instead of a scalar loop over the stored counts.
const minDenseFill = 0.25

// toDense moves the first rows documents of c, read so far in compressed rows, into dense rows
// for all documents and releases the compressed ones. readDocuments calls it as soon as the
// documents read hold minDenseFill·D·V stored counts, so that the compressed copy never grows
// beyond that (4 bytes per entry), and writes the rest of the documents straight into the dense
// rows.
func (c *counts) toDense(rows int) {
	c.dense = make([]float64, c.docs*c.words)
	for d := range rows {
		ids, vals := c.row(d)
		row := c.denseRow(d)
		for k, w := range ids {
			row[w] = vals[k]
		}
	}
	c.start, c.ids, c.vals = nil, nil, nil
}

// readDocuments checks docs and copies its rows.
func readDocuments(op string, docs Documents) (*counts, error) {
	if err := matcheck.NotNil("learn: "+op, "documents", docs); err != nil {
		return nil, err
	}
	D, V := docs.Dims()
	if D < 1 || V < 1 {
		return nil, fmt.Errorf("learn: %s: documents are %d×%d, want at least one document and one word", op, D, V)
	}
	if err := memlimit.Check("learn: "+op, fmt.Sprintf("the word index of %d words", V), 8, V); err != nil {
		return nil, err
	}
	if err := memlimit.Check("learn: "+op, fmt.Sprintf("the row starts of %d documents", D), 8, D, 2); err != nil {
		return nil, err
	}
	c := &counts{docs: D, words: V, start: make([]int, D+1)}
	seen := make([]int, V) // seen[w] = d+1 when word w occurred in document d
	for d := range D {
		ids, vals := docs.Row(d)
		if len(ids) != len(vals) {
			return nil, laberr.Errorf(laberr.ErrShape, "learn: %s: document %d has %d word IDs but %d counts", op, d, len(ids), len(vals))
		}
		for k, w := range ids {
			if w < 0 || w >= V {
				return nil, fmt.Errorf("learn: %s: document %d has word ID %d, want 0 ≤ ID < %d", op, d, w, V)
			}
			if seen[w] == d+1 {
				return nil, fmt.Errorf("learn: %s: document %d has word ID %d twice", op, d, w)
			}
			seen[w] = d + 1
			if v := vals[k]; !(v >= 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("learn: %s: document %d has count %g for word %d, want a finite count ≥ 0", op, d, v, w)
			}
		}
		if c.dense != nil {
			row := c.denseRow(d)
			for k, w := range ids {
				row[w] = vals[k]
			}
			continue
		}
		c.ids = append(c.ids, ids...)
		c.vals = append(c.vals, vals...)
		c.start[d+1] = len(c.ids)
		if float64(len(c.ids)) >= minDenseFill*float64(D)*float64(V) {
			c.toDense(d + 1)
		}
	}
	c.sumTotals()
	return c, nil
}

// logParams holds log Φ transposed (V×T, so that one word's values for all topics are
// contiguous) and log π.
type logParams struct {
	logPhiT []float64
	logPi   []float64
}

func newLogParams(phi *mat.Dense, pi []float64) logParams {
	T, V := phi.Dims()
	p := logParams{logPhiT: make([]float64, V*T), logPi: make([]float64, T)}
	for t := range T {
		for w, v := range phi.RawRowView(t) {
			p.logPhiT[w*T+t] = math.Log(v)
		}
		p.logPi[t] = math.Log(pi[t])
	}
	return p
}

// docBlock is the number of documents one goroutine scores at a time; wordBlock the number of
// words one goroutine of the dense M-step sums.
const (
	docBlock  = 256
	wordBlock = 1024
)

// scores sets scores[d*T+t] = log π_t + Σ_w n_dw log φ_tw for all documents, in parallel over
// blocks of documents (each document by one goroutine, so the sums do not depend on the count).
// Dense rows take each block's sums as one matrix product, counts·(log Φ)ᵀ.
func (c *counts) scores(p logParams, scores []float64) {
	T := len(p.logPi)
	logPhiT := blas64.General{Rows: c.words, Cols: T, Stride: T, Data: p.logPhiT}
	_ = parallel.Blocks(c.docs, docBlock, func(_, lo, hi int) error {
		if c.dense != nil {
			block := blas64.General{Rows: hi - lo, Cols: c.words, Stride: c.words, Data: c.dense[lo*c.words : hi*c.words]}
			out := blas64.General{Rows: hi - lo, Cols: T, Stride: T, Data: scores[lo*T : hi*T]}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, block, logPhiT, 0, out)
			for d := range hi - lo {
				floats.Add(scores[(lo+d)*T:(lo+d+1)*T], p.logPi)
			}
			return nil
		}
		for d := lo; d < hi; d++ {
			row := scores[d*T : (d+1)*T]
			copy(row, p.logPi)
			ids, vals := c.row(d)
			for k, w := range ids {
				floats.AddScaled(row, vals[k], p.logPhiT[w*T:(w+1)*T])
			}
		}
		return nil
	})
}

// hardEM runs one restart of FitTopicModel; it returns ctx's error if ctx is cancelled.
func (c *counts) hardEM(ctx context.Context, rng *rand.Rand, T int, opts TopicModelOptions) (*TopicModel, error) {
	phi := mat.NewDense(T, c.words, nil)
	pi := make([]float64, T)
	for t, d := range rng.Perm(c.docs)[:T] {
		row := phi.RawRowView(t)
		var total float64
		c.addRow(d, row, &total)
		normaliseSmoothed(row, total, opts.Smoothing)
		pi[t] = 1 / float64(T)
	}
	topics := make([]int, c.docs)
	for d := range topics {
		topics[d] = -1
	}
	scores := make([]float64, c.docs*T)
	m := &TopicModel{Phi: phi, Pi: pi, Topics: topics}
	for m.Iterations < opts.MaxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m.Iterations++
		c.scores(newLogParams(phi, pi), scores)
		if !c.assign(scores, T, topics) {
			break
		}
		c.reseedEmpty(scores, T, topics)
		c.mStep(T, topics, opts.Smoothing, phi, pi)
	}
	c.scores(newLogParams(phi, pi), scores)
	c.assign(scores, T, topics)
	for d, t := range topics {
		row := scores[d*T : (d+1)*T]
		m.LogLikelihood += logSumExp(row)
		m.CompleteLogLikelihood += row[t]
	}
	return m, nil
}

// assign sets topics[d] to the best-scoring topic of each document and reports whether any
// changed.
func (c *counts) assign(scores []float64, T int, topics []int) bool {
	changed := false
	for d := range topics {
		row := scores[d*T : (d+1)*T]
		best := 0
		for t, s := range row {
			if s > row[best] {
				best = t
			}
		}
		if topics[d] != best {
			topics[d], changed = best, true
		}
	}
	return changed
}

// reseedEmpty moves into each topic without documents the document whose own topic explains it
// worst per word, among topics with two or more documents (one exists by pigeonhole: T ≤ D).
func (c *counts) reseedEmpty(scores []float64, T int, topics []int) {
	size := make([]int, T)
	for _, t := range topics {
		size[t]++
	}
	for empty := range T {
		if size[empty] > 0 {
			continue
		}
		worst, worstFit := -1, math.Inf(1)
		for d, t := range topics {
			if size[t] < 2 {
				continue
			}
			fit := scores[d*T+t] / max(1, c.totals[d])
			if worst < 0 || fit < worstFit {
				worst, worstFit = d, fit
			}
		}
		if worst < 0 {
			panic("learn: topic model found an empty topic but no topic of two or more documents although T ≤ D")
		}
		size[topics[worst]]--
		size[empty] = 1
		topics[worst] = empty
	}
}

// mStep sets φ_t to the smoothed word distribution of the documents of topic t and π_t to their
// fraction. Dense rows are added in parallel over blocks of words, and a topic's total is the sum
// of its word counts; compressed rows in parallel over topics. Either way each sum still runs over
// the documents in order, so the result does not depend on the number of goroutines.
func (c *counts) mStep(T int, topics []int, beta float64, phi *mat.Dense, pi []float64) {
	phi.Zero()
	clear(pi)
	totals := make([]float64, T)
	for _, t := range topics {
		pi[t]++
	}
	if c.dense != nil {
		_ = parallel.Blocks(c.words, wordBlock, func(_, lo, hi int) error {
			for d, t := range topics {
				floats.Add(phi.RawRowView(t)[lo:hi], c.denseRow(d)[lo:hi])
			}
			return nil
		})
		for t := range T {
			totals[t] = sumOf(phi.RawRowView(t))
		}
	} else {
		members := make([][]int, T)
		for d, t := range topics {
			members[t] = append(members[t], d)
		}
		parallel.For(T, func(_, t int) {
			row := phi.RawRowView(t)
			for _, d := range members[t] {
				c.addRow(d, row, &totals[t])
			}
		})
	}
	for t := range T {
		normaliseSmoothed(phi.RawRowView(t), totals[t], beta)
		pi[t] /= float64(len(topics))
	}
}

// normaliseSmoothed turns the word counts row (summing to total) into (n_w + β)/(total + Vβ).
func normaliseSmoothed(row []float64, total, beta float64) {
	inv := 1 / (total + float64(len(row))*beta)
	for w, n := range row {
		row[w] = (n + beta) * inv
	}
}

func sumOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// logSumExp returns log Σ exp(v_i), shifted by the maximum so that it neither overflows nor
// underflows.
func logSumExp(v []float64) float64 {
	m := slices.Max(v)
	if math.IsInf(m, 0) {
		return m
	}
	var s float64
	for _, x := range v {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}
