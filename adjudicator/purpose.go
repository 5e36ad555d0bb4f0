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
	if p.Code() == lang.English {
		return purpose
	}
	imp, rest, ok := strings.Cut(purpose, " ")
	if !ok {
		return purpose
	}
	if what, ok := strings.CutPrefix(rest, "battle "); ok {
		area, what, ok := strings.Cut(what, ": ")
		if !ok {
			return purpose
		}
		var side string // the side's name in the language, given as a string: it needs no more translating
		switch {
		case strings.HasPrefix(what, "German "):
			side, what = p.Side(rules.German), what[len("German "):]
		case strings.HasPrefix(what, "Allied "):
			side, what = p.Side(rules.Allied), what[len("Allied "):]
		default:
			return purpose
		}
		if n, ok := strings.CutPrefix(what, "artillery call "); ok {
			if i, of, ok := cutOf(n); ok {
				return p.Fill("%s battle %s: %s artillery call %s of %s", imp, area, side, i, of)
			}
		}
		if n, ok := strings.CutPrefix(what, "strike "); ok {
			n, target, ok1 := strings.Cut(n, " on ")
			if i, of, ok2 := cutOf(n); ok1 && ok2 {
				return p.Fill("%s battle %s: %s strike %s of %s on %s", imp, area, side, i, of, target)
			}
		}
		if n, ok := strings.CutPrefix(what, "fire "); ok {
			firer, n, ok1 := strings.Cut(n, " at ")
			target, n, ok2 := strings.Cut(n, ", die ")
			if i, of, ok3 := cutOf(n); ok1 && ok2 && ok3 {
				return p.Fill("%s battle %s: %s fire %s at %s, die %s of %s", imp, area, side, firer, target, i, of)
			}
		}
		return purpose
	}
	if n, ok := strings.CutPrefix(rest, "repair "); ok {
		if bridge, unit, ok := strings.Cut(n, " by "); ok {
			return p.Fill("%s repair %s by %s", imp, bridge, unit)
		}
	}
	if n, ok := strings.CutPrefix(rest, "demolition "); ok {
		if bridge, unit, ok := strings.Cut(n, " by "); ok {
			return p.Fill("%s demolition %s by %s", imp, bridge, unit)
		}
	}
	return purpose
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
