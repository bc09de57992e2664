package text

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fastkernels/kernellab/lab/dataset"
)

// Options tunes Build; the zero value selects the defaults given for each field.
type Options struct {
	// StopWords are removed from the tokens; nil selects EnglishStopWords, an empty non-nil
	// slice removes none.
	StopWords []string
	// MinDF drops the words that occur in fewer than MinDF documents (scikit-learn's integer
	// min_df); 0 selects 1, which keeps every word.
	MinDF int
	// MaxDF drops the words that occur in more than the fraction MaxDF of the documents
	// (scikit-learn's float max_df), corpus-specific stop words; 0 selects 1, which keeps them.
	MaxDF float64
	// MaxWords keeps the MaxWords words of highest total count after the document-frequency
	// filters (scikit-learn's max_features; ties go to the alphabetically first); 0 keeps all.
	MaxWords int
}

// BagOfWords is a documents×words count matrix in compressed rows with its vocabulary.
type BagOfWords struct {
	// Vocabulary[j] is word j; the words are sorted (byte order), as scikit-learn sorts them.
	Vocabulary []string
	// Words[i] are the IDs of the words of document i, increasing, and Counts[i] their counts.
	// A document can be empty (all of its tokens filtered out).
	Words  [][]int
	Counts [][]float64
	// DocFreq[j] is the number of documents in which word j occurs.
	DocFreq []int
}

// Dims returns the number of documents and of words (0, 0 for a nil *BagOfWords, which holds
// none).
func (b *BagOfWords) Dims() (docs, words int) {
	if b == nil {
		return 0, 0
	}
	return len(b.Words), len(b.Vocabulary)
}

// Row returns the word IDs and counts of document i (shared, not copied), nil for i outside
// [0, docs); nil counts for a document whose Counts are missing (a hand-made BagOfWords whose
// Counts are shorter than its Words, which learn's readers then refuse). With Dims it makes a
// BagOfWords a learn.Documents.
func (b *BagOfWords) Row(i int) (words []int, counts []float64) {
	if b == nil || i < 0 || i >= len(b.Words) {
		return nil, nil
	}
	if i >= len(b.Counts) {
		return b.Words[i], nil
	}
	return b.Words[i], b.Counts[i]
}

// NNZ returns the number of stored (document, word) counts.
func (b *BagOfWords) NNZ() int {
	if b == nil {
		return 0
	}
	n := 0
	for _, w := range b.Words {
		n += len(w)
	}
	return n
}

// Tokenize lower-cases doc and returns its tokens: the maximal runs of two or more word
// characters (Unicode letters and digits, and '_'), in order. For ASCII text this is
// scikit-learn's default token_pattern (?u)\b\w\w+\b after its default lower-casing; bytes that
// are not valid UTF-8 separate tokens.
func Tokenize(doc string) []string {
	var tokens []string
	start, runes := -1, 0
	lower := strings.ToLower(doc)
	for i, r := range lower {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			if start < 0 {
				start, runes = i, 0
			}
			runes++
			continue
		}
		if start >= 0 && runes >= 2 {
			tokens = append(tokens, lower[start:i])
		}
		start = -1
	}
	if start >= 0 && runes >= 2 {
		tokens = append(tokens, lower[start:])
	}
	return tokens
}

