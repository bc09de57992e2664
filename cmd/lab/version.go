package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/fastkernels/kernellab/lab/blasbackend"
	"github.com/fastkernels/kernellab/lab/run"
)

// printVersion writes what a bug report or a results comparison needs to know of this binary: the
// module and its version, the source revision it was built from (run.Revision: with +modified for
// uncommitted changes to the source), the Go version and the BLAS backend and its kernels (see
// blasLine), which change timings by an order of magnitude and results in their last bits.
func printVersion(w io.Writer) {
	module, version, revision := "github.com/fastkernels/kernellab", "(devel)", run.Revision()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
	}
	if revision == "" {
		revision = "unknown"
	}
	fmt.Fprintf(w, "lab %s %s\nrevision: %s\ngo: %s %s/%s\n%s", module, version, revision, runtime.Version(), runtime.GOOS, runtime.GOARCH, blasLine())
}

// blasLine describes the BLAS in use in one line, followed by a warning line when OpenBLAS runs
// generic kernels on a CPU that has better ones (blasbackend.Warning): what lab version and the start of
// lab run print.
func blasLine() string {
	s := "BLAS: " + blasbackend.Describe().String() + "\n"
	if warn := blasbackend.Warning(); warn != "" {
		s += "warning: " + warn + "\n"
	}
	return s
}
