package adjudicator

import (
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

// Headings are the heading lines, for rules.ParseOptions. Their Syntax,
// Summary and Sample are keys of the message catalogs (rules.M marks them
// for the catalogs), by which HELP gives them in the reader's language;
// their errors are messages too.
var Headings = []rules.Keyword{
	{Name: "GAME", Syntax: rules.M("GAME id").Key, Class: rules.HeadingLine, Once: true, Sample: rules.M("GAME <the game's id>").Key,
		Summary: rules.M("the game these orders are for (or [id] in the subject)").Key,
		Parse: func(_ string, w []string) (rules.Order, []string, error) {
			if len(w) == 0 {
				return nil, nil, rules.M("the game's id is missing: GAME id, as in your welcome mail").Err()
			}
			return GameLine{w[0]}, w[1:], nil
		}},
	{Name: "TOKEN", Syntax: rules.M("TOKEN secret").Key, Class: rules.HeadingLine, Once: true, Sample: rules.M("TOKEN <your secret>").Key,
		Summary: rules.M("your secret from the welcome mail; it never appears in any report").Key,
		Parse: func(_ string, w []string) (rules.Order, []string, error) {
			if len(w) == 0 {
				return nil, nil, rules.M("the secret is missing: TOKEN secret, as in your welcome mail").Err()
			}
			return TokenLine{w[0]}, w[1:], nil
		}},
}

// ParseOrders reads a side's orders with the heading lines.
func ParseOrders(text string, s *rules.Scenario, side rules.Side) (*rules.Orders, error) {
	return rules.ParseOrders(text, s, &rules.ParseOptions{Side: side, Keywords: Headings})
}
