package blasbackend

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/cpu"
)

// Names returned by Backend.
const (
	// PureGo names gonum's own BLAS, written in Go (with a little assembly).
	PureGo = "gonum (pure Go)"
	// OpenBLAS names OpenBLAS reached through cgo and gonum.org/v1/netlib.
	OpenBLAS = "OpenBLAS (cgo)"
)

// PureGoCore is Info.Core in the pure-Go build, which has no kernel set to choose.
const PureGoCore = "pure Go"

// backend is replaced by openblas.go's init when the openblas build tag is set.
var backend = PureGo

// Backend reports the BLAS implementation that gonum's blas64 uses in this build: [PureGo] or
// OpenBLAS. Record it next to timings, which differ by an order of magnitude between the two.
func Backend() string { return backend }

// Info describes the BLAS in use, for the metadata of a run: results computed with other kernels
// differ in their last bits, and timings by a factor of two or more.
type Info struct {
	// Backend is PureGo or OpenBLAS.
	Backend string `json:"backend"`
	// Core is the kernel set OpenBLAS chose for this CPU (openblas_get_corename: Haswell,
	// SkylakeX, Prescott...), or PureGoCore.
	Core string `json:"core"`
	// Threads is the number of threads OpenBLAS runs each call on; 0 in the pure-Go build.
	Threads int `json:"threads,omitempty"`
}

// Describe reports the BLAS in use.
func Describe() Info {
	return Info{Backend: backend, Core: coreName(), Threads: threads()}
}

// String is one line for a person: "OpenBLAS (cgo), core Haswell, 1 thread per call".
func (i Info) String() string {
	if i.Backend != OpenBLAS {
		return i.Backend
	}
	s := fmt.Sprintf("%s, core %s, %d thread", i.Backend, i.Core, i.Threads)
	if i.Threads != 1 {
		s += "s"
	}
	return s + " per call"
}

// preAVX2Cores are OpenBLAS kernel sets without AVX2 code, lower-cased. Prescott is what OpenBLAS
// falls back to on a CPU it does not recognise (a new model, or a hypervisor's CPU name), so a
// recent CPU can run kernels made for 2004's.
var preAVX2Cores = map[string]bool{
	"generic": true, "katmai": true, "coppermine": true, "northwood": true, "prescott": true, "banias": true,
	"atom": true, "core2": true, "penryn": true, "dunnington": true, "nehalem": true, "sandybridge": true,
	"opteron": true, "opteron_sse3": true, "barcelona": true, "bobcat": true, "bulldozer": true,
	"piledriver": true, "steamroller": true,
}

// CoreWarning returns a warning, with the fix, when OpenBLAS runs kernels without AVX2 on a CPU
// that has AVX2 (or AVX-512F): about half the speed, and results that differ from the committed
// references (made with the Haswell kernels) in the last bits. forced is the value of
// OPENBLAS_CORETYPE ("" when unset): the warning then says that the variable chose the kernels
// rather than that OpenBLAS did not recognise the CPU. "" when there is nothing to say. The kernel
// set is chosen once, when the library loads, so the fix is an environment variable for the next
// run.
func CoreWarning(i Info, avx2, avx512f bool, forced string) string {
	if i.Backend != OpenBLAS || !preAVX2Cores[strings.ToLower(i.Core)] || !(avx2 || avx512f) {
		return ""
	}
	cpuHas, fix := "AVX2", "Haswell"
	if avx512f {
		cpuHas, fix = "AVX-512", "Haswell (the kernels of the committed references, bit for bit) or SkylakeX"
	}
	why := "it did not recognise the CPU"
	if forced != "" {
		why = "OPENBLAS_CORETYPE=" + forced + " asks for them"
	}
	return fmt.Sprintf("OpenBLAS runs its generic %s kernels on a CPU with %s (%s): "+
		"about half the speed, and last-bit differences from the committed references; "+
		"export OPENBLAS_CORETYPE=%s before running", i.Core, cpuHas, why, fix)
}

// Warning is [CoreWarning] for the BLAS in use on this CPU.
func Warning() string {
	return CoreWarning(Describe(), cpu.X86.HasAVX2, cpu.X86.HasAVX512F, os.Getenv("OPENBLAS_CORETYPE"))
}
