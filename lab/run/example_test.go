package run_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/fastkernels/kernellab/lab/run"
	"github.com/fastkernels/kernellab/lab/verdict"
)

// piExperiment estimates π by Monte Carlo with n points, 3 repetitions per n: a toy catalogue
// entry with a plan, a renderer and one claim.
func piExperiment() *run.Experiment {
	sizes := []int{100, 10000}
	return &run.Experiment{
		ID: "demo_pi", Title: "Monte Carlo estimate of π", Kind: run.Table, Seed: 2024,
		Plan: func(sc run.Scale) ([]run.Task, error) {
			var tasks []run.Task
			for rep := range 3 {
				for _, n := range sizes {
					tasks = append(tasks, run.Task{
						Key: fmt.Sprintf("n=%d/rep=%d", n, rep),
						Rep: rep,
						Run: func(ctx context.Context, env *run.Env) ([]run.Record, error) {
							inside := 0
							for range n {
								x, y := env.RNG.Float64(), env.RNG.Float64()
								if x*x+y*y <= 1 {
									inside++
								}
							}
							estimate := 4 * float64(inside) / float64(n)
							return []run.Record{{
								Dataset: "unit square", Method: "monte carlo",
								Params: []run.Param{run.P("n", n)},
								Metric: "abs error", Value: math.Abs(estimate - math.Pi),
							}}, nil
						},
					})
				}
			}
			return tasks, nil
		},
		Render: func(res *run.Results, out *run.Output) error {
			sums, err := run.Summarise(res.Rows, "n")
			if err != nil {
				return err
			}
			return out.Write("md", func(w io.Writer) error {
				fmt.Fprintln(w, "| n | mean abs error |\n|---|---|")
				for _, s := range sums {
					fmt.Fprintf(w, "| %g | %.4f |\n", s.X, s.Mean)
				}
				return nil
			})
		},
		Claims: []run.Claim{{
			ID: "c1", Kind: run.Finding, Text: "the error shrinks with n",
			Rule: "log-log least-squares slope of the error against n over every draw; supported if below 0",
			Check: func(res *run.Results) (verdict.Verdict, error) {
				var logN, logErr []float64
				for _, r := range res.Rows {
					n, err := r.ParamFloat("n")
					if err != nil {
						return verdict.Verdict{}, err
					}
					logN, logErr = append(logN, math.Log(n)), append(logErr, math.Log(r.Value))
				}
				return verdict.Decide([]verdict.Test{verdict.SlopeBelow("slope of log error against log n", logN, logErr, 0)}), nil
			},
		}},
	}
}

func ExampleExecute() {
	dir, err := os.MkdirTemp("", "kernellab-run-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	e := piExperiment()
	res, err := run.Execute(context.Background(), e, run.Options{Scale: run.Smoke, Dir: filepath.Join(dir, "results")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Rows), "rows of", res.Metrics())

	if err := run.Render(e, res, filepath.Join(dir, "figures")); err != nil {
		fmt.Println(err)
		return
	}
	table, _ := os.ReadFile(filepath.Join(dir, "figures", "demo_pi.md"))
	fmt.Print(string(table))

	for _, c := range run.CheckClaims(e, res) {
		fmt.Printf("%s %s: %s\n", c.ClaimID, c.Status, c.Evidence)
	}
	// Output:
	// 6 rows of [abs error]
	// | n | mean abs error |
	// |---|---|
	// | 100 | 0.1795 |
	// | 10000 | 0.0271 |
	// c1 supported: slope of log error against log n: -0.5162 [-0.864, -0.1685] (6 draws; p = 0.017 for, 0.98 against; least-squares slope over every draw, 90% t interval; supported if below 0, contradicted if above)
}
