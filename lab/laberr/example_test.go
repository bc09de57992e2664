package laberr_test

import (
	"errors"
	"fmt"

	"github.com/fastkernels/kernellab/lab/laberr"
)

func ExampleErrorf() {
	err := laberr.Errorf(laberr.ErrNotFitted, "lowrank: %s: the approximation is not fitted", "Nystrom.Transform")
	fmt.Println(err)
	fmt.Println(errors.Is(err, laberr.ErrNotFitted))
	// Output:
	// lowrank: Nystrom.Transform: the approximation is not fitted
	// true
}
