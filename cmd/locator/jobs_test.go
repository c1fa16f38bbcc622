package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The job loop: a job with first runs at start, one without waits an
// interval; a failing job is logged by name and keeps its schedule; stop
// ends a job in flight (its context) and returns only after it did.
func TestJobsRunAndStop(t *testing.T) {
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	var atStart, ticked, failed atomic.Int64
	inFlight := make(chan struct{})
	var ended atomic.Bool
	var once sync.Once
	runner := startJobs([]job{
		{name: "at start", every: time.Hour, first: func(context.Context) error { atStart.Add(1); return nil },
			run: func(context.Context) error { t.Error("the hourly job ran its interval"); return nil }},
		{name: "ticking", every: 5 * time.Millisecond, run: func(context.Context) error { ticked.Add(1); return nil }},
		{name: "failing job", every: 5 * time.Millisecond, run: func(context.Context) error { failed.Add(1); return errors.New("boom") }},
		{name: "slow", every: time.Millisecond, run: func(ctx context.Context) error {
			once.Do(func() { close(inFlight) })
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond) // a snapshot being deleted, say
			ended.Store(true)
			return ctx.Err()
		}},
	}, log)
	deadline := time.Now().Add(10 * time.Second)
	for ticked.Load() < 3 || failed.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: %d ticks, %d failures", ticked.Load(), failed.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	<-inFlight
	runner.stop()
	if !ended.Load() {
		t.Error("stop returned before the job in flight ended")
	}
	if atStart.Load() != 1 {
		t.Errorf("the job with first ran it %d times, want 1", atStart.Load())
	}
	n := ticked.Load()
	time.Sleep(20 * time.Millisecond)
	if ticked.Load() != n {
		t.Error("a job ran after stop")
	}
	out := logs.String()
	if !strings.Contains(out, `msg="failing job failed" job="failing job" err=boom`) {
		t.Errorf("the failure is not logged by name:\n%s", out)
	}
	if strings.Contains(out, "slow failed") {
		t.Errorf("the stop's cancellation was logged as a failure:\n%s", out)
	}
}
