package dataset_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/fastkernels/kernellab/lab/dataset"
)

// Load a data set from the mirror or cache (downloading it if needed), split it reproducibly
// and get standardised features for a learner. Not run by go test: it needs the data.
func Example() {
	ctx := context.Background()
	src := dataset.DefaultSource() // LAB_DATA_MIRROR, LAB_DATA_CACHE
	tab, err := src.Table(ctx, "gamma", dataset.Variant("uci"))
	if err != nil {
		log.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(42, 0))
	parts, err := dataset.StratifiedSplit(rng, tab.Target.Values, 0.8, 0.2)
	if err != nil {
		log.Fatal(err)
	}
	train, err := tab.Subset(parts[0])
	if err != nil {
		log.Fatal(err)
	}
	x, err := train.Matrix(dataset.Prep{Standardise: true})
	if err != nil {
		log.Fatal(err)
	}
	r, c := x.Dims()
	fmt.Println(r, c, tab.Notes)
}

// Matrix codes a categorical column by the sorted order of its values and can standardise.
func ExampleTable_Matrix() {
	tab := &dataset.Table{
		Name: "toy",
		Frame: dataframe.New(
			series.New([]float64{1, 2, 3}, series.Float, "size"),
			series.New([]string{"red", "blue", "red"}, series.String, "colour"),
		),
		Target: dataset.Target{Name: "price", Kind: dataset.Regression, Values: []float64{10, 20, 30}},
	}
	raw, _ := tab.Matrix(dataset.Prep{})
	std, _ := tab.Matrix(dataset.Prep{Standardise: true})
	for i := 0; i < 3; i++ {
		fmt.Printf("%v  % .3f\n", raw.RawRowView(i), std.RawRowView(i))
	}
	// Output:
	// [1 1]  [-1.225  0.707]
	// [2 0]  [ 0.000 -1.414]
	// [3 1]  [ 1.225  0.707]
}

// Split and Subsample depend only on the seed of the *rand.Rand they are given.
func ExampleSplit() {
	parts, _ := dataset.Split(rand.New(rand.NewPCG(1, 2)), 10, 0.7, 0.3)
	sample, _ := dataset.Subsample(rand.New(rand.NewPCG(1, 2)), 1000, 5)
	fmt.Println(len(parts[0]), len(parts[1]), len(sample))
	// Output: 7 3 5
}
