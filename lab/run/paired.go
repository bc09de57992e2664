package run

import "fmt"

// PairedDifferences returns a[i] − b[j] for the rows of a and b that share repetition and
// parameters (the same draw measured by two methods), in the order of a. A row of a without its
// pair in b, or a pair found twice, is an error: an unpaired comparison must not pass for a paired
// one.
func PairedDifferences(a, b []Row) ([]float64, error) {
	key := func(r Row) string { return fmt.Sprintf("%d|%s|%s", r.Rep, r.Dataset, paramsKey(r.Params)) }
	index := make(map[string]float64, len(b))
	for _, r := range b {
		k := key(r)
		if _, dup := index[k]; dup {
			return nil, fmt.Errorf("run: paired rows: %s appears twice", r.describe())
		}
		index[k] = r.Value
	}
	if len(a) != len(b) {
		return nil, fmt.Errorf("run: paired rows: %d against %d", len(a), len(b))
	}
	out := make([]float64, len(a))
	for i, r := range a {
		v, ok := index[key(r)]
		if !ok {
			return nil, fmt.Errorf("run: paired rows: %s has no pair", r.describe())
		}
		out[i] = r.Value - v
	}
	return out, nil
}

func paramsKey(ps []Param) string {
	var s string
	for _, p := range ps {
		s += p.Name + "=" + p.Value + ";"
	}
	return s
}
