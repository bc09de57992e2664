package dataset

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// recipeORL builds faces_olivetti's orl_faces.tar.gz from the GitHub archive of the commit the
// mirror's copy was taken from (hakawa-bernardi/orl-face-recognition-pca-svm 3edc842), whose
// orl_faces/ folder holds the AT&T README and the 400 PGM images s1..s40/1..10.pgm, each checked
// byte-identical to other independent copies (see the mirror's SOURCE.md). They are re-packed as
// a canonical tar, README first, then by subject and image number; the result is the mirror's
// file byte for byte. (AT&T's own att_faces.zip is no longer served at a stable address.)
var recipeORL = recipe{
	sources: []string{"orl-face-recognition-pca-svm.tar.gz"},
	outputs: []string{"orl_faces.tar.gz"},
	build: func(ctx context.Context, b *build) (string, error) {
		members, err := b.readTar(ctx, "orl-face-recognition-pca-svm.tar.gz", func(p string) (string, bool) {
			p = stripTop(p)
			return p, p == "orl_faces/README" || strings.HasPrefix(p, "orl_faces/s") && strings.HasSuffix(p, ".pgm")
		})
		if err != nil {
			return "", err
		}
		if _, ok := members["orl_faces/README"]; !ok || len(members) != 1+olivettiSubjects*olivettiPerSubject {
			return "", fmt.Errorf("the upstream archive holds %d files under orl_faces/, want the README and %d images: %w",
				len(members), olivettiSubjects*olivettiPerSubject, errMissing)
		}
		order := members.sorted()
		number := func(p string) (subject, image int) { // orl_faces/s<subject>/<image>.pgm
			subject, _ = strconv.Atoi(strings.TrimPrefix(path.Base(path.Dir(p)), "s"))
			image, _ = strconv.Atoi(strings.TrimSuffix(path.Base(p), ".pgm"))
			return subject, image
		}
		sort.SliceStable(order, func(i, j int) bool {
			if order[i] == "orl_faces/README" || order[j] == "orl_faces/README" {
				return order[i] == "orl_faces/README" && order[j] != "orl_faces/README"
			}
			si, ii := number(order[i])
			sj, ij := number(order[j])
			return si < sj || si == sj && ii < ij
		})
		return "", b.writeTar("orl_faces.tar.gz", time.Unix(1262304000, 0), members, order)
	},
}
