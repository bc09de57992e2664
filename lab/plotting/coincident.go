package plotting

import "math"

// Coincident returns the pairs (i, j), i < j, of bands whose means agree within a relative
// tolerance tol (for instance 0.01) at every x value they share, and that share at least two:
// drawn in order, band j would hide the line of band i. A renderer then says so, in the caption or
// in band i's label ("exact RLS (under DAC)"); the markers of the two methods, which differ, still
// show both at the measured points.
func Coincident(bands []Band, tol float64) [][2]int {
	var pairs [][2]int
	for i := range bands {
		for j := i + 1; j < len(bands); j++ {
			if coincide(bands[i], bands[j], tol) {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	return pairs
}

func coincide(a, b Band, tol float64) bool {
	shared := 0
	for k, x := range a.X {
		for l, y := range b.X {
			if x != y || k >= len(a.Mean) || l >= len(b.Mean) {
				continue
			}
			u, v := a.Mean[k], b.Mean[l]
			if math.Abs(u-v) > tol*max(math.Abs(u), math.Abs(v)) {
				return false
			}
			shared++
		}
	}
	return shared >= 2
}
