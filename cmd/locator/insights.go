package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"locator/internal/config"
	"locator/internal/insights"
	"locator/internal/places"
)

// insightsStopTimeout bounds the last flush of a stopping server.
const insightsStopTimeout = 10 * time.Second

// flushInsights is serve's last step on SIGTERM: the counts since the
// previous flush are written, so a replica stopped normally loses none.
func flushInsights(s *insights.Service, log *slog.Logger) {
	if err := s.Stop(insightsStopTimeout); err != nil {
		log.Warn("insights: the last flush failed; these counts are lost", "err", err)
		return
	}
	log.Info("insights flushed")
}

func cmdInsights(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newFlags("insights", "insights [--days N]\n\nPrints the store searches of the last N days, how many found no store, and\nthe places with the most searches that found nothing (docs/insights.md).", stderr)
	s := config.Register(fs, getenv, "database-url", "log-format", "log-level")
	days := fs.Int("days", 30, "the period, in days up to today (UTC)")
	top := fs.Int("top", 10, "how many places to list")
	cfg, err := parse(fs, s, args)
	if err != nil {
		return err
	}
	if *days < 1 || *days > insights.MaxDemandDays {
		return &exitError{code: 2, msg: fmt.Sprintf("--days must be from 1 to %d", insights.MaxDemandDays)}
	}
	d, _, err := openLogged(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	gaz, err := places.Load()
	if err != nil {
		return err
	}
	rep, err := insights.DemandReport(ctx, d, gaz, *days, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s to %s (%d days, UTC)\n", rep.From, rep.To, rep.Days)
	fmt.Fprintf(stdout, "searches: %d\n", rep.Searches)
	fmt.Fprintf(stdout, "with zero results: %d\n", rep.ZeroResults)
	fmt.Fprintf(stdout, "unique visitors (estimated, summed per day): %d\n", rep.Visitors)
	if len(rep.Places) == 0 {
		fmt.Fprintln(stdout, "no searches without results")
		return nil
	}
	fmt.Fprintln(stdout, "top places by zero-result searches:")
	for i, a := range rep.Places {
		if i == *top {
			break
		}
		fmt.Fprintf(stdout, "  %6d  %s, %s (%d searches)\n", a.ZeroResults, a.Name, a.Region, a.Searches)
	}
	return nil
}
