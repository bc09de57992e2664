package dataset

import (
	"context"
	"fmt"
	"time"
)

// recipe20News builds corpus_20newsgroups' 20news-bydate.tar.gz from Jason Rennie's
// 20news-bydate.tar.gz (the archive scikit-learn's fetch_20newsgroups downloads): its 18,846
// messages, without the folder entries, re-packed in byte order of their paths as a canonical
// tar (GNU format, owner 0, time 2010-01-01), which is the mirror's file byte for byte.
var recipe20News = recipe{
	sources: []string{"20news-bydate.tar.gz"},
	outputs: []string{"20news-bydate.tar.gz"},
	build: func(ctx context.Context, b *build) (string, error) {
		members, err := b.readTar(ctx, "20news-bydate.tar.gz", func(p string) (string, bool) {
			_, isDoc, err := newsgroupLabel(p)
			return p, isDoc && err == nil
		})
		if err != nil {
			return "", err
		}
		if len(members) != newsgroupsDocs {
			return "", fmt.Errorf("the upstream archive holds %d messages, want %d", len(members), newsgroupsDocs)
		}
		return "", b.writeTar("20news-bydate.tar.gz", time.Unix(1262304000, 0), members, members.sorted())
	},
}

// newsgroupsDocs is the number of messages of the bydate version (11,314 train, 7,532 test).
const newsgroupsDocs = 18846
