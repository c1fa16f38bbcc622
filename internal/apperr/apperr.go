// Package apperr is the one error type features return when the caller did
// something wrong; httpapi maps its Code to an HTTP status in one place.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Code classifies an error for the HTTP layer.
type Code string

const (
	Invalid      Code = "invalid"      // 400: malformed or out-of-range input
	NotFound     Code = "not_found"    // 404
	Conflict     Code = "conflict"     // 409: e.g. a taken email
	Unauthorized Code = "unauthorized" // 401
	Forbidden    Code = "forbidden"    // 403
	TooMany      Code = "too_many"     // 429
	TooLarge     Code = "too_large"    // 413
	Unsupported  Code = "unsupported"  // 415: a body of a type the call does not take
	Unavailable  Code = "unavailable"  // 503
)

// Error is a user-facing error: Message is safe to show as-is.
type Error struct {
	Code    Code
	Message string
	// RetryAfter, with TooMany, says when the caller may try again.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Message }

// New returns an *Error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf is shorthand for New(Invalid, ...).
func Invalidf(format string, args ...any) *Error { return New(Invalid, format, args...) }

// As returns the *Error inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// CodeOf returns the Code of err, or "" for an internal error.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return ""
}
