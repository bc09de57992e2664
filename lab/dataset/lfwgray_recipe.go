package dataset

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
)

// recipeLFWGray builds faces_lfw's four lfw_gray250_min2_part<k>of4.tar.gz archives and their
// manifest from the GitHub archive of the commit the mirror's images were read from
// (baileyfriend/Gender-Image-Classifier 9aaaad06, whose lfw/ folder holds all 13,233 LFW images
// as grayscale aligned 250x250 JPEGs; see the mirror's SOURCE.md on which LFW variant that is).
// The people with at least two images (1,680 people, 9,164 images) are kept, sorted by name in
// byte order, images by file name, and split into four parts at fixed people so that nobody is
// split; each part is a canonical tar (time 2010-01-01) of lfw_gray250/<person>/<file>. The
// results are the mirror's files byte for byte. LFW's own site serves the colour images only.
var recipeLFWGray = recipe{
	sources: []string{"Gender-Image-Classifier.tar.gz"},
	outputs: []string{lfwGrayPart(1), lfwGrayPart(2), lfwGrayPart(3), lfwGrayPart(4), "lfw_gray250_min2_manifest.csv.gz"},
	build: func(ctx context.Context, b *build) (string, error) {
		members, err := b.readTar(ctx, "Gender-Image-Classifier.tar.gz", func(p string) (string, bool) {
			p = stripTop(p)
			parts := strings.Split(p, "/")
			if len(parts) != 3 || parts[0] != "lfw" || !strings.HasSuffix(parts[2], ".jpg") {
				return "", false
			}
			return "lfw_gray250/" + parts[1] + "/" + parts[2], true
		})
		if err != nil {
			return "", err
		}
		perPerson := map[string]int{}
		for p := range members {
			perPerson[path.Base(path.Dir(p))]++
		}
		var order []string
		for _, p := range members.sorted() {
			if perPerson[path.Base(path.Dir(p))] >= 2 {
				order = append(order, p)
			}
		}
		if len(order) != lfwGrayImages {
			return "", fmt.Errorf("the upstream archive holds %d images of people with at least two, want %d", len(order), lfwGrayImages)
		}
		// Part k holds the people from lfwGrayPartStarts[k-2] (byte order) on.
		part := func(person string) int {
			k := 1
			for _, first := range lfwGrayPartStarts {
				if person >= first {
					k++
				}
			}
			return k
		}
		var byPart [4][]string
		var csv strings.Builder
		csv.WriteString("index,person_id,person,image_no,path,archive,bytes,sha256\n")
		personID, last := -1, ""
		for i, p := range order {
			person, file := path.Base(path.Dir(p)), path.Base(p)
			if person != last {
				personID, last = personID+1, person
			}
			number, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(file, person+"_"), ".jpg"))
			if err != nil {
				return "", fmt.Errorf("image %s: not named <person>_<number>.jpg", p)
			}
			k := part(person)
			byPart[k-1] = append(byPart[k-1], p)
			fmt.Fprintf(&csv, "%d,%d,%s,%d,%s,%s,%d,%x\n", i, personID, person, number, p, lfwGrayPart(k), len(members[p]), sha256.Sum256(members[p]))
		}
		for k := range byPart {
			if err := b.writeTar(lfwGrayPart(k+1), time.Unix(1262304000, 0), members, byPart[k]); err != nil {
				return "", err
			}
		}
		return "", b.create("lfw_gray250_min2_manifest.csv.gz", func(w io.Writer) error {
			_, err := io.WriteString(w, csv.String())
			return err
		})
	},
}

// lfwGrayImages is the number of images of the LFW people with at least two.
const lfwGrayImages = 9164

// lfwGrayPartStarts are the first people of parts 2, 3 and 4.
var lfwGrayPartStarts = []string{"Emma_Watson", "Jodie_Foster", "Patrice_Chereau"}

// lfwGrayPart names part k of the faces_lfw archives.
func lfwGrayPart(k int) string { return fmt.Sprintf("lfw_gray250_min2_part%dof4.tar.gz", k) }
