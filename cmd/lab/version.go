package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/fastkernels/kernellab/lab/blas"
)

// printVersion writes what a bug report or a results comparison needs to know of this binary: the
// module and its version, the source revision it was built from (with +modified for uncommitted
// changes), the Go version and the BLAS backend, which changes timings by an order of magnitude.
func printVersion(w io.Writer) {
	module, version, revision := "github.com/fastkernels/kernellab", "(devel)", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified {
			revision += "+modified"
		}
	}
	fmt.Fprintf(w, "lab %s %s\nrevision: %s\ngo: %s %s/%s\n%s", module, version, revision, runtime.Version(), runtime.GOOS, runtime.GOARCH, blasLine())
}

// blasLine describes the BLAS in use in one line, followed by a warning line when OpenBLAS runs
// generic kernels on a CPU that has better ones (blas.Warning): what lab version and the start of
// lab run print.
func blasLine() string {
	s := "BLAS: " + blas.Describe().String() + "\n"
	if warn := blas.Warning(); warn != "" {
		s += "warning: " + warn + "\n"
	}
	return s
}
