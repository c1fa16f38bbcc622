//go:build !race

package bench_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
