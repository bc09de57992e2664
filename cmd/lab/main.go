// Command lab runs the thesis-reproduction catalogue: it lists experiments, runs them at a scale
// (optionally one shard of the repetitions), merges shards, renders figures and tables, checks the
// thesis's claims, and fetches or verifies the data sets.
//
//	lab list [--scale S]
//	lab run [--scale S] [--shard i/N] [--workers W] [--fresh] [--update-reference] [ID ...]
//	lab render [--scale S] [--update-reference] [ID ...]
//	lab claims [--scale S] [--update-reference] [--out PATH]
//	lab merge --scale S --into DIR SHARD_DIR ...
//	lab plan [--scale S] [--sample K] [--time-limit T] [ID ...]
//	lab slurm --scale S [--shards N] [--time T] [--mem M] [--partition P] [--account A] [--submit] [ID ...]
//	lab diff [--scale S] [--timing] [ID ...]
//	lab datasets list | fetch [NAME ...] | verify [NAME ...]
//	lab version
//
// A run's figures, tables and claims report go under its results root (<results>/<scale>/figures);
// only --update-reference rewrites the committed outputs in figures/. Every command takes --help.
// Errors print one line and exit non-zero.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// usageError marks a mistake in the command line (exit status 2) rather than a failure (1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// command is one sub-command: its one-line summary and its implementation.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout io.Writer) error
}

var commands = map[string]command{
	"list":     {"list the registered experiments and their task counts", cmdList},
	"run":      {"run experiments (or one shard of them), then render and report", cmdRun},
	"render":   {"render figures and tables from existing results", cmdRender},
	"claims":   {"check every claim against the results and write CLAIMS.md", cmdClaims},
	"merge":    {"merge the results of shards into the unsharded results", cmdMerge},
	"datasets": {"list, fetch or verify the data sets (list | fetch | verify)", cmdDatasets},
	"plan":     {"estimate a run's cost: time and memory per task, total, Slurm shards", cmdPlan},
	"slurm":    {"write (or submit) a Slurm job array of shards and its merge job", cmdSlurm},
	"diff":     {"compare results with the committed reference results, metric by metric", cmdDiff},
	// task is hidden: `lab plan` runs one task per child process through it.
	"task": {"", cmdTask},
}

var commandOrder = []string{"list", "plan", "run", "slurm", "merge", "render", "claims", "diff", "datasets"}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopOnSignal(cancel)
	err := dispatch(ctx, os.Args[1:], os.Stdout)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return
	}
	fmt.Fprintln(os.Stderr, "lab:", err)
	var ue usageError
	if errors.As(err, &ue) {
		os.Exit(2)
	}
	os.Exit(1)
}

// stopOnSignal cancels the commands' context at the first interrupt or SIGTERM, says that the
// running tasks are being stopped, and restores the signals' default action, so that a second one
// ends the process at once: a task that looks at its context only between long steps (a
// leverage-score computation of minutes) would otherwise keep a stopped run alive with no way
// out but SIGKILL. Finished tasks are on disk either way.
func stopOnSignal(cancel context.CancelFunc) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		cancel()
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		fmt.Fprintln(os.Stderr, "lab: stopping: the running tasks end at their next check (finished tasks are kept); interrupt again to quit now")
	}()
}

// dispatch runs the sub-command named by args[0].
func dispatch(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stdout)
		if len(args) == 0 {
			return usageError{"no command given"}
		}
		return nil
	}
	if args[0] == "--version" || args[0] == "version" {
		printVersion(stdout)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return usageError{fmt.Sprintf("unknown command %q (run 'lab --help')", args[0])}
	}
	return c.run(ctx, args[1:], stdout)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "lab — regenerate the thesis's figures and tables\n\nUsage: lab <command> [flags] [args]\n\nCommands:")
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-9s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "  version   the module, source revision, Go version and BLAS backend of this binary")
	fmt.Fprintln(w, "\nRun 'lab <command> --help' for the flags of a command.")
}
