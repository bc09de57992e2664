package lowrank

import (
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
)

func threadCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return float64(ru.Utime.Nano() + ru.Stime.Nano())
}

func cpuPerValue(f func(w, v []float64)) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	v := make([]float64, 1<<12)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range v {
		v[i] = 20 * (rng.Float64() - 0.5)
	}
	w := make([]float64, len(v))
	best := math.Inf(1)
	for range 20 {
		t0 := threadCPU()
		for range 500 {
			f(w, v)
		}
		best = min(best, (threadCPU()-t0)/float64(500*len(v)))
	}
	return best
}

func TestScratchCPU(t *testing.T) {
	shift := make([]float64, 1<<12)
	t.Logf("math.Cos       %.2f ns", cpuPerValue(func(w, v []float64) { for i, x := range v { w[i] = math.Cos(x) } }))
	t.Logf("cosShiftScale  %.2f ns", cpuPerValue(func(w, v []float64) { copy(w, v); cosShiftScale(w, shift, 1) }))
	t.Logf("sincos  %.2f ns", cpuPerValue(func(w, v []float64) { copy(w, v); sinCosScale(w, shift, 1) }))
	t.Logf("copy           %.2f ns", cpuPerValue(func(w, v []float64) { copy(w, v) }))
}
