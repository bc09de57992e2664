package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/run"
)

// pureGoEnv, set to 1, keeps reproduce.sh's builds from using OpenBLAS; the jobs get it too.
const pureGoEnv = "LAB_PURE_GO"

// slurmJob is what the two scripts of a Slurm run need.
type slurmJob struct {
	scale              run.Scale
	shards, cpus       int
	time, mem          string
	partition, account string
	results, figures   string // absolute
	figureFlags        string // " --update-reference" when the merge job rewrites the committed outputs
	workdir, lab       string // absolute
	ids                []string
	array              []int // the shards still to run (all of them on a first submission)
	env                []string
}

// shardDir is the results root of array task i: each shard keeps its own parts, so a resubmitted
// array task resumes from them.
func (j slurmJob) shardDir(i int) string {
	return filepath.Join(j.results, "shards", strconv.Itoa(i))
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (j slurmJob) header(w io.Writer, name, out string) {
	fmt.Fprintf(w, "#!/bin/bash\n#SBATCH --job-name=%s\n", name)
	if j.partition != "" {
		fmt.Fprintf(w, "#SBATCH --partition=%s\n", j.partition)
	}
	if j.account != "" {
		fmt.Fprintf(w, "#SBATCH --account=%s\n", j.account)
	}
	fmt.Fprintf(w, "#SBATCH --output=%s\n", out)
}

func (j slurmJob) preamble(w io.Writer) {
	fmt.Fprintf(w, "set -euo pipefail\ncd %s\n", shellQuote(j.workdir))
	for _, kv := range j.env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(w, "export %s=%s\n", k, shellQuote(v))
	}
}

func (j slurmJob) idArgs() string {
	var b strings.Builder
	for _, id := range j.ids {
		b.WriteString(" " + shellQuote(id))
	}
	return b.String()
}

// arrayScript runs shard $SLURM_ARRAY_TASK_ID of N into its own results folder.
func (j slurmJob) arrayScript() string {
	var w bytes.Buffer
	j.header(&w, "lab-"+string(j.scale), filepath.Join(j.results, "slurm", "shard-%a.out"))
	idx := make([]string, len(j.array))
	for i, a := range j.array {
		idx[i] = strconv.Itoa(a)
	}
	fmt.Fprintf(&w, "#SBATCH --array=%s\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n#SBATCH --time=%s\n#SBATCH --mem=%s\n",
		strings.Join(idx, ","), j.cpus, j.time, j.mem)
	fmt.Fprintf(&w, "# Shard i of %d runs tasks j with j mod %d = i into %s/i; finished tasks are kept there,\n"+
		"# so a resubmitted (timed-out, failed) array task resumes where it stopped.\n", j.shards, j.shards, filepath.Join(j.results, "shards"))
	j.preamble(&w)
	fmt.Fprintf(&w, "exec %s run --scale %s --results %s/\"$SLURM_ARRAY_TASK_ID\" --shard \"$SLURM_ARRAY_TASK_ID/%d\" --workers \"${SLURM_CPUS_PER_TASK:-%d}\"%s\n",
		shellQuote(j.lab), j.scale, shellQuote(filepath.Join(j.results, "shards")), j.shards, j.cpus, j.idArgs())
	return w.String()
}

