package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

const slurmInstallHint = "apt-get install -y --no-install-recommends slurm-wlm munge (as root; Debian/Ubuntu)"

// slurmCluster is a single-node Slurm cluster started by a test: munged, slurmctld and slurmd with
// their config, state, sockets and logs in a temporary folder (SLURM_CONF points at it), on free ports.
type slurmCluster struct {
	dir   string
	procs []*exec.Cmd
}

// needSlurm returns the Slurm and munge programs, or skips the test outside CI (with the install
// line) and fails it in CI (CI=true), where .ci/run installs them.
func needSlurm(t *testing.T) {
	t.Helper()
	var missing []string
	for _, p := range []string{"munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol"} {
		if _, err := exec.LookPath(p); err != nil {
			if _, err := os.Stat("/usr/sbin/" + p); err != nil {
				missing = append(missing, p)
			}
		}
	}
	msg := ""
	switch {
	case len(missing) > 0:
		msg = "Slurm is not installed (missing " + strings.Join(missing, ", ") + "): " + slurmInstallHint
	case os.Geteuid() != 0:
		msg = "the live Slurm test starts slurmd, which needs root"
	case runtime.GOOS != "linux":
		msg = "the live Slurm test runs on Linux"
	}
	if msg == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func sbin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return "/usr/sbin/" + name
}

