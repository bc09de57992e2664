package dataset

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
)

// Covertype's two variants ([Variant]): the full UCI file (581,012 rows), and the partial copy the
// offline mirror holds (UCI rows 1..20,000 followed by every 50th row beyond, 31,220 rows).
const (
	CovtypeFull   = "uci"
	CovtypeSubset = "subset-31220"
)

// The rows of Covertype's two variants: CovtypeRows in the full UCI file, CovtypeSubsetRows in the
// partial copy (its 20,000-row prefix and 11,318-row sample share 98 rows).
const (
	CovtypeRows       = 581012
	CovtypeSubsetRows = 31220
)

// Label names the rows a variant of a data set holds, as results, titles and claims show them: the
// data set's name when the variant holds all its rows, and for Covertype anything but the full UCI
// file "covtype (subset: 31,220 of 581,012 rows)", so that no number measured on part of a data set
// passes for one on the whole ([Partial]). An unrecorded Covertype variant ("") is not called
// whole either.
func Label(name, variant string) string {
	if Partial(name, variant) {
		return fmt.Sprintf("%s (subset: %s of %s rows)", name, groupDigits(CovtypeSubsetRows), groupDigits(CovtypeRows))
	}
	return name
}

// Partial reports whether a variant of a data set holds only part of its rows: Covertype's subset
// (or an unrecorded Covertype variant, which cannot be shown to be the full file). Every variant
// of the other data sets holds all the rows its loader documents.
func Partial(name, variant string) bool {
	return name == "covtype" && variant != CovtypeFull
}

// groupDigits writes a non-negative n with commas between groups of three digits (581,012).
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

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
