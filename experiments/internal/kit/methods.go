package kit

// Method is one series of a source's figures, written once: its ID (the results table's Method
// column, which also picks its style in lab/plotting), its legend label and how it runs. Run's type
// F is the source's own (a pruner in chapter 6, a score function in chapter 3, ...); a nil Run
// marks a series that is drawn but not run by a method call (a reference line, a diagnostic).
type Method[F any] struct {
	ID, Label string
	Run       F
}

// Methods is a source's method table in legend order. It replaces the parallel const block,
// ordered slice, label map and dispatch switch a source would otherwise keep in step by hand.
type Methods[F any] []Method[F]

// IDs returns the IDs of the methods, in table order.
func (ms Methods[F]) IDs() []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// Labels maps each ID to its legend label.
func (ms Methods[F]) Labels() map[string]string {
	labels := make(map[string]string, len(ms))
	for _, m := range ms {
		labels[m.ID] = m.Label
	}
	return labels
}

// Lookup returns the method with the given ID, and false when the table does not list it.
func (ms Methods[F]) Lookup(id string) (Method[F], bool) {
	for _, m := range ms {
		if m.ID == id {
			return m, true
		}
	}
	return Method[F]{}, false
}
