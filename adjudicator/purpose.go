package adjudicator

import (
	"regexp"

	"titm/adjudicator/lang"
	"titm/rules"
)

// The forms of the dice's purposes (B10) as the rules write them. The
// game's log keeps a purpose as written, in English, and titm verify
// compares it; a report in another language shows its translation.
var (
	callForm   = regexp.MustCompile(`^(\S+) battle (\d+): (German|Allied) artillery call (\d+) of (\d+)$`)
	strikeForm = regexp.MustCompile(`^(\S+) battle (\d+): (German|Allied) strike (\d+) of (\d+) on (\S+)$`)
	fireForm   = regexp.MustCompile(`^(\S+) battle (\d+): (German|Allied) fire (\S+) at (\S+), die (\d+) of (\d+)$`)
	repairForm = regexp.MustCompile(`^(\S+) repair (\S+) by (\S+)$`)
	blowForm   = regexp.MustCompile(`^(\S+) demolition (\S+) by (\S+)$`)
)

// PurposeText returns what a die was for, as stored in the log, in the
// language of p: the stored text itself in English, or in a form the
// rules do not write.
func PurposeText(p *lang.Printer, purpose string) string {
	if p.Code() == lang.English {
		return purpose
	}
	side := func(s string) rules.Side {
		if s == "German" {
			return rules.German
		}
		return rules.Allied
	}
	if m := callForm.FindStringSubmatch(purpose); m != nil {
		return p.Sprintf("%s battle %s: %s artillery call %s of %s", m[1], m[2], side(m[3]), m[4], m[5])
	}
	if m := strikeForm.FindStringSubmatch(purpose); m != nil {
		return p.Sprintf("%s battle %s: %s strike %s of %s on %s", m[1], m[2], side(m[3]), m[4], m[5], m[6])
	}
	if m := fireForm.FindStringSubmatch(purpose); m != nil {
		return p.Sprintf("%s battle %s: %s fire %s at %s, die %s of %s", m[1], m[2], side(m[3]), m[4], m[5], m[6], m[7])
	}
	if m := repairForm.FindStringSubmatch(purpose); m != nil {
		return p.Sprintf("%s repair %s by %s", m[1], m[2], m[3])
	}
	if m := blowForm.FindStringSubmatch(purpose); m != nil {
		return p.Sprintf("%s demolition %s by %s", m[1], m[2], m[3])
	}
	return purpose
}
