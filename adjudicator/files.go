package adjudicator

import (
	"errors"
	"fmt"
	"strings"

	"titm/rules"
)

// SplitSides splits an order file that carries both sides' lines: a line
// "SIDE german" or "SIDE allied" says which side the lines below come from;
// before the first, they come from first. In mail the sender's address says
// the side; a file for offline adjudication says it with SIDE lines. Each
// side's text keeps the other side's lines as blank lines, so that line
// numbers stay those of the file.
func SplitSides(body string, first rules.Side) (map[rules.Side]string, error) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	out := map[rules.Side][]string{rules.German: make([]string, len(lines)), rules.Allied: make([]string, len(lines))}
	side := first
	var errs rules.OrderErrors
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) > 0 && strings.EqualFold(f[0], "SIDE") {
			switch {
			case len(f) == 2 && strings.EqualFold(f[1], "german"):
				side = rules.German
			case len(f) == 2 && strings.EqualFold(f[1], "allied"):
				side = rules.Allied
			default:
				errs = append(errs, rules.OrderError{Line: i + 1, Text: strings.TrimSpace(l), Msg: "SIDE takes german or allied: the side the lines below come from"})
			}
			continue
		}
		out[side][i] = l
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return map[rules.Side]string{
		rules.German: strings.Join(out[rules.German], "\n"),
		rules.Allied: strings.Join(out[rules.Allied], "\n"),
	}, nil
}

// PlayFile plays one impulse from an order file: the side to move's lines are
// its orders (none: a pass, B8), the other side's lines its standing orders.
// Errors are rules.OrderErrors with the file's line numbers: every error of
// the file at once, those of the lines that read against the position
// included.
func PlayFile(s *rules.Scenario, st *rules.State, body string, dice rules.Dice) (*rules.State, []rules.Event, error) {
	mover := st.Next.Side
	parts, err := SplitSides(body, mover)
	if err != nil {
		return nil, nil, err
	}
	var errs rules.OrderErrors
	// collect keeps the orders' errors for the answer; any other error is
	// returned at once.
	collect := func(err error) error {
		var es rules.OrderErrors
		if errors.As(err, &es) {
			errs = errs.With(es...)
			return nil
		}
		return err
	}
	other := mover.Enemy()
	if rules.HasOrders(parts[other]) {
		o, err := ParseOrders(parts[other], s, other)
		if err == nil {
			var next *rules.State
			if next, err = rules.ApplyStanding(st, other, o); err == nil {
				st = next
			}
		}
		if err := collect(err); err != nil {
			return nil, nil, err
		}
	}
	var o *rules.Orders
	if rules.HasOrders(parts[mover]) {
		o, err = ParseOrders(parts[mover], s, mover)
		if err := collect(err); err != nil {
			return nil, nil, err
		}
	}
	if len(errs) > 0 {
		// The lines that read are checked against the position all the
		// same.
		if !st.Over {
			if err := collect(rules.CheckOrders(s, st, o)); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", st.Next, err)
			}
		}
		return nil, nil, errs
	}
	next, ev, err := rules.Play(s, st, o, dice)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", st.Next, err)
	}
	return next, ev, nil
}
