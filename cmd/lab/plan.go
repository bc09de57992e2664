package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/safefile"

	"github.com/fastkernels/kernellab/experiments"
	"github.com/fastkernels/kernellab/lab/run"
)

// taskCost is what one sampled task cost, measured in a child process running only that task.
type taskCost struct {
	key        string
	wall, cpu  time.Duration // cpu: user + system time of the child
	maxRSS     int64         // bytes
	overBudget bool          // stopped at the budget: wall and cpu are lower bounds
}

// keptSample is a measured task as kept in <results>/<scale>/plan/<ID>.json, so that a later plan
// (or lab slurm's defaults) reads it instead of measuring again.
type keptSample struct {
	Key        string  `json:"key"`
	Wall       float64 `json:"wall_seconds"`
	CPU        float64 `json:"cpu_seconds"`
	MaxRSS     int64   `json:"max_rss_bytes"`
	OverBudget bool    `json:"over_budget,omitempty"`
}

type keptPlan struct {
	ID       string       `json:"id"`
	Scale    run.Scale    `json:"scale"`
	Tasks    int          `json:"tasks"`
	Revision string       `json:"revision,omitempty"`
	Measured time.Time    `json:"measured"`
	Samples  []keptSample `json:"samples"`
}

func keptPlanPath(results string, sc run.Scale, id string) string {
	return filepath.Join(results, string(sc), "plan", id+".json")
}

// readKeptPlan returns the kept measurements of e when they cover at least k samples of a plan of
// the same size; ok is false otherwise (then the tasks are measured).
func readKeptPlan(results string, sc run.Scale, id string, tasks, k int) ([]taskCost, bool) {
	data, err := os.ReadFile(keptPlanPath(results, sc, id))
	if err != nil {
		return nil, false
	}
	var kp keptPlan
	if json.Unmarshal(data, &kp) != nil || kp.Tasks != tasks || len(kp.Samples) < min(k, tasks) {
		return nil, false
	}
	out := make([]taskCost, len(kp.Samples))
	for i, s := range kp.Samples {
		out[i] = taskCost{key: s.Key, wall: time.Duration(s.Wall * float64(time.Second)), cpu: time.Duration(s.CPU * float64(time.Second)),
			maxRSS: s.MaxRSS, overBudget: s.OverBudget}
	}
	return out, true
}

