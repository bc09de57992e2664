package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/internal/matcheck"
	"github.com/fastkernels/kernellab/lab/laberr"
)

// MatchTopics matches the topics of two fitted models, whose labels are arbitrary, through their
// log posteriors on the same D documents ([TopicModel.LogPosterior]: P for the reference model, Q
// for the other, both D×T): it returns the one-to-one map σ (match[t] = σ(t), topic t of P to
// topic σ(t) of Q) that minimises the total divergence Σ_d KL(p_d ‖ q_d∘σ), where
// KL(p_d ‖ q_d∘σ) = Σ_t p_dt (log p_dt − log q_{d,σ(t)}), and the mean over documents of that
// minimal divergence. This is the deck's "minimum over all matchings" (the student slides, experiment 2)
// taken once per pair of models, so that a topic means one thing across all documents; the sum
// is linear in the matching, hence an assignment problem on the T×T costs
// C[t,s] = Σ_d p_dt (log p_dt − log q_ds), solved exactly by Assignment.
//
// Errors: nil or empty P or Q, NaN or ±Inf in them, different shapes. Cost: O(D·T²) time, O(T²)
// memory besides the inputs.
func MatchTopics(P, Q mat.Matrix) (match []int, meanKL float64, err error) {
	p, q, err := posteriorPair("MatchTopics", P, Q)
	if err != nil {
		return nil, 0, err
	}
	D, T := p.Dims()
	cost := mat.NewDense(T, T, nil)
	for d := range D {
		pd, qd := p.RawRowView(d), q.RawRowView(d)
		for t, lp := range pd {
			w := math.Exp(lp)
			if w == 0 {
				continue
			}
			row := cost.RawRowView(t)
			for s, lq := range qd {
				row[s] += w * (lp - lq)
			}
		}
	}
	match, total, err := Assignment(cost)
	if err != nil {
		return nil, 0, fmt.Errorf("learn: MatchTopics: %w", err)
	}
	return match, max(0, total/float64(D)), nil
}

// MatchedKL returns KL(p_d ‖ q_d∘σ) for each document d, with σ = match as returned by
// [MatchTopics] (clipped at 0 against rounding). Errors: those of MatchTopics, and a match that is
// not a permutation of the T topics.
func MatchedKL(P, Q mat.Matrix, match []int) ([]float64, error) {
	const op = "MatchedKL"
	p, q, err := posteriorPair(op, P, Q)
	if err != nil {
		return nil, err
	}
	D, T := p.Dims()
	seen := make([]bool, T)
	if len(match) != T {
		return nil, laberr.Errorf(laberr.ErrShape, "learn: %s: len(match) = %d, want T = %d", op, len(match), T)
	}
	for t, s := range match {
		if s < 0 || s >= T || seen[s] {
			return nil, fmt.Errorf("learn: %s: match[%d] = %d is not a permutation of 0…%d", op, t, s, T-1)
		}
		seen[s] = true
	}
	kl := make([]float64, D)
	for d := range D {
		pd, qd := p.RawRowView(d), q.RawRowView(d)
		var s float64
		for t, lp := range pd {
			if w := math.Exp(lp); w > 0 {
				s += w * (lp - qd[match[t]])
			}
		}
		kl[d] = max(0, s)
	}
	return kl, nil
}

// TopicScore is the deck's score of a topic model against a guarantor ([TopicAgreement]).
type TopicScore struct {
	// Score is the mean over the documents used of Σ_j KL_dj / 𝔻_j KL_dj (smaller is better).
	Score float64
	// Used documents entered the mean; Skipped had a zero variance over the guarantor runs (the
	// ratio is then 0/0 or infinite).
	Used, Skipped int
	// MeanKL[j] is the mean over all documents of KL_dj: the divergence to guarantor run j.
	MeanKL []float64
}

// TopicAgreement scores a model against a guarantor (the student slides, experiment 2,
// slides_table2): best is the log posterior (D×T, [TopicModel.LogPosterior]) of the most likely of
// a method's runs, guarantors those of the J guarantor runs on the original counts, all on the
// same documents. The deck defines, quoted from the slide,
//
//	Score = \frac{1}{N} \sum_i \frac{\sum_j KL(q_{\max}(t_i) \| q_{garant}^j(t_i))_{\min}}{\mathbb{D}KL(q_{\max}(t_i) \| q_{garant}(t_i))_{\min}}
//
// ("Меньше – лучше": smaller is better), where q(t_i) is the posterior topic distribution of
// document i and the subscript min the minimum over all matchings of the topics. Read here:
// KL_ij = KL(q_max(t_i) ‖ q^j(t_i)) with the topics of run j matched to best's by [MatchTopics] (one
// matching per run, minimising the total over documents), and 𝔻 the variance over the guarantor
// runs j (the deck writes 𝔼 for expectation in the same blackboard style; population variance,
// 1/J). A document whose KL_ij are all equal has no finite ratio and is skipped and counted; the
// deck warns that the score is very unstable, which this denominator explains.
//
// Errors: those of MatchTopics for any pair, fewer than two guarantor runs, every document
// skipped. Cost: J times MatchTopics.
func TopicAgreement(best mat.Matrix, guarantors []mat.Matrix) (*TopicScore, error) {
	const op = "TopicAgreement"
	if len(guarantors) < 2 {
		return nil, fmt.Errorf("learn: %s: %d guarantor runs, want at least 2 (the score divides by their variance)", op, len(guarantors))
	}
	J := len(guarantors)
	var kls [][]float64
	res := &TopicScore{MeanKL: make([]float64, J)}
	for j, g := range guarantors {
		match, mean, err := MatchTopics(best, g)
		if err != nil {
			return nil, fmt.Errorf("learn: %s: guarantor run %d: %w", op, j, err)
		}
		kl, err := MatchedKL(best, g, match)
		if err != nil {
			return nil, fmt.Errorf("learn: %s: guarantor run %d: %w", op, j, err)
		}
		kls, res.MeanKL[j] = append(kls, kl), mean
	}
	var sum float64
	for d := range kls[0] {
		var s, s2 float64
		for j := range J {
			s += kls[j][d]
		}
		mean := s / float64(J)
		for j := range J {
			s2 += (kls[j][d] - mean) * (kls[j][d] - mean)
		}
		if ratio := s / (s2 / float64(J)); s2 > 0 && ratio-ratio == 0 {
			sum += ratio
			res.Used++
		} else {
			res.Skipped++
		}
	}
	if res.Used == 0 {
		return nil, fmt.Errorf("learn: %s: all %d documents have the same divergence to every guarantor run; the score is undefined", op, res.Skipped)
	}
	res.Score = sum / float64(res.Used)
	return res, nil
}

// posteriorPair validates two D×T log-posterior matrices of the same shape.
func posteriorPair(op string, P, Q mat.Matrix) (*mat.Dense, *mat.Dense, error) {
	p, err := matcheck.Dense("learn: "+op, "P", P)
	if err != nil {
		return nil, nil, err
	}
	q, err := matcheck.Dense("learn: "+op, "Q", Q)
	if err != nil {
		return nil, nil, err
	}
	pr, pc := p.Dims()
	if qr, qc := q.Dims(); pr != qr || pc != qc {
		return nil, nil, laberr.Errorf(laberr.ErrShape, "learn: %s: P is %d×%d but Q is %d×%d", op, pr, pc, qr, qc)
	}
	return p, q, nil
}
