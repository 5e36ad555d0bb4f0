package adjudicator

import (
	"strings"

	"titm/adjudicator/lang"
	"titm/rules"
)

// PurposeText returns what a die was for, as stored in the log, in the
// language of p: the stored text itself in English, or in a form the
// rules do not write. The game's log keeps a purpose as the rules wrote
// it, in English, and titm verify compares it (B10); a report in another
// language shows its translation. The forms are read with plain string
// cuts: a report reads every die of its impulse.
func PurposeText(p *lang.Printer, purpose string) string {
	var m purposeMsg
	if p.Code() == lang.English || !m.read(p, purpose) {
		return purpose
	}
	return p.Fill(m.Key, m.args[:m.n]...)
}

// A purposeMsg is a die's purpose read as the message that translates it:
// its key and its arguments.
type purposeMsg struct {
	Key  string
	args [7]string
	n    int
}

// translated makes m the message key with args: the purpose has a
// translation.
func (m *purposeMsg) translated(key string, args ...string) bool {
	m.Key, m.n = key, copy(m.args[:], args)
	return true
}

// read reads purpose into m; false for a form that has no translation,
// shown as stored.
func (m *purposeMsg) read(p *lang.Printer, purpose string) bool {
	imp, rest, ok := strings.Cut(purpose, " ")
	if !ok {
		return false
	}
	if what, ok := strings.CutPrefix(rest, "battle "); ok {
		area, what, ok := strings.Cut(what, ": ")
		if !ok {
			return false
		}
		var side string // the side's name in the language, given as a string: it needs no more translating
		switch {
		case strings.HasPrefix(what, "German "):
			side, what = p.Side(rules.German), what[len("German "):]
		case strings.HasPrefix(what, "Allied "):
			side, what = p.Side(rules.Allied), what[len("Allied "):]
		default:
			return false
		}
		if n, ok := strings.CutPrefix(what, "artillery call "); ok {
			if i, of, ok := cutOf(n); ok {
				return m.translated("%s battle %s: %s artillery call %s of %s", imp, area, side, i, of)
			}
		}
		if n, ok := strings.CutPrefix(what, "strike "); ok {
			n, target, ok1 := strings.Cut(n, " on ")
			if i, of, ok2 := cutOf(n); ok1 && ok2 {
				return m.translated("%s battle %s: %s strike %s of %s on %s", imp, area, side, i, of, target)
			}
		}
		if n, ok := strings.CutPrefix(what, "fire "); ok {
			firer, n, ok1 := strings.Cut(n, " at ")
			target, n, ok2 := strings.Cut(n, ", die ")
			if i, of, ok3 := cutOf(n); ok1 && ok2 && ok3 {
				return m.translated("%s battle %s: %s fire %s at %s, die %s of %s", imp, area, side, firer, target, i, of)
			}
		}
		return false
	}
	if n, ok := strings.CutPrefix(rest, "repair "); ok {
		if bridge, unit, ok := strings.Cut(n, " by "); ok {
			return m.translated("%s repair %s by %s", imp, bridge, unit)
		}
	}
	if n, ok := strings.CutPrefix(rest, "demolition "); ok {
		if bridge, unit, ok := strings.Cut(n, " by "); ok {
			return m.translated("%s demolition %s by %s", imp, bridge, unit)
		}
	}
	return false
}

// cutOf reads "i of n" into its two numbers.
func cutOf(s string) (i, n string, ok bool) {
	i, n, ok = strings.Cut(s, " of ")
	return i, n, ok && digits(i) && digits(n)
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
