package rules

import (
	"fmt"
)

// An Event is one thing that happened in an impulse, in the order it
// happened; reports are written from events.
type Event interface {
	String() string
}

// ImpulseEnded: the impulse is over; Next is the one to play.
type ImpulseEnded struct {
	Played, Next Impulse
}

// Passed: no orders were received for the impulse (B8).
type Passed struct{ Impulse Impulse }

// String writes the event as the report prints it.
func (e ImpulseEnded) String() string {
	return fmt.Sprintf("impulse %s ends; next %s", e.Played, e.Next)
}

// String writes the event as the report prints it.
func (e Passed) String() string {
	return fmt.Sprintf("no orders for %s: played without movement (B8)", e.Impulse)
}

// Stopped: an order could not be carried out to its end, as the board had
// changed under it (a bridge blown earlier in the impulse); it stood where
// it was.
type Stopped struct {
	Line    int
	Order   string
	Why     string  // in English
	Message Message `json:"-"` // Why, for the reader's language
}

// String names the order by its text, not its line: a game's log keeps the
// orders in canonical form, whose lines are not those of the mail, and its
// replay must tell the same events. No two orders of a mail are the same.
func (e Stopped) String() string {
	return fmt.Sprintf("%q stops short: %s", e.Order, e.Why)
}
