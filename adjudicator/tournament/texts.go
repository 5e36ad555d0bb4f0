package tournament

import (
	"titm/rules"
)

// The words of a tournament's settings as its players read them. The file
// writes them as keywords (format = "swiss"); English shows the keyword
// itself, another language its own word.

// FormatText names a tournament's format: round-robin, swiss, elimination.
func FormatText(format string) rules.Message {
	switch format {
	case RoundRobin:
		return rules.M("round-robin")
	case Swiss:
		return rules.M("swiss")
	case Elimination:
		return rules.M("elimination")
	}
	return rules.Plain(format) // not the file's: as it is
}

// SidesText names a tournament's side rule: alternate, random, bids.
func SidesText(sides string) rules.Message {
	switch sides {
	case SidesAlternate:
		return rules.M("alternate")
	case SidesRandom:
		return rules.M("random")
	case SidesBids:
		return rules.M("bids")
	}
	return rules.Plain(sides) // not the file's: as it is
}

// TieBreakText names a tie-break: margin, head-to-head, buchholz.
func TieBreakText(tb string) rules.Message {
	switch tb {
	case TieMargin:
		return rules.M("margin")
	case TieHeadToHead:
		return rules.M("head-to-head")
	case TieBuchholz:
		return rules.M("buchholz")
	}
	return rules.Plain(tb) // not the file's: as it is
}

// TieBreaksText lists the tie-breaks in their order: "buchholz, margin,
// head-to-head".
func TieBreaksText(tbs []string) rules.Message {
	ms := make([]rules.Message, len(tbs))
	for i, tb := range tbs {
		ms[i] = TieBreakText(tb)
	}
	return rules.List(ms)
}

// causeError is a refusal that says a message, in the reader's language
// (rules.MessageOf), and wraps its cause, which errors.Is finds
// (ErrNoPairing).
type causeError struct {
	msg   rules.Message
	cause error
}

func (e *causeError) Error() string { return e.msg.String() }

func (e *causeError) Unwrap() []error { return []error{e.msg.Err(), e.cause} }
