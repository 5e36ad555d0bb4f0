package tournament

import (
	"titm/rules"
)

// The words of a tournament's settings as its players read them. The file
// writes them as keywords (format = "swiss"); English shows the keyword
// itself, another language its own word.

// settingTexts are the words of the settings' keywords (format, sides,
// tie-breaks) as a player reads them.
var settingTexts = map[string]rules.Message{
	RoundRobin:     rules.M("round-robin"),
	Swiss:          rules.M("swiss"),
	Elimination:    rules.M("elimination"),
	SidesAlternate: rules.M("alternate"),
	SidesRandom:    rules.M("random"),
	SidesBids:      rules.M("bids"),
	TieMargin:      rules.M("margin"),
	TieHeadToHead:  rules.M("head-to-head"),
	TieBuchholz:    rules.M("buchholz"),
}

// settingText names a setting's keyword; one not the file's, as it is.
func settingText(keyword string) rules.Message {
	if m, ok := settingTexts[keyword]; ok {
		return m
	}
	return rules.Plain(keyword)
}

// FormatText names a tournament's format: round-robin, swiss, elimination.
func FormatText(format string) rules.Message { return settingText(format) }

// SidesText names a tournament's side rule: alternate, random, bids.
func SidesText(sides string) rules.Message { return settingText(sides) }

// TieBreakText names a tie-break: margin, head-to-head, buchholz.
func TieBreakText(tb string) rules.Message { return settingText(tb) }

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
