//go:build !race

package tournament_test

// raceDetector is true in a test binary built with -race.
const raceDetector = false