func writeKeptPlan(results string, sc run.Scale, id string, tasks int, samples []taskCost) error {
	kp := keptPlan{ID: id, Scale: sc, Tasks: tasks, Revision: run.Revision(), Measured: time.Now().UTC()}
	for _, s := range samples {
		kp.Samples = append(kp.Samples, keptSample{Key: s.key, Wall: s.wall.Seconds(), CPU: s.cpu.Seconds(), MaxRSS: s.maxRSS, OverBudget: s.overBudget})
	}
	data, err := json.MarshalIndent(kp, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteBytes(keptPlanPath(results, sc, id), append(data, '\n'))
}

// expCost is the estimate for one experiment.
type expCost struct {
	e       *run.Experiment
	tasks   int
	samples []taskCost
	kept    bool  // read from an earlier plan's measurements
	err     error // a sampled task failed: no estimate
}

func (c expCost) lowerBound() bool {
	for _, s := range c.samples {
		if s.overBudget {
			return true
		}
	}
	return false
}

// meanCPU and meanWall are per task, over the samples.
func (c expCost) meanCPU() time.Duration {
	return c.mean(func(s taskCost) time.Duration { return s.cpu })
}
func (c expCost) meanWall() time.Duration {
	return c.mean(func(s taskCost) time.Duration { return s.wall })
}
func (c expCost) mean(f func(taskCost) time.Duration) time.Duration {
	if len(c.samples) == 0 {
		return 0
	}
	var sum time.Duration
	for _, s := range c.samples {
		sum += f(s)
	}
	return sum / time.Duration(len(c.samples))
}

func (c expCost) maxOf(f func(taskCost) time.Duration) time.Duration {
	var m time.Duration
	for _, s := range c.samples {
		m = max(m, f(s))
	}
	return m
}

func (c expCost) peakRSS() int64 {
	var m int64
	for _, s := range c.samples {
		m = max(m, s.maxRSS)
	}
	return m
}

// totalCPU is the estimated CPU time of every task: the sampled mean times the task count.
func (c expCost) totalCPU() time.Duration { return c.meanCPU() * time.Duration(c.tasks) }

// wallOn is the estimated wall time on w cores: CPU time spread evenly over the cores, or the tasks
// one after another for a Serial (timing) experiment, and never less than its longest task.
func (c expCost) wallOn(w int) time.Duration {
	if c.e.Serial {
		return c.meanWall() * time.Duration(c.tasks)
	}
	return max(c.totalCPU()/time.Duration(max(w, 1)), c.maxOf(func(s taskCost) time.Duration { return s.wall }))
}

// sampleIndices picks k of n plan positions spread over the plan: first, last and evenly between
// (tasks of one plan differ in size, usually growing along it).
func sampleIndices(n, k int) []int {
	if k >= n {
		k = n
	}
	if k <= 0 {
		return nil
	}
	if k == 1 {
		return []int{0}
	}
	out := make([]int, 0, k)
	for i := range k {
		j := int(math.Round(float64(i) * float64(n-1) / float64(k-1)))
		if len(out) == 0 || out[len(out)-1] != j {
			out = append(out, j)
		}
	}
	return out
}

// measureTask runs one task in a child process of this very binary (the hidden `lab task`), in a
// scratch results folder with the data source data, and reads its CPU time and peak resident memory
// from the kernel's rusage.
func measureTask(ctx context.Context, self string, data dataset.Source, sc run.Scale, id, key string, budget time.Duration) (taskCost, error) {
	scratch, err := os.MkdirTemp("", "lab-plan-")
	if err != nil {
		return taskCost{}, err
	}
	defer os.RemoveAll(scratch)
	cctx := ctx
	if budget > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	cmd := exec.CommandContext(cctx, self, "task", "--scale", string(sc), "--results", scratch, id, key)
	cmd.Env = append(os.Environ(), dataEnv(data.Mirror, data.Cache, data.Upstream)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	c := taskCost{key: key, wall: wall}
	if st := cmd.ProcessState; st != nil {
		c.cpu = st.UserTime() + st.SystemTime()
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			c.maxRSS = int64(ru.Maxrss) * 1024 // kilobytes on Linux
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return c, ctx.Err()
		}
		if cctx.Err() != nil {
			c.overBudget = true
			return c, nil
		}
		return c, fmt.Errorf("%s task %q: %v: %s", id, key, err, strings.TrimSpace(lastLines(stderr.String(), 5)))
	}
	return c, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// estimate measures k sampled tasks of each experiment (with the data source data), or reads them
// from an earlier plan kept under the results root (unless remeasure), and keeps what it measured
// there.
func estimate(ctx context.Context, self string, data dataset.Source, sc run.Scale, exps []*run.Experiment, k int, budget time.Duration, results string, remeasure bool, log io.Writer) ([]expCost, error) {
	var out []expCost
	for _, e := range exps {
		keys, err := run.TaskKeys(e, sc)
		if err != nil {
			return nil, err
		}
		c := expCost{e: e, tasks: len(keys)}
		if !remeasure {
			if kept, ok := readKeptPlan(results, sc, e.ID, len(keys), k); ok {
				c.samples, c.kept = kept, true
				out = append(out, c)
				if log != nil {
					fmt.Fprintf(log, "plan: %s: %d measured tasks read from %s (--remeasure measures again)\n", e.ID, len(kept), keptPlanPath(results, sc, e.ID))
				}
				continue
			}
		}
		for _, j := range sampleIndices(len(keys), k) {
			s, err := measureTask(ctx, self, data, sc, e.ID, keys[j], budget)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				c.err = err
				if log != nil {
					fmt.Fprintf(log, "plan: %v\n", err)
				}
				break
			}
			if log != nil {
				note := ""
				if s.overBudget {
					note = " (stopped at the budget: a lower bound)"
				}
				fmt.Fprintf(log, "plan: %s task %d/%d %q: %s wall, %s CPU, %s peak%s\n", e.ID, j+1, len(keys), keys[j],
					s.wall.Round(time.Millisecond), s.cpu.Round(time.Millisecond), formatBytes(s.maxRSS), note)
			}
			c.samples = append(c.samples, s)
		}
		if c.err != nil {
			out = append(out, c)
			continue
		}
		if err := writeKeptPlan(results, sc, e.ID, len(keys), c.samples); err != nil && log != nil {
			fmt.Fprintf(log, "plan: %s: could not keep the measurements: %v\n", e.ID, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// shardsFor is the number of shards, each on cpus cores, whose estimated work fits the time limit
// with a 25% margin, at most one task per shard.
func shardsFor(costs []expCost, cpus int, limit time.Duration) int {
	var cpu time.Duration
	tasks := 0
	for _, c := range costs {
		tasks += c.tasks
		if c.e.Serial {
			cpu += c.meanWall() * time.Duration(c.tasks) * time.Duration(cpus) // one task at a time
		} else {
			cpu += c.totalCPU()
		}
	}
	usable := time.Duration(float64(limit) * 0.75 * float64(cpus))
	n := int(math.Ceil(float64(cpu) / float64(max(usable, time.Second))))
	return max(1, min(n, tasks))
}

func formatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1fG", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0fM", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%dK", b>>10)
}

// formatDuration is compact and human: 850ms, 12.3s, 4m10s, 3h20m, 2d4h.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return d.Round(time.Second).String()
	case d < 48*time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	}
	days := int(d / (24 * time.Hour))
	return fmt.Sprintf("%dd%dh", days, int((d-time.Duration(days)*24*time.Hour)/time.Hour))
}

// parseSlurmTime reads a Slurm time limit (minutes, MM:SS, H:MM:SS, D-H, D-H:MM, D-H:MM:SS) or a Go
// duration (90m, 4h).
func parseSlurmTime(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	var days int
	rest := s
	if d, r, ok := strings.Cut(s, "-"); ok {
		if _, err := fmt.Sscanf(d, "%d", &days); err != nil {
			return 0, fmt.Errorf("time %q: want minutes, H:MM:SS, D-HH:MM:SS or a duration like 4h", s)
		}
		rest = r
	}
	parts := strings.Split(rest, ":")
	nums := make([]int, len(parts))
	for i, p := range parts {
		if _, err := fmt.Sscanf(p, "%d", &nums[i]); err != nil || nums[i] < 0 {
			return 0, fmt.Errorf("time %q: want minutes, H:MM:SS, D-HH:MM:SS or a duration like 4h", s)
		}
	}
	var d time.Duration
	switch {
	case days > 0 || strings.Contains(s, "-"): // D-H[:MM[:SS]]
		units := []time.Duration{time.Hour, time.Minute, time.Second}
		if len(nums) > 3 {
			return 0, fmt.Errorf("time %q: too many fields", s)
		}
		for i, n := range nums {
			d += time.Duration(n) * units[i]
		}
		d += time.Duration(days) * 24 * time.Hour
	case len(nums) == 1:
		d = time.Duration(nums[0]) * time.Minute
	case len(nums) == 2:
		d = time.Duration(nums[0])*time.Minute + time.Duration(nums[1])*time.Second
	case len(nums) == 3:
		d = time.Duration(nums[0])*time.Hour + time.Duration(nums[1])*time.Minute + time.Duration(nums[2])*time.Second
	default:
		return 0, fmt.Errorf("time %q: too many fields", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("time %q: must be positive", s)
	}
	return d, nil
}

// slurmTime writes a duration as Slurm's D-HH:MM:SS, rounded up to the minute.
func slurmTime(d time.Duration) string {
	m := int(math.Ceil(d.Minutes()))
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), (m/60)%24, m%60)
}

// selfPath is this program's executable, which `lab plan` runs as a child per sampled task.
func selfPath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(p)
}

