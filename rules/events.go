package rules

import (
	"fmt"
	"strings"
)

// An Event is one thing that happened in an impulse, in the order it
// happened; reports are written from events.
type Event interface {
	String() string
}

// Arrived: a reinforcement was placed in its entry zone (11.11).
type Arrived struct {
	Unit string
	Zone string
}

// Moved: units moved along a path, spending MP (8.2, 8.3).
type Moved struct {
	Units []string
	Path  []Place
	MP    int
	Foot  bool
}

// Entrenched: a unit entrenched (8.5).
type Entrenched struct{ Unit string }

// StackRemoved: a unit was removed for over-stacking (7.2).
type StackRemoved struct {
	Unit string
	Area int
	Why  string // "order" (REMOVE) or "policy" (B6)
}

// ControlChanged: an area passed to a side (12.22).
type ControlChanged struct {
	Area int
	Side Side
}

// ImpulseEnded: the impulse is over; Next is the one to play.
type ImpulseEnded struct {
	Played, Next Impulse
}

// Passed: no orders were received for the impulse (B8).
type Passed struct{ Impulse Impulse }

func (e Arrived) String() string { return fmt.Sprintf("%s arrives in zone %s", e.Unit, e.Zone) }
func (e Moved) String() string {
	how := "moves"
	if e.Foot {
		how = "moves on foot"
	}
	var p []string
	for _, pl := range e.Path {
		p = append(p, pl.String())
	}
	return fmt.Sprintf("%s %s %s (%d MP)", strings.Join(e.Units, " "), how, strings.Join(p, "-"), e.MP)
}
func (e Entrenched) String() string { return e.Unit + " entrenches" }
func (e StackRemoved) String() string {
	return fmt.Sprintf("%s is removed from %d: over the stacking limit (7.2, by %s)", e.Unit, e.Area, e.Why)
}
func (e ControlChanged) String() string {
	return fmt.Sprintf("area %d passes to the %s side (12.22)", e.Area, e.Side.Title())
}
func (e ImpulseEnded) String() string {
	return fmt.Sprintf("impulse %s ends; next %s", e.Played, e.Next)
}
func (e Passed) String() string {
	return fmt.Sprintf("no orders for %s: played without movement (B8)", e.Impulse)
}

// DemolitionTried: the non-phasing side tried to blow a bridge as the enemy
// crossed it (10.2, 10.29).
type DemolitionTried struct {
	Bridge, Unit string
	Roll, Need   int
	Blown        bool
}

// RepairTried: an engineer tried to repair a bridge (10.1).
type RepairTried struct {
	Bridge, Unit string
	Roll, Need   int
	Repaired     bool
}

// Stopped: an order could not be carried out to its end, as the board had
// changed under it (a bridge blown earlier in the impulse); it stood where
// it was.
type Stopped struct {
	Line  int
	Order string
	Why   string
}

func (e DemolitionTried) String() string {
	res := "holds"
	if e.Blown {
		res = "is blown"
	}
	return fmt.Sprintf("%s tries to blow bridge %s: rolls %d, needs %d or less: the bridge %s (10.29)", e.Unit, e.Bridge, e.Roll, e.Need, res)
}

func (e RepairTried) String() string {
	res := "still blown"
	if e.Repaired {
		res = "repaired"
	}
	return fmt.Sprintf("%s tries to repair bridge %s: rolls %d, needs %d or less: %s (10.15, 10.16)", e.Unit, e.Bridge, e.Roll, e.Need, res)
}

// String names the order by its text, not its line: a game's log keeps the
// orders in canonical form, whose lines are not those of the mail, and its
// replay must tell the same events. No two orders of a mail are the same.
func (e Stopped) String() string {
	return fmt.Sprintf("%q stops short: %s", e.Order, e.Why)
}
