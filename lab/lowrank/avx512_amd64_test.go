//go:build !purego

package lowrank

import (
	"testing"
	"unsafe"
)

// The assembly reads trigSIMDConstants by these byte offsets.
func TestTrigSIMDConstantsLayout(t *testing.T) {
	var c trigSIMDConstants
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"invPi", unsafe.Offsetof(c.invPi), 0}, {"roundShift", unsafe.Offsetof(c.roundShift), 8},
		{"piHi", unsafe.Offsetof(c.piHi), 16}, {"piMid", unsafe.Offsetof(c.piMid), 24},
		{"piLo", unsafe.Offsetof(c.piLo), 32}, {"fastMax", unsafe.Offsetof(c.fastMax), 40},
		{"absMask", unsafe.Offsetof(c.absMask), 48}, {"cos", unsafe.Offsetof(c.cos), 56},
		{"sin", unsafe.Offsetof(c.sin), 144},
	} {
		if f.got != f.want {
			t.Errorf("offset of %s = %d, the assembly uses %d", f.name, f.got, f.want)
		}
	}
}
