// Package comparedata reads and writes the data files that the side-by-side scripts
// (bench/compare_chapters.sh, compare_forest.sh, compare_slides.sh) share between the two sides
// of a timing (raw little-endian float64, row major; a sparse matrix as COO triplets), so that
// the lab's benchmarks and the Python ones time identical inputs.
// Only tests and benchmarks use it.
package comparedata

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/fastkernels/kernellab/lab/csr"
)

// Env names the folder of the data files; the script sets it.
const Env = "KERNELLAB_COMPARE_DATA"

// Dir returns the folder named by Env, and skips the test or benchmark when it is not set.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(Env)
	if dir == "" {
		tb.Skipf("%s is not set (bench/compare_chapters.sh, compare_forest.sh and compare_slides.sh set it)", Env)
	}
	return dir
}

// Floats reads the file name of dir, which must hold exactly n float64 values.
func Floats(tb testing.TB, dir, name string, n int) []float64 {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	if len(raw) != 8*n {
		tb.Fatalf("%s: %d bytes, want %d float64 values", name, len(raw), n)
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return v
}

// Matrix reads the file name of dir as a row-major matrix of cols columns whose number of rows
// is the file's (a positive whole number).
func Matrix(tb testing.TB, dir, name string, cols int) *mat.Dense {
	tb.Helper()
	info, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	size := int(info.Size()) / 8
	if size == 0 || size%cols != 0 {
		tb.Fatalf("%s: %d values, want a positive multiple of %d", name, size, cols)
	}
	return mat.NewDense(size/cols, cols, Floats(tb, dir, name, size))
}

// Write writes v to the file name of dir as raw little-endian float64, through a temporary file
// (no half-written file for the other side to read).
func Write(tb testing.TB, dir, name string, v []float64) {
	tb.Helper()
	var buf bytes.Buffer
	buf.Grow(8 * len(v))
	if err := binary.Write(&buf, binary.LittleEndian, v); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path+".tmp", buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		tb.Fatal(err)
	}
}

// WriteSparse writes m as COO triplets, the form scipy.sparse.coo_matrix((v, (i, j)), shape)
// takes: prefix_shape.f64 (rows, cols), and prefix_i.f64, prefix_j.f64, prefix_v.f64 (row,
// column and value of each stored entry, row by row).
func WriteSparse(tb testing.TB, dir, prefix string, m *csr.Matrix) {
	tb.Helper()
	rows, cols := m.Dims()
	i := make([]float64, 0, m.NNZ())
	j := make([]float64, 0, m.NNZ())
	v := make([]float64, 0, m.NNZ())
	for r := range rows {
		idx, vals := m.Row(r)
		for p, c := range idx {
			i, j, v = append(i, float64(r)), append(j, float64(c)), append(v, vals[p])
		}
	}
	Write(tb, dir, prefix+"_shape.f64", []float64{float64(rows), float64(cols)})
	Write(tb, dir, prefix+"_i.f64", i)
	Write(tb, dir, prefix+"_j.f64", j)
	Write(tb, dir, prefix+"_v.f64", v)
}

// Sparse reads the matrix that [WriteSparse] wrote under prefix.
func Sparse(tb testing.TB, dir, prefix string) *csr.Matrix {
	tb.Helper()
	shape := Floats(tb, dir, prefix+"_shape.f64", 2)
	v := Matrix(tb, dir, prefix+"_v.f64", 1).RawMatrix().Data
	index := func(name string) []int {
		f := Floats(tb, dir, name, len(v))
		out := make([]int, len(f))
		for t, x := range f {
			out[t] = int(x)
			if float64(out[t]) != x {
				tb.Fatalf("%s: entry %d is %g, want a whole number", name, t, x)
			}
		}
		return out
	}
	m, err := csr.FromTriplets(int(shape[0]), int(shape[1]), index(prefix+"_i.f64"), index(prefix+"_j.f64"), v)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}
