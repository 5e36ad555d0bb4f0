package journal

import (
	"time"

	"titm/adjudicator/lang"
)

// span says a length of time in the reader's words, to the minute: in days
// and hours from a day on, in hours and minutes below, so that a game
// three weeks late reads "21d 4h" (21日4時間), not "508h0m".
func span(p *lang.Printer, d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && hours > 0:
		return p.Sprintf("%dd %dh", days, hours)
	case days > 0:
		return p.Sprintf("%dd", days)
	case hours > 0 && mins > 0:
		return p.Sprintf("%dh %dm", hours, mins)
	case hours > 0:
		return p.Sprintf("%dh", hours)
	}
	return p.Sprintf("%dm", mins)
}
