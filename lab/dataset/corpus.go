package dataset

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

// Corpus is a text collection: one raw document per entry and its label.
type Corpus struct {
	Name   string
	Docs   []string
	Labels []string
}

// Corpus loads corpus_20newsgroups (18,846 raw Usenet messages with headers, label = newsgroup;
// bytes as stored, 73 messages hold Latin-1 bytes that are not valid UTF-8) or
// corpus_imdb_reviews (50,000 reviews with their <br /> tags, label "pos" or "neg"), in archive
// order (20 Newsgroups: the test split, then the training split, each by group; IMDB: the
// training split, then the test split, each pos then neg by review id). maxDocs > 0 keeps maxDocs
// documents evenly spaced over that order (rows ⌊i·n/maxDocs⌋), so every label stays
// represented; 0 keeps all.
func (s Source) Corpus(ctx context.Context, name string, maxDocs int) (*Corpus, error) {
	spec, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if maxDocs < 0 {
		return nil, fmt.Errorf("dataset %s: maxDocs %d, want >= 0", name, maxDocs)
	}
	var (
		file  string
		label func(path string) (string, bool, error)
	)
	switch name {
	case "corpus_20newsgroups":
		file, label = "20news-bydate.tar.gz", newsgroupLabel
	case "corpus_imdb_reviews":
		file, label = "aclImdb_v1_labeled.tar.gz", imdbLabel
	default:
		return nil, fmt.Errorf("dataset %s is not a text corpus (corpora: corpus_20newsgroups, corpus_imdb_reviews)", name)
	}
	c := &Corpus{Name: name}
	err = s.withFile(ctx, spec, file, func(r io.Reader) error {
		return format.WalkTar(r, file, func(p string, _ int64, body io.Reader) error {
			l, isDoc, err := label(p)
			if err != nil || !isDoc {
				return err
			}
			var b strings.Builder
			if _, err := io.Copy(&b, body); err != nil {
				return err
			}
			c.Docs, c.Labels = append(c.Docs, b.String()), append(c.Labels, l)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("dataset %s: %s holds no documents", name, file)
	}
	if n := len(c.Docs); maxDocs > 0 && maxDocs < n {
		docs, labels := make([]string, maxDocs), make([]string, maxDocs)
		for i := range docs {
			j := i * n / maxDocs
			docs[i], labels[i] = c.Docs[j], c.Labels[j]
		}
		c.Docs, c.Labels = docs, labels
	}
	return c, nil
}

// newsgroupLabel reads 20news-bydate-{train,test}/<group>/<id>.
func newsgroupLabel(p string) (string, bool, error) {
	parts := strings.Split(p, "/")
	if len(parts) != 3 || (parts[0] != "20news-bydate-train" && parts[0] != "20news-bydate-test") || parts[1] == "" {
		return "", false, fmt.Errorf("unexpected member, want 20news-bydate-{train,test}/<group>/<id>")
	}
	return parts[1], true, nil
}

// imdbLabel reads aclImdb/{train,test}/{pos,neg}/<id>_<rating>.txt; README and the URL lists
// are not documents.
func imdbLabel(p string) (string, bool, error) {
	parts := strings.Split(p, "/")
	if len(parts) == 4 && parts[0] == "aclImdb" && (parts[1] == "train" || parts[1] == "test") &&
		(parts[2] == "pos" || parts[2] == "neg") && strings.HasSuffix(parts[3], ".txt") {
		return parts[2], true, nil
	}
	if p == "aclImdb/README" || len(parts) == 3 && parts[0] == "aclImdb" && strings.HasPrefix(parts[2], "urls_") {
		return "", false, nil
	}
	return "", false, fmt.Errorf("unexpected member, want aclImdb/{train,test}/{pos,neg}/<id>_<rating>.txt")
}
