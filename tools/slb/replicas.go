package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"time"

	"locator/internal/catalog"
	"locator/internal/db"
	"locator/internal/inventory"
	"locator/internal/stores"
)

// cmdReplicas measures how soon a stock change is visible in every
// replica's search: it launches replicas of bin/locator on one database
// (loaded with `slb load -products`), then, trial after trial, changes one
// store's availability of one product through inventory.Repo.Set (the call
// the owners' pages make) and asks each replica's list call for that
// product around the store until the answer shows the change. It reports,
// per trial, the time from the write's commit to the last replica
// answering it.
func cmdReplicas(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("replicas", flag.ContinueOnError)
	bin := fs.String("bin", "bin/locator", "the locator binary")
	dbURL := fs.String("database-url", "", "postgres://... or sqlite:PATH (loaded with slb load -products)")
	n := fs.Int("replicas", 2, "replicas to launch")
	trials := fs.Int("trials", 20, "stock changes to time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	conn, err := db.Open(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer conn.Close()
	sr := stores.NewRepo(conn)
	cat := catalog.NewRepo(conn)
	stock := inventory.NewRepo(sr, cat)
	all, err := cat.All(ctx)
	if err != nil {
		return err
	}
	pid := map[int64]string{}
	for _, p := range all {
		pid[p.ID] = p.ProductID
	}
	count, err := sr.Count(ctx)
	if err != nil || count == 0 {
		return fmt.Errorf("no stores (%v): run slb load -products first", err)
	}
	var reps []*server
	defer func() {
		for _, r := range reps {
			r.stop()
		}
	}()
	for range *n {
		s, err := startServer(ctx, *bin, *dbURL, os.Stderr)
		if err != nil {
			return err
		}
		reps = append(reps, s)
		fmt.Printf("replica %s ready in %s (CPU %s)\n", s.url, s.took.Round(time.Millisecond), s.cpu)
	}
	rng := rand.New(rand.NewPCG(42, 7))
	client := &http.Client{Timeout: 10 * time.Second}
	var took []time.Duration
	for t := 0; t < *trials; t++ {
		storeID := int64(1 + rng.IntN(count))
		rows, err := stock.OfStores(ctx, []int64{storeID})
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			t--
			continue
		}
		e := rows[rng.IntN(len(rows))]
		s, err := sr.Get(ctx, storeID)
		if err != nil {
			return err
		}
		next := inventory.InStock
		if e.Availability == inventory.InStock {
			next = inventory.OutOfStock
		}
		q := url.Values{"latitude": {fmt.Sprint(s.Latitude)}, "longitude": {fmt.Sprint(s.Longitude)}, "radius": {"0.01"},
			"limit": {"100"}, "product": {pid[e.ProductID]}}
		path := "/store/physical-store/list-physical-store/?" + q.Encode()
		if err := stock.Set(ctx, storeID, e.ProductID, inventory.Row{Availability: next}); err != nil {
			return err
		}
		wrote := time.Now()
		var last time.Duration
		for _, r := range reps {
			for {
				got, err := availabilityIn(ctx, client, r.url+path, storeID)
				if err != nil {
					return err
				}
				if got == string(next) {
					break
				}
				if time.Since(wrote) > time.Minute {
					return fmt.Errorf("replica %s still answers %q for store %d a minute after the change", r.url, got, storeID)
				}
				time.Sleep(5 * time.Millisecond)
			}
			last = max(last, time.Since(wrote))
		}
		took = append(took, last)
		fmt.Printf("trial %d: store %d, product %s -> %s: visible in all %d replicas after %s\n", t+1, storeID, pid[e.ProductID], next, len(reps), last.Round(time.Millisecond))
		time.Sleep(time.Duration(rng.IntN(1000)) * time.Millisecond) // not in step with the replicas' polls
	}
	slices.Sort(took)
	fmt.Printf("stock change visible in all %d replicas: median %s, max %s over %d trials\n", len(reps),
		took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond), len(took))
	for _, r := range reps {
		if c, err := cpuTime(r.cmd.Process.Pid); err == nil {
			fmt.Printf("replica %s: CPU %s in all\n", r.url, c)
		}
	}
	return nil
}

// availabilityIn asks a replica's list call and returns the availability
// it answers for store ("" when the store is not listed).
func availabilityIn(ctx context.Context, c *http.Client, u string, store int64) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s: %s", u, resp.Status)
	}
	var a struct {
		Stores []struct {
			ID      int64 `json:"id"`
			Product struct {
				Availability string `json:"availability"`
			} `json:"product"`
		} `json:"physical_stores"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	for _, s := range a.Stores {
		if s.ID == store {
			return s.Product.Availability, nil
		}
	}
	return "", nil
}