// Build counts the tokens (Tokenize) of each document, without the stop words, and keeps the
// words that pass the document-frequency filters of opts (then MaxWords): the bag of words of
// the topic model.
//
// Errors: no documents, MinDF < 0, MaxDF outside [0, 1], MaxWords < 0, and no word left after
// the filters. Cost: O(total length) time; memory O(vocabulary + stored counts).
func Build(docs []string, opts Options) (*BagOfWords, error) {
	if len(docs) == 0 {
		return nil, fmt.Errorf("text: Build: no documents")
	}
	if opts.MinDF < 0 || !(opts.MaxDF >= 0 && opts.MaxDF <= 1) || opts.MaxWords < 0 {
		return nil, fmt.Errorf("text: Build: options MinDF=%d MaxDF=%g MaxWords=%d, want MinDF ≥ 0, 0 ≤ MaxDF ≤ 1 and MaxWords ≥ 0 (0 selects the default)",
			opts.MinDF, opts.MaxDF, opts.MaxWords)
	}
	stop := opts.StopWords
	if stop == nil {
		stop = englishStopWords
	}
	isStop := make(map[string]bool, len(stop))
	for _, w := range stop {
		isStop[strings.ToLower(w)] = true
	}
	// Count every document against a provisional vocabulary (IDs in order of first sight).
	ids := map[string]int{}
	var words []string
	var df, total []int
	perDoc := make([]map[int]int, len(docs))
	for i, doc := range docs {
		counts := map[int]int{}
		for _, tok := range Tokenize(doc) {
			if isStop[tok] {
				continue
			}
			id, ok := ids[tok]
			if !ok {
				id = len(words)
				ids[tok] = id
				words, df, total = append(words, tok), append(df, 0), append(total, 0)
			}
			if counts[id] == 0 {
				df[id]++
			}
			counts[id]++
			total[id]++
		}
		perDoc[i] = counts
	}
	kept := keptWords(words, df, total, len(docs), opts)
	if len(kept) == 0 {
		return nil, fmt.Errorf("text: Build: no word is left out of %d after the stop words and the filters MinDF=%d MaxDF=%g", len(words), opts.MinDF, opts.MaxDF)
	}
	slices.SortFunc(kept, func(a, b int) int { return cmp.Compare(words[a], words[b]) })
	newID := make([]int, len(words))
	for j := range newID {
		newID[j] = -1
	}
	b := &BagOfWords{
		Vocabulary: make([]string, len(kept)),
		DocFreq:    make([]int, len(kept)),
		Words:      make([][]int, len(docs)),
		Counts:     make([][]float64, len(docs)),
	}
	for j, old := range kept {
		newID[old] = j
		b.Vocabulary[j], b.DocFreq[j] = words[old], df[old]
	}
	for i, counts := range perDoc {
		for old := range counts {
			if j := newID[old]; j >= 0 {
				b.Words[i] = append(b.Words[i], j)
			}
		}
		slices.Sort(b.Words[i])
		b.Counts[i] = make([]float64, len(b.Words[i]))
		for k, j := range b.Words[i] {
			b.Counts[i][k] = float64(counts[kept[j]])
		}
	}
	return b, nil
}

// keptWords returns the provisional IDs of the words that pass MinDF and MaxDF, then the
// MaxWords of highest total count.
func keptWords(words []string, df, total []int, docs int, opts Options) []int {
	minDF := max(1, opts.MinDF)
	maxDF := docs
	if opts.MaxDF > 0 {
		maxDF = int(math.Floor(opts.MaxDF * float64(docs)))
	}
	var kept []int
	for j, f := range df {
		if f >= minDF && f <= maxDF {
			kept = append(kept, j)
		}
	}
	if opts.MaxWords > 0 && len(kept) > opts.MaxWords {
		slices.SortFunc(kept, func(a, b int) int {
			return cmp.Or(cmp.Compare(total[b], total[a]), cmp.Compare(words[a], words[b]))
		})
		kept = kept[:opts.MaxWords]
	}
	return kept
}

// FromCorpus builds the bag of words of a corpus from lab/dataset (Source.Corpus) after removing
// what is markup or encoding rather than text: from corpus_20newsgroups messages the headers
// (everything before the first empty line, as scikit-learn's fetch_20newsgroups(remove=("headers",))
// does) and the encoded lines (EncodedLine: uuencoded and base64 binaries, PGP signatures, whose
// fragments such as "a86", "b8f" and "ax" otherwise fill whole topics), and from
// corpus_imdb_reviews the "<br />" line breaks. Errors: a nil or unknown corpus, and those of Build.
func FromCorpus(c *dataset.Corpus, opts Options) (*BagOfWords, error) {
	if c == nil {
		return nil, fmt.Errorf("text: FromCorpus: nil corpus")
	}
	var clean func(string) string
	switch c.Name {
	case "corpus_20newsgroups":
		clean = func(doc string) string {
			if _, body, ok := strings.Cut(doc, "\n\n"); ok {
				doc = body
			}
			lines := strings.Split(doc, "\n")
			return strings.Join(slices.DeleteFunc(lines, EncodedLine), "\n")
		}
	case "corpus_imdb_reviews":
		clean = func(doc string) string { return strings.ReplaceAll(doc, "<br />", " ") }
	default:
		return nil, fmt.Errorf("text: FromCorpus: corpus %q, want corpus_20newsgroups or corpus_imdb_reviews", c.Name)
	}
	docs := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		docs[i] = clean(d)
	}
	return Build(docs, opts)
}

// EncodedLine reports whether a line of a message is encoding rather than text: at least
// encodedLineMin characters with no space or tab among them once trailing blanks are cut. This
// catches the lines of uuencoded (61 characters) and base64 (64–76) binaries and of PGP
// signatures, which 20 Newsgroups' posts carry in the thousands, and rules of dashes, which hold no
// word; it also drops a URL or path of that length written alone on its line.
func EncodedLine(line string) bool {
	l := strings.TrimRight(line, " \t\r")
	return utf8.RuneCountInString(l) >= encodedLineMin && !strings.ContainsAny(l, " \t")
}

// encodedLineMin is EncodedLine's length: below the shortest encoded lines (uuencode's 61, base64's
// 64) with a margin for short final lines, above the longest single words of English text.
const encodedLineMin = 40