func cmdPlan(ctx context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("plan", "[ID ... | all]",
		"Estimate what a run costs: per experiment the task count, CPU time, wall time and peak memory per\n"+
			"task (measured by running a sample of its tasks, each alone in a child process: first, last and\n"+
			"evenly between), the total CPU time, the wall time on --workers cores, and the number of Slurm\n"+
			"shards of --cpus cores each that fit --time-limit. Each sampled task loads its own data, so\n"+
			"small tasks are overestimated. A task stopped at --budget gives a lower bound, marked '>'.\n"+
			"Measurements are kept in <results>/<scale>/plan/<ID>.json and read back by later plans and by lab slurm.", &s, withScale|withResults|withData)
	remeasure := fs.Bool("remeasure", false, "measure again instead of reading kept measurements")
	sample := fs.Int("sample", 3, "tasks measured per experiment")
	budget := fs.Duration("budget", 2*time.Minute, "stop a sampled task after this long (its cost is then a lower bound; 0 = no limit)")
	workers := fs.Int("workers", 0, "cores of the machine for the wall-time estimate (0 = this machine's)")
	cpus := fs.Int("cpus", 4, "cores per Slurm shard")
	limit := fs.String("time-limit", "4:00:00", "Slurm time limit per shard (minutes, H:MM:SS, D-HH:MM:SS or 4h)")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if *sample < 1 || *cpus < 1 || *workers < 0 {
		return usageError{"plan: --sample and --cpus must be at least 1, --workers at least 0"}
	}
	tl, err := parseSlurmTime(*limit)
	if err != nil {
		return usageError{"plan: --time-limit: " + err.Error()}
	}
	w := *workers
	if w == 0 {
		w = numCPU()
	}
	_, exps, err := registryAndSelected(fs.Args())
	if err != nil {
		return err
	}
	self, err := selfPath()
	if err != nil {
		return err
	}
	costs, err := estimate(ctx, self, s.data, sc, producers(exps), *sample, *budget, s.results, *remeasure, os.Stderr)
	if err != nil {
		return err
	}
	printPlan(stdout, sc, costs, w, *cpus, tl)
	var failed []string
	for _, c := range costs {
		if c.err != nil {
			failed = append(failed, c.e.ID)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("plan: a sampled task failed in %s (messages above): the totals leave them out", strings.Join(failed, ", "))
	}
	return nil
}

func printPlan(stdout io.Writer, sc run.Scale, costs []expCost, w, cpus int, tl time.Duration) {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "ID\tTASKS\tMEASURED\tCPU/TASK\tWALL/TASK (max)\tPEAK MEM/TASK\tCPU TOTAL\tWALL ON %d CORES\tSHARDS (%s, %d CPUs)\t\n", w, slurmTime(tl), cpus)
	var cpuSum, wallSum time.Duration
	var peak int64
	tasks, lower := 0, false
	for _, c := range costs {
		if c.err != nil {
			fmt.Fprintf(tw, "%s\t%d\tfailed\t\t\t\t\t\t\t\n", c.e.ID, c.tasks)
			continue
		}
		lb := ""
		if c.lowerBound() {
			lb, lower = ">", true
		}
		from := ""
		if c.kept {
			from = " (kept)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d of %d%s\t%s%s\t%s%s\t%s\t%s%s\t%s%s\t%d\t\n", c.e.ID, c.tasks, len(c.samples), c.tasks, from,
			lb, formatDuration(c.meanCPU()), lb, formatDuration(c.maxOf(func(s taskCost) time.Duration { return s.wall })),
			formatBytes(c.peakRSS()), lb, formatDuration(c.totalCPU()), lb, formatDuration(c.wallOn(w)),
			shardsFor([]expCost{c}, cpus, tl))
		cpuSum += c.totalCPU()
		wallSum += c.wallOn(w)
		peak = max(peak, c.peakRSS())
		tasks += c.tasks
	}
	lb := ""
	if lower {
		lb = ">"
	}
	fmt.Fprintf(tw, "total (%s)\t%d\t\t\t\t%s\t%s%s\t%s%s\t%d\t\n", sc, tasks, formatBytes(peak), lb, formatDuration(cpuSum), lb, formatDuration(wallSum), shardsFor(costs, cpus, tl))
	tw.Flush()
	fmt.Fprintf(stdout, "\nSlurm: %d shards of %d CPUs within %s each; --mem %s per shard (peak per task × %d tasks at once × 1.25).\n",
		shardsFor(costs, cpus, tl), cpus, slurmTime(tl), slurmMem(peak, cpus), cpus)
}

