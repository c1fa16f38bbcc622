//go:build race

package bench_test

// raceEnabled: the tests run under the race detector, which makes the
// generators and the oracles 5 to 20 times slower; the costly gates
// check fewer queries (every check still runs).
const raceEnabled = true
