package run

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strings"
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

// partFileName makes a file name from a task key: a readable prefix (characters outside
// [A-Za-z0-9._=-] become _) and the key's 64-bit FNV-1a hash, which keeps distinct keys apart.
func partFileName(key string) string {
	const maxReadable = 64
	var b strings.Builder
	for i := 0; i < len(key) && b.Len() < maxReadable; i++ {
		c := key[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._=-", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	return fmt.Sprintf("%s-%016x.csv", b.String(), hashKey(key))
}

func hashKey(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// readPart verifies a part file's checksum, parses it and checks it belongs to the task (a stale part from another plan
// or experiment is an error, not silently mixed in).
func readPart(data []byte, path, id string, t Task) ([]Row, error) {
	table, err := verifyPart(data, path)
	if err != nil {
		return nil, err
	}
	rows, err := readTable(bytes.NewReader(table), path)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		if r.ID != id || r.Rep != t.Rep {
			return nil, fmt.Errorf("run: %s:%d: row of id=%s rep=%d in the part of task %q (id=%s rep=%d): stale results from another plan; run fresh to discard them",
				path, i+2, r.ID, r.Rep, t.Key, id, t.Rep)
		}
	}
	return rows, nil
}