// slurmMem is the memory to ask per shard running cpus tasks at once in one process: the peak of
// one task alone times cpus times 1.25, at least 512M, in megabytes. Measured on fig5_1 at quick
// scale: 70M per task alone, 123M for the whole run on 2 workers (the model says 175M).
func slurmMem(peak int64, cpus int) string {
	mb := int64(math.Ceil(float64(peak) * float64(cpus) * 1.25 / (1 << 20)))
	return fmt.Sprintf("%dM", max(mb, 512))
}

// cmdTask runs the given tasks of one experiment (hidden: `lab plan` measures tasks through it).
func cmdTask(ctx context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("task", "ID KEY ...", "Run only the named tasks of one experiment (parts only): what `lab plan` measures.", &s, withScale|withResults|withData)
	workers := fs.Int("workers", 1, "parallel tasks")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return usageError{"task needs an experiment ID and at least one task key"}
	}
	reg, err := experiments.Registry()
	if err != nil {
		return err
	}
	e, err := reg.Get(fs.Arg(0))
	if err != nil {
		return usageError{err.Error()}
	}
	_, err = run.Execute(ctx, e, run.Options{Scale: sc, Dir: s.results, Workers: *workers, Keys: fs.Args()[1:], Data: s.data})
	return err
}

func numCPU() int { return runtime.NumCPU() }