// startSlurm starts the cluster and registers its stop (the daemons it started, by their pids).
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	c := &slurmCluster{dir: t.TempDir()}
	t.Cleanup(c.stop)
	host, err := exec.Command("hostname", "-s").Output()
	if err != nil {
		t.Fatal(err)
	}
	node := strings.TrimSpace(string(host))
	memMB := 1024
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		if _, err := fmt.Sscanf(strings.SplitN(string(data), "\n", 2)[0], "MemTotal: %d kB", &kb); err == nil {
			memMB = kb / 1024 * 3 / 4
		}
	}
	sock := filepath.Join(c.dir, "munge.socket")
	conf := fmt.Sprintf(`ClusterName=labtest
SlurmctldHost=%[1]s
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmUser=root
ReturnToService=2
NodeName=%[1]s CPUs=%[6]d RealMemory=%[7]d State=UNKNOWN
PartitionName=main Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, node, freePort(t), freePort(t), sock, c.dir, runtime.NumCPU(), memMB)
	for _, d := range []string{"state", "spool"} {
		if err := os.MkdirAll(filepath.Join(c.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	confPath := filepath.Join(c.dir, "slurm.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", confPath)
	c.start(t, sbin("munged"), "--foreground", "--force", "--socket="+sock, "--pid-file="+filepath.Join(c.dir, "munged.pid"),
		"--log-file="+filepath.Join(c.dir, "munged.log"), "--seed-file="+filepath.Join(c.dir, "munged.seed"))
	waitFor(t, 10*time.Second, "munged's socket", func() bool { _, err := os.Stat(sock); return err == nil })
	c.start(t, sbin("slurmctld"), "-D", "-L", filepath.Join(c.dir, "slurmctld.log"))
	c.start(t, sbin("slurmd"), "-D", "-L", filepath.Join(c.dir, "slurmd.log"))
	waitFor(t, 60*time.Second, "the node to be idle (sinfo)", func() bool {
		out, _ := exec.Command("sinfo", "-h", "-o", "%T").Output()
		return strings.TrimSpace(string(out)) == "idle"
	})
	return c
}

func (c *slurmCluster) start(t *testing.T, prog string, args ...string) {
	t.Helper()
	cmd := exec.Command(prog, args...)
	log, err := os.Create(filepath.Join(c.dir, filepath.Base(prog)+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", prog, err)
	}
	c.procs = append(c.procs, cmd)
}

// stop ends the daemons this cluster started, by their pids, newest first.
func (c *slurmCluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		p.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			p.Process.Kill()
			<-done
		}
	}
	c.procs = nil
}

// logs returns the daemons' logs, for a failure message.
func (c *slurmCluster) logs() string {
	var b strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log", "munged.log"} {
		data, _ := os.ReadFile(filepath.Join(c.dir, f))
		b.WriteString("---- " + f + "\n" + lastLines(string(data), 15) + "\n")
	}
	return b.String()
}

func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitJob waits for a Slurm job to end and returns its final state (COMPLETED, FAILED, ...).
func waitJob(t *testing.T, c *slurmCluster, id string, limit time.Duration) string {
	t.Helper()
	re := regexp.MustCompile(`JobState=(\S+)`)
	state := ""
	deadline := time.Now().Add(limit)
	for {
		out, _ := exec.Command("scontrol", "show", "job", id).Output()
		if m := re.FindSubmatch(out); m != nil {
			state = string(m[1])
		}
		switch state {
		case "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL":
			return state
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %s after %s\n%s", id, state, limit, c.logs())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// buildLab builds the lab binary (with the GOFLAGS of the caller, e.g. the OpenBLAS tag).
func buildLab(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSlurmLive starts a single-node Slurm cluster, submits a smoke-scale run of three experiments
// split in 3 shards through `lab slurm --submit` (shard 0 already finished, so only 1 and 2 run), waits for the dependent merge job and checks that
// the merged results are byte-identical to an unsharded run; a second submission finds every shard
// finished and submits only the merge job.
func TestSlurmLive(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the live Slurm test starts daemons (reproduce.sh test runs it in a step of its own)")
	}
	needSlurm(t)
	if m := os.Getenv("LAB_DATA_MIRROR"); os.Getenv("CI") == "true" {
		if _, err := os.Stat(filepath.Join(m, "kc1")); m == "" || err != nil {
			t.Fatalf("CI: no data mirror at LAB_DATA_MIRROR=%q", m)
		}
	}
	mirrorOrSkip(t)
	started := time.Now()
	bin := buildLab(t)
	c := startSlurm(t)
	ids := []string{"table3_1", "fig2_1", "notes_fig_rff"}
	work := t.TempDir()
	results := filepath.Join(work, "results")
	submit := func() (arrayID, mergeID, out string) {
		cmd := exec.Command(bin, append([]string{"slurm", "--scale", "smoke", "--shards", "3", "--cpus", "1", "--time", "10",
			"--mem", "500M", "--results", results, "--submit"}, ids...)...)
		cmd.Dir = work
		o, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("lab slurm --submit: %v\n%s\n%s", err, o, c.logs())
		}
		out = string(o)
		if m := regexp.MustCompile(`submitted array job (\d+)`).FindStringSubmatch(out); m != nil {
			arrayID = m[1]
		}
		m := regexp.MustCompile(`submitted merge job (\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("lab slurm printed no merge job id:\n%s", out)
		}
		return arrayID, m[1], out
	}
	// Shard 0 already ran (as after a partly failed submission): the array holds shards 1 and 2 only.
	pre := exec.Command(bin, append([]string{"run", "--scale", "smoke", "--results", filepath.Join(results, "shards", "0"), "--shard", "0/3"}, ids...)...)
	pre.Dir = work
	if o, err := pre.CombinedOutput(); err != nil {
		t.Fatalf("running shard 0 by hand: %v\n%s", err, o)
	}
	arrayID, mergeID, out := submit()
	if arrayID == "" || !strings.Contains(out, "2 of 3 shards") {
		t.Fatalf("the first submission must run shards 1 and 2 only:\n%s", out)
	}
	if script, _ := os.ReadFile(filepath.Join(results, "slurm", "array.sh")); !strings.Contains(string(script), "--array=1,2\n") {
		t.Errorf("array script without the finished shard 0 expected:\n%s", script)
	}
	if st := waitJob(t, c, mergeID, 5*time.Minute); st != "COMPLETED" {
		log, _ := os.ReadFile(filepath.Join(results, "slurm", "merge.out"))
		shard0, _ := os.ReadFile(filepath.Join(results, "slurm", "shard-0.out"))
		t.Fatalf("merge job %s ended %s\nmerge.out:\n%s\nshard-0.out:\n%s\n%s", mergeID, st, log, shard0, c.logs())
	}
	t.Logf("array %s and merge %s done %s after the start", arrayID, mergeID, time.Since(started).Round(time.Millisecond))

	whole := filepath.Join(work, "whole")
	cmd := exec.Command(bin, append([]string{"run", "--scale", "smoke", "--no-render", "--results", whole}, ids...)...)
	cmd.Dir = work
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("unsharded run: %v\n%s", err, o)
	}
	for _, id := range ids {
		merged, err := os.ReadFile(filepath.Join(results, "smoke", id+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		ref, err := os.ReadFile(filepath.Join(whole, "smoke", id+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(merged, ref) {
			t.Errorf("%s: the results merged by the Slurm job differ from the unsharded run's", id)
		}
		if m, _ := filepath.Glob(filepath.Join(results, "smoke", "figures", id+".*")); len(m) == 0 {
			t.Errorf("%s: the merge job rendered nothing", id)
		}
	}
	if _, err := os.Stat(filepath.Join(results, "smoke", "figures", "CLAIMS.md")); err != nil {
		t.Errorf("the merge job wrote no CLAIMS.md: %v", err)
	}

	// Resubmitting: every shard is finished, so only the merge job runs.
	arrayID, mergeID, out = submit()
	if arrayID != "" || !strings.Contains(out, "every shard is finished") {
		t.Errorf("a resubmission of a finished run submitted an array job:\n%s", out)
	}
	if st := waitJob(t, c, mergeID, 2*time.Minute); st != "COMPLETED" {
		t.Errorf("second merge job %s ended %s", mergeID, st)
	}

	// A request no node offers is refused before anything is submitted (issue 34: the array
	// stayed PENDING for ever): one CPU more than the node has, or more memory than it has.
	for _, tc := range []struct{ cpus, mem, want string }{
		{fmt.Sprint(runtime.NumCPU() + 1), "500M", fmt.Sprintf("give --cpus %d or less", runtime.NumCPU())},
		{"1", "100T", "give --mem"},
	} {
		cmd := exec.Command(bin, append([]string{"slurm", "--scale", "smoke", "--shards", "3", "--cpus", tc.cpus, "--time", "10",
			"--mem", tc.mem, "--results", filepath.Join(work, "refused"), "--submit"}, ids...)...)
		cmd.Dir = work
		o, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(o), tc.want) || strings.Contains(string(o), "submitted") {
			t.Errorf("--cpus %s --mem %s: %v, output %q; want exit status 2 saying %q", tc.cpus, tc.mem, err, o, tc.want)
		}
	}
	t.Logf("live Slurm test: %s", time.Since(started).Round(time.Millisecond))
}
