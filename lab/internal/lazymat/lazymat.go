// Package lazymat has matrices that declare any dimensions and store nothing: a 2⁴⁰×3 matrix costs
// a few bytes. The hardening tests and the robustness sweep (issue 34) give them to the library,
// which must refuse them with an error (memlimit) before it densifies or scans them, not crash
// out of memory or run for ever.
package lazymat

import "gonum.org/v1/gonum/mat"

// Ones is an R×C matrix of ones.
type Ones struct{ R, C int }

// Dims returns R and C.
func (m Ones) Dims() (r, c int) { return m.R, m.C }

// At returns 1.
func (Ones) At(i, j int) float64 { return 1 }

// T returns the transpose, implicitly.
func (m Ones) T() mat.Matrix { return mat.Transpose{Matrix: m} }

// SymOnes is an N×N symmetric matrix of ones.
type SymOnes struct{ N int }

// Dims returns N and N.
func (m SymOnes) Dims() (r, c int) { return m.N, m.N }

// At returns 1.
func (SymOnes) At(i, j int) float64 { return 1 }

// T returns the matrix itself.
func (m SymOnes) T() mat.Matrix { return m }

// SymmetricDim returns N.
func (m SymOnes) SymmetricDim() int { return m.N }

// Documents declares two documents over a vocabulary of Words words, each document holding one
// word (0 and Words−1): the shape of a learn.Documents, at the cost of two rows.
type Documents struct{ Words int }

// Dims returns 2 documents and Words words.
func (d Documents) Dims() (docs, words int) { return 2, d.Words }

// Row returns document i's single word.
func (d Documents) Row(i int) ([]int, []float64) {
	if i == 0 {
		return []int{0}, []float64{1}
	}
	return []int{d.Words - 1}, []float64{1}
}
