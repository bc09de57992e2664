package run

import (
	"fmt"
	"slices"
	"strings"
)

// Registry holds the catalogue's experiments by ID, so the CLI and notebooks find them by name.
type Registry struct {
	byID map[string]*Experiment
	all  []*Experiment // in natural ID order
}

// NewRegistry validates the experiments (ID non-empty and file-safe, unique, Plan or Uses and Render
// set, claim IDs non-empty and unique, each Uses registered too) and indexes them.
func NewRegistry(exps ...*Experiment) (*Registry, error) {
	r := &Registry{byID: make(map[string]*Experiment, len(exps))}
	for _, e := range exps {
		if err := e.validate(); err != nil {
			return nil, err
		}
		if _, dup := r.byID[e.ID]; dup {
			return nil, fmt.Errorf("run: experiment ID %q registered twice", e.ID)
		}
		r.byID[e.ID] = e
		r.all = append(r.all, e)
	}
	for _, e := range exps {
		if e.Uses == nil {
			continue
		}
		if p, ok := r.byID[e.Uses.ID]; !ok || p.Uses != nil {
			return nil, fmt.Errorf("run: experiment %s uses %s, which is not registered as an experiment that runs tasks", e.ID, e.Uses.ID)
		}
	}
	slices.SortFunc(r.all, func(a, b *Experiment) int { return naturalCompare(a.ID, b.ID) })
	return r, nil
}

// Get returns the experiment with the given ID; an unknown ID is an error suggesting close IDs
// (or listing the known ones), since it usually comes from a typo on the command line.
func (r *Registry) Get(id string) (*Experiment, error) {
	if e, ok := r.byID[id]; ok {
		return e, nil
	}
	var close []string
	for _, e := range r.all {
		if isClose(id, e.ID) {
			close = append(close, e.ID)
		}
	}
	if len(close) > 0 {
		return nil, fmt.Errorf("run: unknown experiment %q; did you mean %s?", id, strings.Join(close, ", "))
	}
	known := make([]string, len(r.all))
	for i, e := range r.all {
		known[i] = e.ID
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("run: unknown experiment %q; the registry is empty", id)
	}
	return nil, fmt.Errorf("run: unknown experiment %q; known: %s", id, strings.Join(known, ", "))
}

// All returns the experiments in natural ID order (fig3_2 before fig3_10).
func (r *Registry) All() []*Experiment { return slices.Clone(r.all) }

// isClose reports whether known is a plausible intended spelling of the unknown id.
func isClose(id, known string) bool {
	a, b := strings.ToLower(id), strings.ToLower(known)
	if a == "" {
		return false
	}
	if strings.HasPrefix(b, a) || strings.HasPrefix(a, b) {
		return true
	}
	return editDistance(a, b) <= max(1, len(b)/4)
}

// editDistance is the Levenshtein distance between two strings, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// naturalCompare orders strings with runs of digits compared as numbers: fig3_2 < fig3_10.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if c := len(na) - len(nb); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return int(a[i]) - int(b[j])
		}
		i++
		j++
	}
	if c := (len(a) - i) - (len(b) - j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
