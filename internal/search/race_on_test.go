//go:build race

package search

// raceEnabled: the tests run under the race detector, which makes data
// generation and the oracles many times slower; the costliest oracle
// tests then check their smaller sets (every check still runs).
const raceEnabled = true
