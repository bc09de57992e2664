package leverage_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fastkernels/kernellab/lab/dataset"
	"github.com/fastkernels/kernellab/lab/kernel"
	"github.com/fastkernels/kernellab/lab/leverage"
	"github.com/fastkernels/kernellab/lab/lowrank"
)

// The README's library example, verbatim from here to the end of the file
// (TestREADMEExampleIsExampleDataset checks it): KC1 standardised, the thesis's Gaussian kernel
// and ridge, DAC ridge leverage scores, 100 landmarks drawn in proportion to them, and the
// relative Frobenius error of the Nyström approximation. It needs the KC1 file (170 kB):
// downloaded once into the cache, or read from LAB_DATA_MIRROR.
func Example_dataset() {
	rel, err := nystromOnKC1(context.Background(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("KC1: Nyström on 100 DAC landmarks, relative Frobenius error %.5f\n", rel)
	// Output:
	// KC1: Nyström on 100 DAC landmarks, relative Frobenius error 0.00215
}

func nystromOnKC1(ctx context.Context, rng *rand.Rand) (float64, error) {
	t, err := dataset.DefaultSource().Table(ctx, "kc1") // downloaded once, sha256-checked
	if err != nil {
		return 0, err
	}
	x, err := t.Matrix(dataset.Prep{Standardise: true}) // gonum *mat.Dense, 2109 × 21
	if err != nil {
		return 0, err
	}
	k, _, err := kernel.ThesisGaussian(x) // σ² = mean squared distance between rows
	if err != nil {
		return 0, err
	}
	lambda, err := kernel.ThesisRidge(x) // λ = 1 / mean ‖x_i‖
	if err != nil {
		return 0, err
	}
	scores, err := leverage.DAC(rng, k, x, lambda, leverage.DACOptions{}) // DAC-RLS, blocks of √n
	if err != nil {
		return 0, err
	}
	landmarks, err := leverage.Sample(rng, scores, 100) // 100 distinct points ∝ the scores
	if err != nil {
		return 0, err
	}
	ny, err := lowrank.FitNystrom(k, x, landmarks, 0)
	if err != nil {
		return 0, err
	}
	phi, err := ny.Transform(x) // n × 100 features, K ≈ ΦΦᵀ
	if err != nil {
		return 0, err
	}
	return lowrank.RelativeFrobeniusError(k, x, phi, nil) // ‖K − ΦΦᵀ‖_F / ‖K‖_F
}
