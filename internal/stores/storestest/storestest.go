// Package storestest starts the tests that need stores in the database: a
// repository on each engine, with one store saved.
package storestest

import (
	"context"
	"testing"

	"locator/internal/db"
	"locator/internal/db/dbtest"
	"locator/internal/stores"
)

// CloudNine is a plain published store in New York, for tests whose store
// only has to exist.
func CloudNine() *stores.Store {
	return &stores.Store{Name: "Cloud Nine", Latitude: 40.7, Longitude: -74, TimeZone: "America/New_York"}
}

// Created saves st through a new repository of d (the test fails if it
// cannot) and returns the repository and st, its ID set.
func Created(t testing.TB, d *db.DB, st *stores.Store) (*stores.Repo, *stores.Store) {
	t.Helper()
	repo := stores.NewRepo(d)
	dbtest.Must(t, repo.Create(context.Background(), st), "create store %q", st.Name)
	return repo, st
}

// Each runs fn once per engine (dbtest.Each) with the test's context and a
// repository of an empty, migrated database (repo.DB() is the database).
func Each(t *testing.T, fn func(t *testing.T, ctx context.Context, repo *stores.Repo)) {
	t.Helper()
	dbtest.Each(t, func(t *testing.T, d *db.DB) { fn(t, t.Context(), stores.NewRepo(d)) })
}
