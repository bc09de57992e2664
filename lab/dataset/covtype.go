package dataset

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// Covertype's two variants ([Variant]): the full UCI file (581,012 rows), and the partial copy the
// offline mirror holds (UCI rows 1..20,000 followed by every 50th row beyond, 31,220 rows).
const (
	CovtypeFull   = "uci"
	CovtypeSubset = "subset-31220"
)

// checkCovtypeFull verifies a full covtype.data.gz, for which no checksum is published, against
// what is known of it: its first 20,000 lines must hash to the manifest's sha256 of
// covtype.20k.data.gz (UCI rows 1..20,000) and its lines 15,121, 15,171, ... (every 50th from
// 15,121) to that of covsample.data.gz. A file that merely has the right shape (the partial rows
// repeated, say) fails. The partial files themselves are not needed: their checksums are in the
// manifest.
func (s Source) checkCovtypeFull(ctx context.Context, spec Spec) error {
	prefixSpec, err := spec.File("covtype.20k.data.gz")
	if err != nil {
		return err
	}
	sampleSpec, err := spec.File("covsample.data.gz")
	if err != nil {
		return err
	}
	return s.withFile(ctx, spec, covtypeFull, func(r io.Reader) error {
		prefix, sample, err := covtypeKnownRowsHashes(r)
		if err != nil {
			return fmt.Errorf("%s: %w", covtypeFull, err)
		}
		if prefix != prefixSpec.SHA256 {
			return fmt.Errorf("%s: its first %d rows differ from UCI rows 1-%d (sha256 %s, want %s): not the UCI file",
				covtypeFull, covtypePrefix, covtypePrefix, prefix, prefixSpec.SHA256)
		}
		if sample != sampleSpec.SHA256 {
			return fmt.Errorf("%s: its every-50th rows from row 15,121 differ from the known UCI rows (sha256 %s, want %s): not the UCI file",
				covtypeFull, sample, sampleSpec.SHA256)
		}
		return nil
	})
}

// covtypeKnownRowsHashes hashes (sha256, lines with their "\n") the first covtypePrefix lines and
// the lines 15121 + 50k (1-based) of the decompressed full file.
func covtypeKnownRowsHashes(r io.Reader) (prefix, sample string, err error) {
	hp, hs := sha256.New(), sha256.New()
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if len(text) > 0 {
			if line <= covtypePrefix {
				hp.Write(text)
			}
			if line >= 15121 && (line-15121)%50 == 0 {
				hs.Write(text)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", "", err
		}
	}
	return hex.EncodeToString(hp.Sum(nil)), hex.EncodeToString(hs.Sum(nil)), nil
}
