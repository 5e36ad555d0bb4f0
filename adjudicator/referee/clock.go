package referee

import "time"

// clock returns the time an act done now is logged at: now, or, when the
// machine's clock has been set back since the latest record of the store
// was logged, that record's time. Every log of the store is written
// through the referee's acts, so no log's times ever go back (titm verify
// refuses a log whose do), and no record of one log is earlier than one
// of another logged before it (a tournament's verify compares its times
// with its games').
func clock(tx Tx, now time.Time) time.Time {
	if latest := tx.Latest(); now.Before(latest) {
		return latest
	}
	return now
}
