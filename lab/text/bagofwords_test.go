package text

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/learn"
)

var _ learn.Documents = (*BagOfWords)(nil)

// The expected tokens are Python's re.findall(r"(?u)\b\w\w+\b", s.lower()) (Python 3.13),
// scikit-learn's default tokenisation.
func TestTokenizeAgainstPythonRegexp(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Hello, World! It's a test_case of 42 apples & 7 pears.", []string{"hello", "world", "it", "test_case", "of", "42", "apples", "pears"}},
		{"Ünïcödé naïve café x y zz", []string{"ünïcödé", "naïve", "café", "zz"}},
		{"e-mail: John.Doe@example.com  v2.0 __init__", []string{"mail", "john", "doe", "example", "com", "v2", "__init__"}},
		{"MIXED case Words a b c1", []string{"mixed", "case", "words", "c1"}},
		{"", nil},
	} {
		if got := Tokenize(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Latin-1 bytes (not UTF-8) separate tokens.
	if got := Tokenize("caf\xe9 ol\xe9"); !slices.Equal(got, []string{"caf", "ol"}) {
		t.Errorf("Tokenize(Latin-1) = %q", got)
	}
}

func TestBuildByHand(t *testing.T) {
	docs := []string{
		"The cat sat on the mat. The cat!",
		"A dog and a cat.",
		"Dogs bark; the dog sleeps.",
	}
	b, err := Build(docs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Stop words "the", "on", "a", "and" are removed; words sorted.
	wantVocab := []string{"bark", "cat", "dog", "dogs", "mat", "sat", "sleeps"}
	if !slices.Equal(b.Vocabulary, wantVocab) {
		t.Fatalf("vocabulary %q, want %q", b.Vocabulary, wantVocab)
	}
	wantWords := [][]int{{1, 4, 5}, {1, 2}, {0, 2, 3, 6}}
	wantCounts := [][]float64{{2, 1, 1}, {1, 1}, {1, 1, 1, 1}}
	for i := range docs {
		w, c := b.Row(i)
		if !slices.Equal(w, wantWords[i]) || !slices.Equal(c, wantCounts[i]) {
			t.Errorf("document %d: %v %v, want %v %v", i, w, c, wantWords[i], wantCounts[i])
		}
	}
	if !slices.Equal(b.DocFreq, []int{1, 2, 2, 1, 1, 1, 1}) || b.NNZ() != 9 {
		t.Errorf("DocFreq %v, NNZ %d", b.DocFreq, b.NNZ())
	}
	if d, v := b.Dims(); d != 3 || v != 7 {
		t.Errorf("Dims = %d, %d", d, v)
	}
	if w, c := b.Row(3); w != nil || c != nil {
		t.Error("Row(3) is not empty")
	}
}

// Every option against a brute-force recount of the tokens.
func TestBuildFiltersAgainstRecount(t *testing.T) {
	docs := []string{
		"alpha beta gamma alpha delta", "beta gamma beta", "gamma epsilon alpha",
		"beta beta beta zeta", "the alpha and the omega", "",
	}
	for _, o := range []Options{
		{}, {MinDF: 2}, {MaxDF: 0.5}, {MaxWords: 3}, {StopWords: []string{}}, {StopWords: []string{"ALPHA"}},
		{MinDF: 2, MaxDF: 0.6, MaxWords: 2},
	} {
		b, err := Build(docs, o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		stop := map[string]bool{}
		for _, w := range o.StopWords {
			stop[strings.ToLower(w)] = true
		}
		if o.StopWords == nil {
			for _, w := range EnglishStopWords() {
				stop[w] = true
			}
		}
		df, total := map[string]int{}, map[string]int{}
		for _, d := range docs {
			seen := map[string]bool{}
			for _, w := range strings.Fields(d) {
				if stop[w] {
					continue
				}
				total[w]++
				if !seen[w] {
					df[w]++
					seen[w] = true
				}
			}
		}
		var want []string
		for w, f := range df {
			if f >= max(1, o.MinDF) && (o.MaxDF == 0 || float64(f) <= o.MaxDF*float64(len(docs))) {
				want = append(want, w)
			}
		}
		if o.MaxWords > 0 && len(want) > o.MaxWords {
			slices.SortFunc(want, func(a, b string) int {
				if total[a] != total[b] {
					return total[b] - total[a]
				}
				return strings.Compare(a, b)
			})
			want = want[:o.MaxWords]
		}
		slices.Sort(want)
		if !slices.Equal(b.Vocabulary, want) {
			t.Errorf("%+v: vocabulary %q, want %q", o, b.Vocabulary, want)
		}
		for i, d := range docs {
			ids, counts := b.Row(i)
			for k, id := range ids {
				want := 0.0
				for _, w := range strings.Fields(d) {
					if w == b.Vocabulary[id] {
						want++
					}
				}
				if got := counts[k]; got != want {
					t.Errorf("%+v: document %d word %q: count %g, want %g", o, i, b.Vocabulary[id], got, want)
				}
			}
		}
	}
}

func TestEnglishStopWords(t *testing.T) {
	w := EnglishStopWords()
	if len(w) != 317 || !slices.IsSorted(w) || len(slices.Compact(slices.Clone(w))) != 317 {
		t.Errorf("%d stop words (want 317 distinct, sorted)", len(w))
	}
	w[0] = "changed"
	if EnglishStopWords()[0] != "a" {
		t.Error("EnglishStopWords shares its slice")
	}
}

func TestFromCorpus(t *testing.T) {
	news := &dataset.Corpus{Name: "corpus_20newsgroups", Docs: []string{
		"From: someone@example.org\nSubject: orbit launch\n\nThe rocket reached orbit.",
		"From: other@example.org\nSubject: hockey\n\nThe goalie saved it.",
	}}
	b, err := FromCorpus(news, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"goalie", "orbit", "reached", "rocket", "saved"}; !slices.Equal(b.Vocabulary, want) {
		t.Errorf("20 Newsgroups vocabulary %q, want %q (headers removed)", b.Vocabulary, want)
	}
	// Issue 33: the encoded lines of a post (a uuencoded binary, a PGP signature) fed whole topics
	// of fragments such as "a86" and "ax"; the text around them stays.
	encoded := &dataset.Corpus{Name: "corpus_20newsgroups", Docs: []string{
		"Subject: driver\n\nHere is the driver.\nbegin 644 drv.exe\n" +
			"MAX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'\n" +
			"M:3IIACHZD2_'.L>1:9&1QY&1:3IID3J1D<<Z03II.CJ&.LHZD2^1.I&&ACJ1  \r\n" +
			"end\n-----BEGIN PGP SIGNATURE-----\niQBuAgUBK9TknDh0K1zBsGrxAQEAQgLFEFNH9HlHyoVHuWR5RWD9Y+mBrXkYKWsC\n" +
			"Tell me if it_works_for_you_on_windows_nt_3\n",
	}}
	if b, err = FromCorpus(encoded, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"644", "begin", "driver", "drv", "end", "exe", "it_works_for_you_on_windows_nt_3", "pgp", "signature", "tell"}; !slices.Equal(b.Vocabulary, want) {
		t.Errorf("encoded lines: vocabulary %q, want %q", b.Vocabulary, want)
	}
	imdb := &dataset.Corpus{Name: "corpus_imdb_reviews", Docs: []string{"Great film.<br /><br />Loved it."}}
	if b, err = FromCorpus(imdb, Options{}); err != nil || !slices.Equal(b.Vocabulary, []string{"film", "great", "loved"}) {
		t.Errorf("IMDB vocabulary %q, %v", b.Vocabulary, err)
	}
	if _, err := FromCorpus(&dataset.Corpus{Name: "faces_lfw"}, Options{}); err == nil {
		t.Error("unknown corpus: nil error")
	}
	if _, err := FromCorpus(nil, Options{}); err == nil {
		t.Error("nil corpus: nil error")
	}
}

func TestBuildErrors(t *testing.T) {
	for name, c := range map[string]struct {
		docs []string
		o    Options
	}{
		"no documents":    {nil, Options{}},
		"MinDF < 0":       {[]string{"word"}, Options{MinDF: -1}},
		"MaxDF > 1":       {[]string{"word"}, Options{MaxDF: 1.5}},
		"MaxDF NaN":       {[]string{"word"}, Options{MaxDF: math.NaN()}},
		"MaxWords < 0":    {[]string{"word"}, Options{MaxWords: -1}},
		"only stop words": {[]string{"the and of"}, Options{}},
		"MinDF too high":  {[]string{"word"}, Options{MinDF: 2}},
	} {
		if _, err := Build(c.docs, c.o); err == nil {
			t.Errorf("%s: nil error", name)
		}
	}
}

// Issue 34: Dims, Row and NNZ of a nil *BagOfWords panicked (a typed nil in a learn.Documents got
// past FitTopicModel's nil check); a document without counts is handed to the reader as such.
func TestNilAndMalformedBagOfWords(t *testing.T) {
	var none *BagOfWords
	if d, w := none.Dims(); d != 0 || w != 0 {
		t.Errorf("nil Dims = %d, %d", d, w)
	}
	if words, counts := none.Row(0); words != nil || counts != nil {
		t.Errorf("nil Row(0) = %v, %v", words, counts)
	}
	if none.NNZ() != 0 {
		t.Error("nil NNZ ≠ 0")
	}
	short := &BagOfWords{Vocabulary: []string{"a", "b"}, Words: [][]int{{0}, {1}}, Counts: [][]float64{{1}}}
	if words, counts := short.Row(1); len(words) != 1 || counts != nil {
		t.Errorf("Row of a document without counts = %v, %v; want its words and nil counts", words, counts)
	}
}

func TestEncodedLine(t *testing.T) {
	for line, want := range map[string]bool{
		"":  false,
		"M": false,
		"M0'=)=T!W=W>%W2-`0$\"%0'=WW86%=W=`285WA85WW4!`27=W27=)W7=WW=W1":   true, // uuencode
		"iQBuAgUBK9TknDh0K1zBsGrxAQEAQgLFEFNH9HlHyoVHuWR5RWD9Y+mBrXkYKWsC": true, // base64
		"----------------------------------------":                         true, // 40 dashes
		"---------------------------------------":                          false,
		"MAX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX>'AX> \t\r":                true, // trailing blanks cut
		"the quick brown fox jumps over the lazy dog again and again":      false,
		"ééééééééééééééééééééééééééééééééééééééé":                          false, // 39 runes, 78 bytes
	} {
		if got := EncodedLine(line); got != want {
			t.Errorf("EncodedLine(%q) = %v, want %v", line, got, want)
		}
	}
}
