//go:build !purego

package kernel

import (
	"testing"
	"unsafe"
)

// TestExpSIMDConstantsLayout pins the byte offsets the assembly reads.
func TestExpSIMDConstantsLayout(t *testing.T) {
	var c expSIMDConstants
	offsets := map[string][2]uintptr{
		"minArg":    {unsafe.Offsetof(c.minArg), 0},
		"maxArg":    {unsafe.Offsetof(c.maxArg), 8},
		"invLn2N":   {unsafe.Offsetof(c.invLn2N), 16},
		"shift":     {unsafe.Offsetof(c.shift), 24},
		"negLn2HiN": {unsafe.Offsetof(c.negLn2HiN), 32},
		"negLn2LoN": {unsafe.Offsetof(c.negLn2LoN), 40},
		"invN":      {unsafe.Offsetof(c.invN), 48},
		"poly":      {unsafe.Offsetof(c.poly), 56},
		"scale":     {unsafe.Offsetof(c.scale), 120},
		"tail":      {unsafe.Offsetof(c.tail), 184},
	}
	for name, o := range offsets {
		if o[0] != o[1] {
			t.Errorf("%s at offset %d, the assembly reads it at %d", name, o[0], o[1])
		}
	}
	if expVecLn2HiN-(-expVecConstants.negLn2HiN) != 0 || expVecConstants.scale[4]*expVecConstants.scale[4] < 1.99 {
		t.Errorf("vector constants not initialised: %+v", *expVecConstants)
	}
}
