package referee

import (
	"fmt"
	"strconv"
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// A player's requests: lines of his mail that ask the referee something
// (HELP, STATUS ...) or do something to the game that is not an order of
// play (JOIN, EXTEND, CONCEDE, DRAW). They may come at any time, are
// answered, and are never part of the orders the game keeps.

// HelpRequest is HELP.
type HelpRequest struct{}

// StatusRequest is STATUS.
type StatusRequest struct{}

// UnitsRequest is UNITS.
type UnitsRequest struct{}

// CheckRequest is CHECK: the orders of the mail are checked, not applied.
type CheckRequest struct{}

// DiceRequest is DICE.
type DiceRequest struct{}

// OrdersRequest is ORDERS.
type OrdersRequest struct{}

// ConcedeRequest is CONCEDE.
type ConcedeRequest struct{}

// DrawRequest is DRAW (an offer) or DRAW ACCEPT.
type DrawRequest struct{ Accept bool }

// JoinRequest is JOIN [SEED text] (B10).
type JoinRequest struct{ Seed string }

// ExtendRequest is EXTEND hours.
type ExtendRequest struct{ Hours int }

// BriefRequest is BRIEF: the scenario brief again.
type BriefRequest struct{}

// PictureRequest is PICTURE ON or PICTURE OFF: whether the player's mails
// carry the map picture, a setting kept in the game.
type PictureRequest struct{ On bool }

// LanguageRequest is LANGUAGE code: the language the player's mails are
// written in (a lang code: en, ja), a setting kept in the game.
type LanguageRequest struct{ Code string }

// Each request says it is one, for rules.ClassOf.

func (HelpRequest) Class() rules.Class     { return rules.Request }
func (StatusRequest) Class() rules.Class   { return rules.Request }
func (UnitsRequest) Class() rules.Class    { return rules.Request }
func (CheckRequest) Class() rules.Class    { return rules.Request }
func (DiceRequest) Class() rules.Class     { return rules.Request }
func (OrdersRequest) Class() rules.Class   { return rules.Request }
func (ConcedeRequest) Class() rules.Class  { return rules.Request }
func (DrawRequest) Class() rules.Class     { return rules.Request }
func (JoinRequest) Class() rules.Class     { return rules.Request }
func (ExtendRequest) Class() rules.Class   { return rules.Request }
func (BriefRequest) Class() rules.Class    { return rules.Request }
func (PictureRequest) Class() rules.Class  { return rules.Request }
func (LanguageRequest) Class() rules.Class { return rules.Request }

func (HelpRequest) Keyword() string     { return "HELP" }
func (StatusRequest) Keyword() string   { return "STATUS" }
func (UnitsRequest) Keyword() string    { return "UNITS" }
func (CheckRequest) Keyword() string    { return "CHECK" }
func (DiceRequest) Keyword() string     { return "DICE" }
func (OrdersRequest) Keyword() string   { return "ORDERS" }
func (ConcedeRequest) Keyword() string  { return "CONCEDE" }
func (DrawRequest) Keyword() string     { return "DRAW" }
func (JoinRequest) Keyword() string     { return "JOIN" }
func (ExtendRequest) Keyword() string   { return "EXTEND" }
func (BriefRequest) Keyword() string    { return "BRIEF" }
func (PictureRequest) Keyword() string  { return "PICTURE" }
func (LanguageRequest) Keyword() string { return "LANGUAGE" }

func (HelpRequest) String() string     { return "HELP" }
func (StatusRequest) String() string   { return "STATUS" }
func (UnitsRequest) String() string    { return "UNITS" }
func (CheckRequest) String() string    { return "CHECK" }
func (DiceRequest) String() string     { return "DICE" }
func (OrdersRequest) String() string   { return "ORDERS" }
func (ConcedeRequest) String() string  { return "CONCEDE" }
func (e ExtendRequest) String() string { return fmt.Sprintf("EXTEND %dh", e.Hours) }
func (BriefRequest) String() string    { return "BRIEF" }

func (l LanguageRequest) String() string { return "LANGUAGE " + l.Code }

func (p PictureRequest) String() string {
	if p.On {
		return "PICTURE ON"
	}
	return "PICTURE OFF"
}

func (d DrawRequest) String() string {
	if d.Accept {
		return "DRAW ACCEPT"
	}
	return "DRAW"
}

func (j JoinRequest) String() string {
	if j.Seed == "" {
		return "JOIN"
	}
	return "JOIN SEED " + j.Seed
}

// Keywords are the lines of a player's mail beside the game's orders: the
// heading lines, then the requests, in the order HELP lists them.
var Keywords = append(append([]rules.Keyword(nil), adjudicator.Headings...), requests...)

// The requests' summaries, and their syntax where it has words, are
// messages of the referee's catalog (rules.M marks them), which HELP gives
// in the reader's language.
var requests = []rules.Keyword{
	{Class: rules.Request, Name: "HELP", Syntax: "HELP", Summary: rules.M("this text").Key, Parse: simple(HelpRequest{})},
	{Class: rules.Request, Name: "STATUS", Syntax: "STATUS", Summary: rules.M("the game's state: whose impulse is next and by when, the VP, where every unit stands, and the map of it").Key, Parse: simple(StatusRequest{})},
	{Class: rules.Request, Name: "BRIEF", Syntax: "BRIEF", Summary: rules.M("the scenario brief: impulses, map, supply, victory, special rules and the reinforcements").Key, Parse: simple(BriefRequest{})},
	{Class: rules.Request, Name: "UNITS", Syntax: "UNITS", Summary: rules.M("your units: where they are and what each may still do this turn").Key, Parse: simple(UnitsRequest{})},
	{Class: rules.Request, Name: "CHECK", Syntax: "CHECK", Summary: rules.M("the orders below are checked and the reply says what would happen up to the first die; nothing is applied").Key, Parse: simple(CheckRequest{})},
	{Class: rules.Request, Name: "DICE", Syntax: "DICE", Summary: rules.M("the game's dice commitment, the players' seeds and, once revealed, the game's seed").Key, Rules: "B10", Parse: simple(DiceRequest{})},
	{Class: rules.Request, Name: "JOIN", Syntax: rules.M("JOIN [SEED text]").Key, Summary: rules.M("accept the game, with your own contribution to the dice if you like").Key, Rules: "B10", Parse: parseJoin},
	{Class: rules.Request, Name: "ORDERS", Syntax: "ORDERS", Summary: rules.M("the orders and standing orders on file for you").Key, Parse: simple(OrdersRequest{})},
	{Class: rules.Request, Name: "PICTURE", Syntax: "PICTURE OFF | PICTURE ON", Summary: rules.M("OFF: your mails come with the text alone, no map picture; ON: with it (the default)").Key, Parse: parsePicture},
	{Class: rules.Request, Name: "LANGUAGE", Syntax: "LANGUAGE en | LANGUAGE ja", Summary: rules.M("the language of your mails in this game: en English, ja Japanese; the referee's own until you choose").Key, Parse: parseLanguage},
	{Class: rules.Request, Name: "EXTEND", Syntax: rules.M("EXTEND hours").Key, Summary: rules.M("more time for the impulse you are to play, as EXTEND 24h (limited per game)").Key, Parse: parseExtend},
	{Class: rules.Request, Name: "CONCEDE", Syntax: "CONCEDE", Summary: rules.M("you concede the game").Key, Parse: simple(ConcedeRequest{})},
	{Class: rules.Request, Name: "DRAW", Syntax: "DRAW | DRAW ACCEPT", Summary: rules.M("offer a draw, or accept the one offered").Key, Parse: parseDraw},
}

// ParseOrders reads a player's mail: the game's orders, the heading lines
// and the requests.
func ParseOrders(text string, s *rules.Scenario, side rules.Side) (*rules.Orders, error) {
	return rules.ParseOrders(text, s, &rules.ParseOptions{Side: side, Keywords: Keywords})
}

// HelpIn is Help in the language of p.
func HelpIn(p *lang.Printer, s *rules.Scenario, st *rules.State, side rules.Side) string {
	return rules.HelpTextIn(p, s, st, side, Keywords)
}

func simple(o rules.Order) func(string, []string) (rules.Order, []string, error) {
	return func(_ string, w []string) (rules.Order, []string, error) { return o, w, nil }
}

func parseDraw(_ string, w []string) (rules.Order, []string, error) {
	if len(w) > 0 && strings.EqualFold(w[0], "ACCEPT") {
		return DrawRequest{Accept: true}, w[1:], nil
	}
	return DrawRequest{}, w, nil
}

// The requests' errors are messages (rules.Message.Err), which the parser
// gives the player in his language.

func parsePicture(_ string, w []string) (rules.Order, []string, error) {
	if len(w) == 0 {
		return nil, nil, rules.M("ON or OFF is missing: PICTURE OFF sends your mails without the map picture, PICTURE ON with it").Err()
	}
	switch strings.ToUpper(w[0]) {
	case "ON":
		return PictureRequest{On: true}, w[1:], nil
	case "OFF":
		return PictureRequest{On: false}, w[1:], nil
	}
	return nil, nil, rules.M("PICTURE takes ON or OFF, not %q", w[0]).Err()
}

// parseLanguage reads LANGUAGE en or LANGUAGE ja; the language's name
// (English, Japanese, 日本語) reads too.
func parseLanguage(_ string, w []string) (rules.Order, []string, error) {
	if len(w) == 0 {
		return nil, nil, rules.M("the language is missing: %s", languageChoices()).Err()
	}
	code, err := lang.Parse(w[0])
	if err != nil {
		return nil, nil, rules.M("LANGUAGE takes a language's code, not %q: %s", w[0], languageChoices()).Err()
	}
	return LanguageRequest{Code: code}, w[1:], nil
}

func parseJoin(line string, w []string) (rules.Order, []string, error) {
	if len(w) == 0 || !strings.EqualFold(w[0], "SEED") {
		return JoinRequest{}, w, nil
	}
	// The seed is the rest of the line as written, spaces collapsed.
	rest := line
	if i := strings.Index(strings.ToUpper(rest), "SEED"); i >= 0 {
		rest = rest[i+len("SEED"):]
	}
	seed := strings.Join(strings.Fields(rest), " ")
	if seed == "" {
		return nil, nil, rules.M("SEED needs your text: JOIN SEED any words you like").Err()
	}
	return JoinRequest{seed}, nil, nil
}

func parseExtend(_ string, w []string) (rules.Order, []string, error) {
	if len(w) == 0 {
		return nil, nil, rules.M("how long is missing: EXTEND 24h").Err()
	}
	t := strings.ToLower(w[0])
	h, err := strconv.Atoi(strings.TrimSuffix(t, "h"))
	if err != nil || h < 1 || h > 168 {
		return nil, nil, rules.M("%s is not a time: give hours from 1 to 168, as EXTEND 24h", t).Err()
	}
	return ExtendRequest{h}, w[1:], nil
}
