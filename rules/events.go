package rules

import (
	"fmt"
)

// An Event is one thing that happened in an impulse, in the order it
// happened; reports are written from events. String is the event in
// English, as a game's log keeps it: what it says is compared by replay
// and verify and must not change.
type Event interface {
	String() string
}

// A TextEvent is an event that says itself as a message too, for the
// reader's language: every event of the rules is one, and its String is
// its Text in English.
type TextEvent interface {
	Event
	Text() Message
}

// ImpulseEnded: the impulse is over; Next is the one to play.
type ImpulseEnded struct {
	Played, Next Impulse
}

// Passed: no orders were received for the impulse (B8).
type Passed struct{ Impulse Impulse }

// String writes the event as the report prints it.
func (e ImpulseEnded) String() string { return e.Text().String() }

// Text is the event as a message.
func (e ImpulseEnded) Text() Message {
	return M("impulse %s ends; next %s", e.Played.String(), e.Next.String())
}

// String writes the event as the report prints it.
func (e Passed) String() string { return e.Text().String() }

// Text is the event as a message.
func (e Passed) Text() Message {
	return M("no orders for %s: played without movement (B8)", e.Impulse.String())
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

// Text is the event as a message: the order, and why in the reader's
// language.
func (e Stopped) Text() Message {
	why := e.Message
	if why.Key == "" {
		why = Plain(e.Why) // as a log keeps it: its English
	}
	return M("%q stops short: %s", e.Order, why)
}
