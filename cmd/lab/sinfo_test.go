package main

import (
	"errors"
	"strings"
	"testing"
)

// sinfo's node lines, as `sinfo --noheader --Node --format="%P %c %m"` prints them on a cluster of
// 2-CPU nodes in a default partition and one 16-CPU node in another.
const sinfoTwoCPUs = `main* 2 7900
main* 2 7900
big 16 128000
`

// Issue 34: `lab slurm --submit` with the default --cpus 4 on a cluster of 2-CPU nodes submitted
// an array that stayed PENDING for ever. The node sizes are read first and a request no node
// offers is refused with the fix.
func TestCheckNodesFit(t *testing.T) {
	nodes, err := parseSinfo(sinfoTwoCPUs)
	if err != nil || len(nodes) != 3 || !nodes[0].isDefault || nodes[2].partition != "big" || nodes[2].memMB != 128000 {
		t.Fatalf("parseSinfo: %+v, %v", nodes, err)
	}
	for _, tc := range []struct {
		partition string
		cpus      int
		mem       string
		want      string // "" for accepted
	}{
		{"", 2, "4G", ""},
		{"", 4, "4G", "no node of the default partition (main) has 4 CPUs (--cpus; the largest has 2): the array would stay PENDING for ever; give --cpus 2 or less"},
		{"", 2, "8G", "give --mem 7900M or less"},
		{"", 2, "7900", ""},
		{"big", 4, "25G", ""},
		{"big", 32, "1G", "give --cpus 16 or less"},
		{"gpu", 1, "1G", "sinfo lists no node in partition gpu"},
		{"", 1, "lots", `--mem "lots"`},
	} {
		err := checkNodesFit(nodes, tc.partition, tc.cpus, tc.mem)
		var ue usageError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q, %d CPUs, %s: refused: %v", tc.partition, tc.cpus, tc.mem, err)
		case tc.want != "" && (err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q, %d CPUs, %s: %v, want a usage error saying %q", tc.partition, tc.cpus, tc.mem, err, tc.want)
		}
	}
	if _, err := parseSinfo("main* two 7900\n"); err == nil {
		t.Error("a malformed sinfo line is accepted")
	}
}

func TestSlurmMemMB(t *testing.T) {
	for in, want := range map[string]int64{"500M": 500, "500": 500, "25G": 25600, "1T": 1 << 20, "2048K": 2, "1k": 1, "25g": 25600} {
		if got, err := slurmMemMB(in); err != nil || got != want {
			t.Errorf("slurmMemMB(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "G", "-1G", "1.5G", "99999999999999999T"} {
		if _, err := slurmMemMB(in); err == nil {
			t.Errorf("slurmMemMB(%q) accepted", in)
		}
	}
}