// mergeScript merges every shard, renders the figures and checks the claims.
func (j slurmJob) mergeScript() string {
	var w bytes.Buffer
	j.header(&w, "lab-"+string(j.scale)+"-merge", filepath.Join(j.results, "slurm", "merge.out"))
	fmt.Fprintf(&w, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --time=1:00:00\n#SBATCH --mem=%s\n", j.mem)
	// A failed or timed-out array task cancels this job instead of leaving it pending for ever.
	fmt.Fprintf(&w, "#SBATCH --kill-on-invalid-dep=yes\n")
	j.preamble(&w)
	var dirs strings.Builder
	for i := range j.shards {
		dirs.WriteString(" " + shellQuote(j.shardDir(i)))
	}
	only := ""
	if len(j.ids) > 0 {
		only = " --only " + shellQuote(strings.Join(j.ids, ","))
	}
	lab := shellQuote(j.lab)
	fmt.Fprintf(&w, "%s merge --scale %s --into %s%s%s\n", lab, j.scale, shellQuote(j.results), only, dirs.String())
	fmt.Fprintf(&w, "%s render --scale %s --results %s --figures %s%s%s\n", lab, j.scale, shellQuote(j.results), shellQuote(j.figures), j.figureFlags, j.idArgs())
	fmt.Fprintf(&w, "%s claims --scale %s --results %s --figures %s%s\n", lab, j.scale, shellQuote(j.results), shellQuote(j.figures), j.figureFlags)
	return w.String()
}

func cmdSlurm(ctx context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("slurm", "[ID ... | all]",
		"Write a Slurm job array (array task i runs shard i/N into <results>/shards/i) and a job that, once\n"+
			"every array task succeeded (afterok), merges the shards into <results>, renders the figures and\n"+
			"checks the claims. Without --submit the two scripts are printed; with --submit they are written to\n"+
			"<results>/slurm/ and submitted with sbatch, and the job ids printed. Submitting again after a failure\n"+
			"or time-out runs only the unfinished shards, each resuming from its kept task results.\n"+
			"Unset --shards, --time and --mem come from `lab plan` (its kept measurements, or a sample of tasks\n"+
			"measured now).", &s, withScale|withResults|withFigures|withData)
	shards := fs.Int("shards", 0, "array size N (0 = from lab plan: what fits --time)")
	cpus := fs.Int("cpus", 4, "cores per array task (--cpus-per-task; the shard's --workers)")
	tl := fs.String("time", "", "time limit per array task, Slurm syntax or 4h (default 4:00:00 when --shards is unset, else from lab plan)")
	mem := fs.String("mem", "", "memory per array task, Slurm syntax e.g. 4G (default from lab plan)")
	partition := fs.String("partition", "", "Slurm partition")
	account := fs.String("account", "", "Slurm account")
	labBin := fs.String("lab", "", "lab binary the jobs run (default this one)")
	submit := fs.Bool("submit", false, "submit with sbatch instead of printing the scripts")
	sample := fs.Int("sample", 2, "tasks measured per experiment when a default comes from lab plan")
	sc, err := s.parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if *shards < 0 || *cpus < 1 {
		return usageError{"slurm: --shards must be at least 1 (or 0 for the plan's), --cpus at least 1"}
	}
	_, exps, err := registryAndSelected(fs.Args())
	if err != nil {
		return err
	}
	j := slurmJob{scale: sc, shards: *shards, cpus: *cpus, time: *tl, mem: *mem, partition: *partition, account: *account}
	for _, e := range exps {
		if len(fs.Args()) > 0 {
			j.ids = append(j.ids, e.ID)
		}
	}
	if j.workdir, err = os.Getwd(); err != nil {
		return err
	}
	if j.results, err = filepath.Abs(s.results); err != nil {
		return err
	}
	if j.figures, err = filepath.Abs(s.figures); err != nil {
		return err
	}
	if s.updateReference {
		j.figureFlags = " --update-reference"
	}
	if j.lab = *labBin; j.lab == "" {
		if j.lab, err = selfPath(); err != nil {
			return err
		}
	}
	if j.lab, err = filepath.Abs(j.lab); err != nil {
		return err
	}
	if strings.Contains(j.lab, string(filepath.Separator)+"go-build") {
		return usageError{"slurm: this lab is a temporary `go run` binary the jobs could not run: use .tools/bin/lab (built by ./reproduce.sh setup) or --lab PATH"}
	}
	// The jobs get the data source through their environment. The cache only when one was chosen
	// (--cache or $LAB_DATA_CACHE): else each job takes its node's default.
	cache := s.cache
	if cache == "" {
		cache = os.Getenv(dataset.CacheEnv)
	}
	j.env = dataEnv(s.data.Mirror, cache, s.data.Upstream)
	if v := os.Getenv(pureGoEnv); v != "" {
		j.env = append(j.env, pureGoEnv+"="+v)
	}

	// --time in Go's syntax (4h) is written in Slurm's (0-04:00:00), which sbatch requires.
	limit := 4 * time.Hour
	if j.time != "" {
		if limit, err = parseSlurmTime(j.time); err != nil {
			return usageError{"slurm: --time: " + err.Error()}
		}
		j.time = slurmTime(limit)
	}
	// Defaults from the plan.
	if j.shards == 0 || j.time == "" || j.mem == "" {
		fmt.Fprintf(os.Stderr, "slurm: measuring %d task(s) per experiment for the defaults (lab plan)...\n", *sample)
		costs, err := estimate(ctx, j.lab, s.data, sc, producers(exps), *sample, 10*time.Minute, s.results, false, os.Stderr)
		if err != nil {
			return err
		}
		for _, c := range costs {
			if c.err != nil {
				return fmt.Errorf("slurm: measuring %s for the defaults: %w (give --shards, --time and --mem)", c.e.ID, c.err)
			}
		}
		if j.shards == 0 {
			j.shards = shardsFor(costs, j.cpus, limit)
		}
		if j.time == "" {
			j.time = slurmTime(shardWall(costs, j.shards, j.cpus) * 3 / 2)
		}
		if j.mem == "" {
			var peak int64
			for _, c := range costs {
				peak = max(peak, c.peakRSS())
			}
			j.mem = slurmMem(peak, j.cpus)
		}
	}

	if j.shards > 1000 {
		fmt.Fprintf(os.Stderr, "slurm: %d shards: Slurm's default MaxArraySize is 1001 (array indices 0-1000); ask your admins or use fewer, longer shards\n", j.shards)
	}
	// Shards whose every task has a kept part need not run again.
	for i := range j.shards {
		missing := 0
		for _, e := range producers(exps) {
			n, err := run.Missing(e, sc, j.shardDir(i), run.Shard{Index: i, Count: j.shards})
			if err != nil {
				return err
			}
			missing += n
		}
		if missing > 0 {
			j.array = append(j.array, i)
		}
	}
	if !*submit {
		if len(j.array) == 0 {
			fmt.Fprintf(stdout, "# every shard is finished: only the merge job needs to run\n")
		} else {
			fmt.Fprintf(stdout, "# ---- job array: sbatch this first\n%s\n", j.arrayScript())
		}
		fmt.Fprintf(stdout, "# ---- merge, render, claims: sbatch --dependency=afterok:<array job id> this\n%s", j.mergeScript())
		return nil
	}
	if err := checkClusterFits(ctx, j); err != nil {
		return err
	}
	dir := filepath.Join(j.results, "slurm")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	arrayPath, mergePath := filepath.Join(dir, "array.sh"), filepath.Join(dir, "merge.sh")
	if err := os.WriteFile(mergePath, []byte(j.mergeScript()), 0o755); err != nil {
		return err
	}
	var dep []string
	if len(j.array) > 0 {
		if err := os.WriteFile(arrayPath, []byte(j.arrayScript()), 0o755); err != nil {
			return err
		}
		id, err := sbatch(ctx, arrayPath)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "submitted array job %s: %d of %d shards (%s each, %d CPUs, --mem %s); logs %s\n",
			id, len(j.array), j.shards, j.time, j.cpus, j.mem, filepath.Join(dir, "shard-*.out"))
		dep = []string{"--dependency=afterok:" + id}
	} else {
		fmt.Fprintf(stdout, "every shard is finished: submitting only the merge job\n")
	}
	id, err := sbatch(ctx, append(dep, mergePath)...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "submitted merge job %s; results in %s, figures in %s; log %s\n", id, j.results, j.figures, filepath.Join(dir, "merge.out"))
	return nil
}

// shardWall is the estimated wall time of one shard on cpus cores.
func shardWall(costs []expCost, shards, cpus int) time.Duration {
	var d time.Duration
	for _, c := range costs {
		per := (c.tasks + shards - 1) / shards
		if c.e.Serial {
			d += c.meanWall() * time.Duration(per)
		} else {
			d += max(c.meanCPU()*time.Duration(per)/time.Duration(cpus), c.maxOf(func(s taskCost) time.Duration { return s.wall }))
		}
	}
	return max(d, 10*time.Minute)
}

// sbatch submits a script and returns the job id (--parsable prints "id" or "id;cluster").
func sbatch(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if _, lookErr := exec.LookPath("sbatch"); lookErr != nil {
			return "", fmt.Errorf("sbatch not found: run lab slurm --submit on a Slurm login node (or without --submit to print the scripts)")
		}
		return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return "", fmt.Errorf("sbatch %s printed no job id", strings.Join(args, " "))
	}
	return id, nil
}
