package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// slurmNode is one node of one partition as sinfo lists it.
type slurmNode struct {
	partition string
	isDefault bool // the partition a job without --partition goes to
	cpus      int
	memMB     int64
}

// sinfoArgs make sinfo list one line per node and partition: the partition (with a * when it is
// the default), the node's CPUs and its memory in megabytes.
var sinfoArgs = []string{"--noheader", "--Node", "--format=%P %c %m"}

// parseSinfo reads the output of sinfo with sinfoArgs.
func parseSinfo(out string) ([]slurmNode, error) {
	var nodes []slurmNode
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("sinfo line %q: want partition, CPUs and memory", strings.TrimSpace(line))
		}
		n := slurmNode{partition: strings.TrimSuffix(f[0], "*"), isDefault: strings.HasSuffix(f[0], "*")}
		var err error
		if n.cpus, err = strconv.Atoi(strings.TrimSuffix(f[1], "+")); err != nil {
			return nil, fmt.Errorf("sinfo line %q: CPUs: %w", strings.TrimSpace(line), err)
		}
		if n.memMB, err = strconv.ParseInt(strings.TrimSuffix(f[2], "+"), 10, 64); err != nil {
			return nil, fmt.Errorf("sinfo line %q: memory: %w", strings.TrimSpace(line), err)
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// slurmMemMB reads a --mem value in Slurm's syntax (an integer with an optional K, M, G or T suffix,
// megabytes without one) as megabytes, rounded up.
func slurmMemMB(mem string) (int64, error) {
	s := strings.ToUpper(strings.TrimSpace(mem))
	unit := map[byte]float64{'K': 1.0 / 1024, 'M': 1, 'G': 1024, 'T': 1024 * 1024}
	scale := 1.0
	if s != "" {
		if u, ok := unit[s[len(s)-1]]; ok {
			scale, s = u, s[:len(s)-1]
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("--mem %q: want a size such as 4000M or 25G", mem)
	}
	mb := float64(v) * scale
	if mb > 1<<53 {
		return 0, fmt.Errorf("--mem %q: too large", mem)
	}
	return int64(mb + 0.999999), nil
}

// checkNodesFit refuses a job whose array tasks no node of its partition can run (the default
// partition when partition is ""): Slurm would keep such an array PENDING for ever without a word
// to the user. The error gives the largest values the partition's nodes offer, as the fix.
func checkNodesFit(nodes []slurmNode, partition string, cpus int, mem string) error {
	memMB, err := slurmMemMB(mem)
	if err != nil {
		return usageError{"slurm: " + err.Error()}
	}
	var in []slurmNode
	for _, n := range nodes {
		if n.partition == partition || partition == "" && n.isDefault {
			in = append(in, n)
		}
	}
	where := "partition " + partition
	if partition == "" {
		where = "the default partition"
		if len(in) > 0 {
			where += " (" + in[0].partition + ")"
		}
	}
	if len(in) == 0 {
		return usageError{fmt.Sprintf("slurm: sinfo lists no node in %s: give --partition with one of its partitions", where)}
	}
	maxCPUs, maxMem := 0, int64(0)
	for _, n := range in {
		maxCPUs = max(maxCPUs, n.cpus)
		if n.cpus >= cpus {
			maxMem = max(maxMem, n.memMB)
		}
	}
	if maxCPUs < cpus {
		return usageError{fmt.Sprintf("slurm: no node of %s has %d CPUs (--cpus; the largest has %d): the array would stay PENDING for ever; give --cpus %d or less",
			where, cpus, maxCPUs, maxCPUs)}
	}
	if maxMem < memMB {
		return usageError{fmt.Sprintf("slurm: no node of %s with %d CPUs has %s of memory (--mem; the largest has %dM): the array would stay PENDING for ever; give --mem %dM or less, or fewer --cpus",
			where, cpus, mem, maxMem, maxMem)}
	}
	return nil
}

// checkClusterFits asks sinfo for the nodes and applies checkNodesFit before a submission. Without
// sinfo (not on a Slurm login node) it checks nothing: sbatch then says what is wrong.
func checkClusterFits(ctx context.Context, j slurmJob) error {
	out, err := exec.CommandContext(ctx, "sinfo", sinfoArgs...).Output()
	if errors.Is(err, exec.ErrNotFound) {
		return nil
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "slurm: warning: sinfo %s failed (%v): the node sizes are not checked\n", strings.Join(sinfoArgs, " "), err)
		return nil
	}
	nodes, err := parseSinfo(string(out))
	if err != nil {
		return fmt.Errorf("slurm: %w", err)
	}
	return checkNodesFit(nodes, j.partition, j.cpus, j.mem)
}
