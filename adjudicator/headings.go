package adjudicator

import (
	"errors"

	"titm/rules"
)

// The heading lines of an order mail, which the referee reads beside the
// game's orders: GAME names the game, TOKEN proves who wrote. The referee
// adds its requests (package referee); the log keeps the orders with their
// GAME line, and never the TOKEN line.

// GameLine is GAME id.
type GameLine struct{ ID string }

// TokenLine is TOKEN secret.
type TokenLine struct{ Secret string }

// Keyword returns GAME.
func (GameLine) Keyword() string { return "GAME" }

// Keyword returns TOKEN.
func (TokenLine) Keyword() string { return "TOKEN" }

func (g GameLine) String() string  { return "GAME " + g.ID }
func (t TokenLine) String() string { return "TOKEN " + t.Secret }

// Class says that GAME is a heading line.
func (GameLine) Class() rules.Class { return rules.HeadingLine }

// Class says that TOKEN is a heading line.
func (TokenLine) Class() rules.Class { return rules.HeadingLine }

// Headings are the heading lines, for rules.ParseOptions.
var Headings = []rules.Keyword{
	{Name: "GAME", Syntax: "GAME id", Class: rules.HeadingLine, Once: true, Sample: "GAME <the game's id>",
		Summary: "the game these orders are for (or [id] in the subject)",
		Parse: func(_ string, w []string) (rules.Order, []string, error) {
			if len(w) == 0 {
				return nil, nil, errors.New("the game's id is missing: GAME id, as in your welcome mail")
			}
			return GameLine{w[0]}, w[1:], nil
		}},
	{Name: "TOKEN", Syntax: "TOKEN secret", Class: rules.HeadingLine, Once: true, Sample: "TOKEN <your secret>",
		Summary: "your secret from the welcome mail; it never appears in any report",
		Parse: func(_ string, w []string) (rules.Order, []string, error) {
			if len(w) == 0 {
				return nil, nil, errors.New("the secret is missing: TOKEN secret, as in your welcome mail")
			}
			return TokenLine{w[0]}, w[1:], nil
		}},
}

// ParseOrders reads a side's orders with the heading lines.
func ParseOrders(text string, s *rules.Scenario, side rules.Side) (*rules.Orders, error) {
	return rules.ParseOrders(text, s, &rules.ParseOptions{Side: side, Keywords: Headings})
}
