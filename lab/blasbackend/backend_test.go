package blasbackend

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

func TestBackendMatchesBuildTags(t *testing.T) {
	if got := Backend(); got != wantBackend {
		t.Fatalf("Backend() = %q, want %q for this build", got, wantBackend)
	}
}

// TestGemmThroughSelectedBackend multiplies small matrices through blas64 (whatever backend is
// installed) with both transpose flags and compares with products worked out by hand.
func TestGemmThroughSelectedBackend(t *testing.T) {
	// A is 2×3, B is 3×2; A·B = [[58 64] [139 154]] (the classic textbook example).
	a := blas64.General{Rows: 2, Cols: 3, Stride: 3, Data: []float64{1, 2, 3, 4, 5, 6}}
	b := blas64.General{Rows: 3, Cols: 2, Stride: 2, Data: []float64{7, 8, 9, 10, 11, 12}}
	c := blas64.General{Rows: 2, Cols: 2, Stride: 2, Data: []float64{1, 1, 1, 1}}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 2, a, b, 0.5, c)
	want := []float64{116.5, 128.5, 278.5, 308.5}
	if fmt.Sprint(c.Data) != fmt.Sprint(want) {
		t.Fatalf("2·A·B + 0.5·C = %v, want %v", c.Data, want)
	}
	// Aᵀ·A for A above: [[17 22 27] [22 29 36] [27 36 45]].
	ata := blas64.General{Rows: 3, Cols: 3, Stride: 3, Data: make([]float64, 9)}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, a, 0, ata)
	wantATA := []float64{17, 22, 27, 22, 29, 36, 27, 36, 45}
	if fmt.Sprint(ata.Data) != fmt.Sprint(wantATA) {
		t.Fatalf("AᵀA = %v, want %v", ata.Data, wantATA)
	}
}

func ExampleBackend() {
	// Prints "gonum (pure Go)" in the default build and "OpenBLAS (cgo)" when built with
	// -tags openblas and CGO_LDFLAGS=-lopenblas.
	fmt.Println(Backend() == PureGo || Backend() == OpenBLAS)
	// Output: true
}

func TestDescribeMatchesBuild(t *testing.T) {
	i := Describe()
	if i.Backend != Backend() {
		t.Fatalf("Describe().Backend = %q, Backend() = %q", i.Backend, Backend())
	}
	if i.Backend == PureGo && (i.Core != PureGoCore || i.Threads != 0) {
		t.Fatalf("pure-Go build: %+v, want core %q and no threads", i, PureGoCore)
	}
	if i.Backend == OpenBLAS && (i.Core == "" || i.Threads < 1) {
		t.Fatalf("OpenBLAS build: %+v, want a core name and at least one thread", i)
	}
}

func TestCoreWarning(t *testing.T) {
	prescott := Info{Backend: OpenBLAS, Core: "Prescott", Threads: 1}
	for _, c := range []struct {
		name         string
		info         Info
		avx2, avx512 bool
		forced       string // OPENBLAS_CORETYPE
		want         string // a part of the warning; "" for none
	}{
		{"generic kernels, AVX2 CPU", prescott, true, false, "", "did not recognise the CPU): about half the speed, and last-bit differences from the committed references; export OPENBLAS_CORETYPE=Haswell"},
		{"generic kernels, AVX-512 CPU", prescott, true, true, "", "export OPENBLAS_CORETYPE=Haswell (the kernels of the committed references, bit for bit) or SkylakeX"},
		{"generic kernels asked for", prescott, true, true, "Prescott", "(OPENBLAS_CORETYPE=Prescott asks for them)"},
		{"lower-case core name", Info{Backend: OpenBLAS, Core: "prescott"}, true, false, "", "OPENBLAS_CORETYPE=Haswell"},
		{"Sandybridge kernels, AVX2 CPU", Info{Backend: OpenBLAS, Core: "Sandybridge"}, true, false, "", "OPENBLAS_CORETYPE=Haswell"},
		{"generic kernels, old CPU", prescott, false, false, "", ""},
		{"Haswell kernels", Info{Backend: OpenBLAS, Core: "Haswell"}, true, true, "Haswell", ""},
		{"SkylakeX kernels", Info{Backend: OpenBLAS, Core: "SkylakeX"}, true, true, "", ""},
		{"Zen kernels", Info{Backend: OpenBLAS, Core: "Zen"}, true, false, "", ""},
		{"pure Go", Info{Backend: PureGo, Core: PureGoCore}, true, true, "", ""},
	} {
		got := CoreWarning(c.info, c.avx2, c.avx512, c.forced)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: CoreWarning = %q, want it to say %q", c.name, got, c.want)
		}
	}
}

func TestInfoString(t *testing.T) {
	for _, c := range []struct {
		info Info
		want string
	}{
		{Info{Backend: OpenBLAS, Core: "Haswell", Threads: 1}, "OpenBLAS (cgo), core Haswell, 1 thread per call"},
		{Info{Backend: OpenBLAS, Core: "SkylakeX", Threads: 4}, "OpenBLAS (cgo), core SkylakeX, 4 threads per call"},
		{Info{Backend: PureGo, Core: PureGoCore}, "gonum (pure Go)"},
	} {
		if got := c.info.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info, got, c.want)
		}
	}
}
