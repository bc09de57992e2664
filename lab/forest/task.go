package forest

import "fmt"

// Task is the learning problem a tree or forest solves; it picks the split criterion and the
// leaf values.
type Task int

const (
	// Regression fits real targets: leaves hold the mean target, splits minimise the sum of
	// squared errors (variance reduction).
	Regression Task = iota
	// Classification fits binary labels, which must be exactly −1 or +1: leaves hold the
	// majority label (a tie gives +1), splits minimise n·Gini.
	Classification
)

// String returns "Regression", "Classification", or "Task(k)" for an unknown value.
func (t Task) String() string {
	switch t {
	case Regression:
		return "Regression"
	case Classification:
		return "Classification"
	}
	return fmt.Sprintf("Task(%d)", int(t))
}

// known reports whether t is one of the declared tasks.
func (t Task) known() bool { return t == Regression || t == Classification }
