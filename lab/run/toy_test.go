package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// toy is a test experiment whose tasks return draws of their RNG, so any dependence of the numbers
// on workers, order or shard shows up in the CSV.
type toy struct {
	n     int
	calls atomic.Int64
	// hook runs inside each task before it returns (cancel, fail, sleep...).
	hook func(ctx context.Context, i int) error
}

func (ty *toy) experiment() *Experiment {
	return &Experiment{
		ID: "toy1", Title: "Toy", Seed: 42,
		Plan: func(sc Scale) ([]Task, error) {
			tasks := make([]Task, ty.n)
			for i := range tasks {
				tasks[i] = Task{
					Key: fmt.Sprintf("cfg%d/rep=%d", i%3, i/3),
					Rep: i / 3,
					Run: func(ctx context.Context, env *Env) ([]Record, error) {
						ty.calls.Add(1)
						if ty.hook != nil {
							if err := ty.hook(ctx, i); err != nil {
								return nil, err
							}
						}
						params := []Param{P("s", 10*(i%3)), P("lam", 0.1*float64(i%3+1))}
						return []Record{
							{Dataset: "ring, 2-D", Method: "uniform", Params: params, Metric: "err", Value: env.RNG.Float64()},
							{Dataset: "ring, 2-D", Method: "rls", Params: params, Metric: "err", Value: env.RNG.NormFloat64() * 1e-300},
						}, nil
					},
				}
			}
			return tasks, nil
		},
		Render: func(res *Results, out *Output) error { return nil },
	}
}

// sleepByIndex makes tasks finish out of plan order.
func sleepByIndex(ctx context.Context, i int) error {
	time.Sleep(time.Duration((i*7)%5) * time.Millisecond)
	return nil
}

func mustExecute(t *testing.T, e *Experiment, opts Options) *Results {
	t.Helper()
	res, err := Execute(context.Background(), e, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func tablePath(dir string, sc Scale, id string) string {
	return filepath.Join(dir, string(sc), id+".csv")
}
