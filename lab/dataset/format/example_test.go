package format_test

import (
	"fmt"
	"strings"

	"github.com/fastkernels/kernellab/lab/dataset/format"
)

func ExampleReadARFF() {
	const weather = `% a tiny Weka file
@relation weather
@attribute temperature numeric
@attribute outlook {sunny, 'light rain'}
@data
21.5, sunny
?, 'light rain'
{1 'light rain'}
`
	a, err := format.ReadARFF(strings.NewReader(weather), "weather.arff")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Relation, len(a.Attributes), a.Attributes[1].Nominal)
	for _, row := range a.Rows {
		fmt.Printf("%q\n", row)
	}

	_, err = format.ReadARFF(strings.NewReader(strings.Replace(weather, "21.5", "warm", 1)), "weather.arff")
	fmt.Println(err)
	// Output:
	// weather 2 [sunny light rain]
	// ["21.5" "sunny"]
	// ["?" "light rain"]
	// ["0" "light rain"]
	// weather.arff:6: column 1 (temperature): "warm" is not a number
}

func ExampleReadLIBSVM() {
	X, y, err := format.ReadLIBSVM(strings.NewReader("+1 1:0.5 3:2\n-1 2:1 # comment\n"), "train.svm", 4)
	fmt.Println(X, y, err)
	// Output: [[0.5 0 2 0] [0 1 0 0]] [1 -1] <nil>
}

func ExampleReadTU() {
	// Two graphs: a triangle (nodes 1-3) and a single edge (nodes 4-5).
	files := format.TUFiles{
		A:              strings.NewReader("1, 2\n2, 1\n2, 3\n3, 2\n1, 3\n3, 1\n4, 5\n5, 4\n"),
		GraphIndicator: strings.NewReader("1\n1\n1\n2\n2\n"),
		GraphLabels:    strings.NewReader("1\n-1\n"),
	}
	graphs, err := format.ReadTU(files, "TOY")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range graphs {
		fmt.Println(g.Label, g.Edges)
	}
	// Output:
	// 1 [[0 1] [1 2] [0 2]]
	// -1 [[0 1]]
}
