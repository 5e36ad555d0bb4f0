//go:build race

package adjudicator

// raceDetector is true in a test binary built with -race.
const raceDetector = true
