package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fastkernels/kernellab/lab/dataset"
)

func cmdDatasets(ctx context.Context, args []string, stdout io.Writer) error {
	var s settings
	fs := newFlags("datasets", "list | fetch [NAME ...] | verify [NAME ...]",
		"list: the data sets of the manifest and whether their files are here.\n"+
			"fetch: download (or take from the mirror) and verify every file of the named data sets (default all).\n"+
			"verify: check the sha256 of the files present.", &s, withData)
	if _, err := s.parse(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{"datasets needs an action: list, fetch or verify"}
	}
	specs, err := dataset.Manifest()
	if err != nil {
		return err
	}
	src := s.data
	action, names := fs.Arg(0), fs.Args()[1:]
	if len(names) == 0 {
		for _, sp := range specs {
			names = append(names, sp.Name)
		}
	}
	switch action {
	case "list":
		// Rows fit the terminal ($COLUMNS, else 100): titles are cut with "…"; licences and citations
		// are in datasets/README.md.
		width := 100
		if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c >= 60 {
			width = c
		}
		// The title gets what the other columns (each 2 spaces wider than its widest cell) leave.
		nameW, taskW := len("NAME"), len("TASK")
		for _, sp := range specs {
			nameW, taskW = max(nameW, len(sp.Name)), max(taskW, len(sp.Task))
		}
		titleW := width - (nameW + 2) - (taskW + 2) - (len("FILES HERE") + 2)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tTASK\tFILES HERE\tTITLE")
		for _, sp := range specs {
			here, total := 0, 0
			for _, f := range sp.Files {
				if f.Optional {
					continue
				}
				total++
				if src.Has(sp.Name, f.Name) {
					here++
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\n", sp.Name, sp.Task, here, total, cut(sp.Title, titleW))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		_, err := fmt.Fprintln(stdout, "\nLicences, citations and sources: datasets/README.md; files: lab datasets fetch / verify.")
		return err
	case "fetch", "verify":
		for _, name := range names {
			if _, err := dataset.Lookup(name); err != nil {
				return usageError{err.Error()}
			}
		}
		op := src.Fetch
		if action == "verify" {
			op = src.Verify
		}
		// Every data set is tried and reported; the command fails at the end if any failed.
		var failed []string
		for _, name := range names {
			if err := op(ctx, name); err != nil {
				if ctx.Err() != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s: FAILED\n  %s\n", name, strings.ReplaceAll(err.Error(), "\n", "\n  "))
				failed = append(failed, name)
				continue
			}
			fmt.Fprintf(stdout, "%s: ok\n", name)
		}
		if len(failed) > 0 {
			return fmt.Errorf("datasets %s: %d of %d data sets failed: %s", action, len(failed), len(names), strings.Join(failed, ", "))
		}
		return nil
	default:
		return usageError{fmt.Sprintf("unknown datasets action %q (list, fetch or verify)", action)}
	}
}

// dataEnv is the environment, as NAME=value, that gives a child process (a measured task, a
// cluster job) the data source its parent was given: dataset.DefaultSource reads it there. The
// mirror and cache folders are made absolute, since the child may start in another folder; an
// empty setting is left out, so the child takes its own default.
func dataEnv(mirror, cache, upstream string) []string {
	var env []string
	for _, v := range []struct {
		name, value string
		folder      bool
	}{{dataset.MirrorEnv, mirror, true}, {dataset.CacheEnv, cache, true}, {dataset.UpstreamEnv, upstream, false}} {
		if v.value == "" {
			continue
		}
		if v.folder {
			if abs, err := filepath.Abs(v.value); err == nil {
				v.value = abs
			}
		}
		env = append(env, v.name+"="+v.value)
	}
	return env
}

// cut shortens s to at most n characters (runes), ending with "…" when it cut.
func cut(s string, n int) string {
	r := []rune(s)
	if n < 1 || len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
