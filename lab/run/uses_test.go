package run

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// user is an entry that renders and checks toy1's results without tasks of its own.
func user(id string, producer *Experiment) *Experiment {
	return &Experiment{ID: id, Title: "uses toy1", Uses: producer,
		Render: func(res *Results, out *Output) error { return nil }}
}

func TestUsesRunsTheProducerOnce(t *testing.T) {
	ty := &toy{n: 6}
	producer := ty.experiment()
	a, b := user("fig_a", producer), user("fig_b", producer)
	if _, err := NewRegistry(producer, a, b); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opts := Options{Scale: Quick, Dir: dir, Workers: 2}
	ra := mustExecute(t, a, opts)
	rb := mustExecute(t, b, opts)
	rp := mustExecute(t, producer, opts)
	if got := ty.calls.Load(); got != 6 {
		t.Errorf("%d task calls for two users and their producer, want the producer's 6 once", got)
	}
	for _, r := range []*Results{ra, rb} {
		if r.ID != producer.ID || len(r.Rows) != len(rp.Rows) {
			t.Errorf("user results: ID %q, %d rows; want the producer's %q, %d rows", r.ID, len(r.Rows), producer.ID, len(rp.Rows))
		}
	}
	loaded, err := Load(a, Quick, dir)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.ID != producer.ID || len(loaded.Rows) != len(rp.Rows) {
		t.Errorf("Load of a user: ID %q, %d rows; want %q, %d rows", loaded.ID, len(loaded.Rows), producer.ID, len(rp.Rows))
	}
	keys, err := TaskKeys(a, Quick)
	if err != nil || len(keys) != 6 {
		t.Errorf("TaskKeys of a user: %v, %v; want the producer's 6 keys", keys, err)
	}
	if n, err := Missing(b, Quick, dir, Shard{}); err != nil || n != 0 {
		t.Errorf("Missing of a user after the run: %d, %v; want 0", n, err)
	}
	if _, err := Load(a, Smoke, dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load at a scale never run: %v, want fs.ErrNotExist", err)
	}
}

func TestUsesMergesTheProducersShards(t *testing.T) {
	ty := &toy{n: 6}
	producer := ty.experiment()
	a := user("fig_a", producer)
	whole, s0, s1, merged := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	mustExecute(t, producer, Options{Scale: Smoke, Dir: whole})
	mustExecute(t, a, Options{Scale: Smoke, Dir: s0, Shard: Shard{Index: 0, Count: 2}})
	mustExecute(t, a, Options{Scale: Smoke, Dir: s1, Shard: Shard{Index: 1, Count: 2}})
	if err := Merge(a, Smoke, merged, s0, s1); err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, tablePath(merged, Smoke, producer.ID)), readFile(t, tablePath(whole, Smoke, producer.ID)); !bytes.Equal(got, want) {
		t.Error("merging a user's shards does not give the producer's unsharded table")
	}
}

func TestUsesValidates(t *testing.T) {
	producer := (&toy{n: 1}).experiment()
	both := user("both", producer)
	both.Plan = producer.Plan
	chained := user("chained", user("middle", producer))
	orphan := user("orphan", stub("unregistered"))
	for want, exps := range map[string][]*Experiment{
		"both a Plan and Uses": {producer, both},
		"itself uses":          {producer, chained},
		"not registered":       {producer, orphan},
		"uses an invalid":      {producer, user("bad", &Experiment{ID: "bad producer"})},
	} {
		_, err := NewRegistry(exps...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
	if _, err := Execute(context.Background(), chained, Options{Scale: Smoke, Dir: t.TempDir()}); err == nil {
		t.Error("Execute of a chained user: no error")
	}
}
