// Package ctxcheck holds the two checks of the lab's Context twins (see docs/architecture.md,
// Conventions): a nil ctx is refused up front, and a long loop looks at ctx between its blocks or
// iterations, never inside one, so that a run that is not cancelled does exactly the work, in
// exactly the order, of the function without ctx.
//
// The first argument of each function (where) is the prefix that says which package and
// operation failed, as in "leverage: DAC".
package ctxcheck

import (
	"context"
	"fmt"
)

// NotNil returns the error "where: nil context" for a nil ctx, and nil otherwise.
func NotNil(ctx context.Context, where string) error {
	if ctx == nil {
		return fmt.Errorf("%s: nil context", where)
	}
	return nil
}

// Done returns ctx's error wrapped as "where: context canceled" (errors.Is finds
// context.Canceled or context.DeadlineExceeded) once ctx is done, and nil before.
func Done(ctx context.Context, where string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}
