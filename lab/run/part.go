package run

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// A part file is the results table of one task followed by one checksum line,
//
//	# sha256 <hex digest of every byte before this line>
//
// so that a kept part cut short (down to its header, or mid-row) or edited by hand is refused
// instead of silently dropping or changing rows of the final table.
const checksumPrefix = "# sha256 "

// encodePart returns the bytes of the part file holding rows.
func encodePart(rows []Row) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeTable(&buf, rows); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.WriteString(checksumPrefix + hex.EncodeToString(sum[:]) + "\n")
	return buf.Bytes(), nil
}

// verifyPart checks a part file's checksum line and returns the table before it.
func verifyPart(data []byte, path string) ([]byte, error) {
	body := bytes.TrimSuffix(data, []byte("\n"))
	i := bytes.LastIndexByte(body, '\n')
	if i < 0 || !bytes.HasPrefix(body[i+1:], []byte(checksumPrefix)) {
		return nil, fmt.Errorf("run: %s: no checksum line (cut short, or written by an older version): delete it or run with --fresh", path)
	}
	table := data[:i+1]
	sum := sha256.Sum256(table)
	if got := string(body[i+1+len(checksumPrefix):]); got != hex.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("run: %s: checksum mismatch (the part was changed or damaged after it was written): delete it or run with --fresh", path)
	}
	return table, nil
}
