package photos

import (
	"context"
	"time"

	"locator/internal/apperr"
)

// A decoded photo holds up to MaxPixels pixels (~200 MB as RGBA), so at most
// two are decoded at once per process; others wait briefly, then get a 503.
type slots chan struct{}

var gate = make(slots, 2)

const gateWait = 5 * time.Second

var errBusy = &apperr.Error{Code: apperr.Unavailable, RetryAfter: 5 * time.Second,
	Message: "Photos are being processed. Please try again in a few seconds."}

func (s slots) acquire(ctx context.Context) (func(), error) {
	ctx, cancel := context.WithTimeout(ctx, gateWait)
	defer cancel()
	select {
	case s <- struct{}{}:
		return func() { <-s }, nil
	case <-ctx.Done():
		return nil, errBusy
	}
}
