package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// recipeIMDB builds corpus_imdb_reviews' aclImdb_v1_labeled.tar.gz from Stanford's
// aclImdb_v1.tar.gz: the README, the four urls_*.txt lists and the 50,000 labelled reviews
// (without the unlabelled train/unsup reviews and the bag-of-words files), re-packed as a
// canonical tar (time 2011-06-01) in the mirror's order: README, then for train and test
// urls_pos.txt, urls_neg.txt, the pos reviews by id, the neg reviews by id.
//
// The mirror took its README from one of two GitHub copies that differ by a leading space, and
// which one matches Stanford's was not determined offline; the loader does not read it. So the
// reviews and lists are checked by imdbDigest, a sha256 over every member but the README, and
// the archive as a whole may differ from the mirror's in that one member (the recipe's note
// says whether it did).
var recipeIMDB = recipe{
	sources: []string{"aclImdb_v1.tar.gz"},
	outputs: []string{"aclImdb_v1_labeled.tar.gz"},
	loose:   map[string]bool{"aclImdb_v1_labeled.tar.gz": true},
	build: func(ctx context.Context, b *build) (string, error) {
		members, err := b.readTar(ctx, "aclImdb_v1.tar.gz", func(p string) (string, bool) {
			_, isDoc, err := imdbLabel(p)
			return p, err == nil && (isDoc || p == imdbReadme || strings.HasPrefix(path.Base(p), "urls_"))
		})
		if err != nil {
			return "", err
		}
		order := imdbOrder(members)
		if got := imdbDigest(members, order); got != imdbReviewsSHA256 {
			return "", fmt.Errorf("the reviews and URL lists of the upstream archive (%d members) have digest %s, want %s: not the data of the reference copy",
				len(order), got, imdbReviewsSHA256)
		}
		readme := sha256.Sum256(members[imdbReadme])
		note := "README identical to the mirror's"
		if hex.EncodeToString(readme[:]) != imdbReadmeSHA256 {
			note = "README differs from the mirror's copy (not read by the loader)"
		}
		if err := b.writeTar("aclImdb_v1_labeled.tar.gz", time.Unix(1306886400, 0), members, order); err != nil {
			return "", err
		}
		return "aclImdb_v1_labeled.tar.gz: the 50,000 reviews and the 4 URL lists are the mirror's, byte for byte (digest " +
			imdbReviewsSHA256[:12] + "…); " + note, nil
	},
}

const (
	imdbReadme = "aclImdb/README"
	// imdbReviewsSHA256 is imdbDigest of the mirror's aclImdb_v1_labeled.tar.gz (computed from it,
	// whose reviews were cross-checked against two other copies, see its SOURCE.md).
	imdbReviewsSHA256 = "ffa1177fdddab5bb98ea95811dfd10d5e156ccf96c4d5e2a555f1f831f60217a"
	// imdbReadmeSHA256 is the sha256 of the mirror's README (4,038 bytes).
	imdbReadmeSHA256 = "902cbce33258b4d24cd807b09ac78092ccc72e928a2637e967daa3e94fa502a8"
)

// imdbOrder returns the member paths in the mirror's order: README, then per split (train,
// test) urls_pos.txt, urls_neg.txt, pos/<id>_<rating>.txt by id, neg/... by id.
func imdbOrder(members tarMembers) []string {
	key := func(p string) (split, kind, id int) {
		parts := strings.Split(p, "/")
		if len(parts) < 3 {
			return -1, 0, 0 // the README
		}
		split = map[string]int{"train": 0, "test": 1}[parts[1]]
		switch {
		case parts[2] == "urls_pos.txt":
			kind = 0
		case parts[2] == "urls_neg.txt":
			kind = 1
		case parts[2] == "pos":
			kind = 2
		default:
			kind = 3
		}
		if len(parts) == 4 {
			id, _ = strconv.Atoi(strings.SplitN(parts[3], "_", 2)[0])
		}
		return split, kind, id
	}
	order := members.sorted()
	slices.SortStableFunc(order, func(a, b string) int {
		sa, ka, ia := key(a)
		sb, kb, ib := key(b)
		if sa != sb {
			return sa - sb
		}
		if ka != kb {
			return ka - kb
		}
		return ia - ib
	})
	return order
}

// imdbDigest is the sha256 of the lines "<path>\t<sha256 of content>\n" of every member in order
// except the README.
func imdbDigest(members tarMembers, order []string) string {
	h := sha256.New()
	for _, p := range order {
		if p == imdbReadme {
			continue
		}
		sum := sha256.Sum256(members[p])
		fmt.Fprintf(h, "%s\t%x\n", p, sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}
