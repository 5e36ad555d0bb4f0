package referee

import (
	"strings"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// What a mail's text says before any act: its heading lines and a
// tournament player's lines. Every door reads them with the one order
// parser (rules.ParseOrders), so that a line reads the same by mail and
// on the command line, its full-width forms (ＧＡＭＥ　intro-1) and
// Japanese quotation marks included.

// Heading is what a mail's heading lines say: the game it is for and the
// writer's token, "" where a line is missing or does not read.
type Heading struct {
	Game  string
	Token string
}

// ReadHeading reads the GAME and TOKEN lines of a player's mail.
func ReadHeading(text string) Heading {
	o, _ := rules.ParseOrders(text, nil, &rules.ParseOptions{Keywords: Keywords})
	return headingOf(o)
}

func headingOf(o *rules.Orders) Heading {
	var h Heading
	if o == nil {
		return h
	}
	for _, ord := range o.List {
		switch l := ord.(type) {
		case adjudicator.GameLine:
			h.Game = l.ID
		case adjudicator.TokenLine:
			h.Token = l.Secret
		}
	}
	return h
}

// Unproven checks a player's TOKEN for game g. It returns nil when the
// token is his, or when there is none and none is required; else the
// refusal: nothing is applied, and the player's registered address is
// warned (Result.Mails), with the same text as the Reply. A mail always
// requires the token, since its sender may be forged; a command on the
// store is the operator's, who needs none, but a TOKEN line given must be
// right. subject names the mail refused ("" for none).
func (r *Referee) Unproven(g *adjudicator.Game, side rules.Side, token, subject string, required bool) *Result {
	if token == "" && !required || token != "" && g.Authentic(side, token) {
		return nil
	}
	p := r.printer(g, side)
	mail := p.Sprintf("The orders for game %s", g.ID)
	if subject != "" {
		mail = p.Sprintf("Your mail to game %s (subject %q)", g.ID, subject)
	}
	res := &Result{Game: g, Refused: true}
	var subj, text string
	if token == "" {
		res.Outcome = "refused: no TOKEN line"
		subj = p.Sprintf("[%s] your mail had no TOKEN line", g.ID)
		text = p.Sprintf("%s had no TOKEN line, so nothing in it was applied. Every mail to the referee needs the TOKEN line of your welcome mail; send it again with that line.", mail)
	} else {
		res.Outcome = "refused: wrong token"
		subj = p.Sprintf("[%s] a mail in your name was refused", g.ID)
		text = p.Sprintf("%s had a TOKEN line that is not your token for this game, so nothing in it was applied. If you sent it, send it again with the TOKEN line of your welcome mail; if you did not, your token kept it out.", mail)
	}
	res.Reply = wrap(text) + "\n"
	res.Mails = []Mail{{Game: g.ID, Kind: KindWarning, To: []string{g.Players[side].Address}, Subject: subj, Text: res.Reply}}
	return res
}

// The lines of a tournament player's mail: his bid, the standings, the
// tournament it is for and his tournament token.

// TournamentLine is TOURNAMENT id in a player's mail.
type TournamentLine struct{ ID string }

// BidLine is BID side VP: the words after BID, read by tournament.ParseBid.
type BidLine struct{ Words []string }

// StandingsLine is STANDINGS.
type StandingsLine struct{}

// Keyword returns TOURNAMENT.
func (TournamentLine) Keyword() string { return "TOURNAMENT" }

// Keyword returns BID.
func (BidLine) Keyword() string { return "BID" }

// Keyword returns STANDINGS.
func (StandingsLine) Keyword() string { return "STANDINGS" }

func (l TournamentLine) String() string { return "TOURNAMENT " + l.ID }
func (l BidLine) String() string        { return strings.Join(append([]string{"BID"}, l.Words...), " ") }
func (StandingsLine) String() string    { return "STANDINGS" }

// Class says that TOURNAMENT is a heading line.
func (TournamentLine) Class() rules.Class { return rules.HeadingLine }

// Class says that BID is a request.
func (BidLine) Class() rules.Class { return rules.Request }

// Class says that STANDINGS is a request.
func (StandingsLine) Class() rules.Class { return rules.Request }

// EntrantKeywords are the lines of a tournament player's mail, which HELP
// lists to him.
var EntrantKeywords = []rules.Keyword{
	{Name: "TOURNAMENT", Syntax: rules.M("TOURNAMENT id").Key, Class: rules.HeadingLine, Once: true,
		Summary: rules.M("the tournament the mail is for, when you play in more than one").Key,
		Parse: func(_ string, w []string) (rules.Order, []string, error) {
			if len(w) == 0 {
				return nil, nil, rules.M("the tournament's id is missing: TOURNAMENT id, as in your welcome mail").Err()
			}
			return TournamentLine{w[0]}, w[1:], nil
		}},
	adjudicator.Headings[1], // TOKEN: the tournament token
	{Name: "BID", Syntax: rules.M("BID side VP").Key, Class: rules.Request,
		Summary: rules.M("your sealed bid for a side, as BID german 3: the VP you give up to play it").Key,
		Parse: func(_ string, w []string) (rules.Order, []string, error) {
			return BidLine{append([]string{}, w...)}, nil, nil
		}},
	{Name: "STANDINGS", Syntax: "STANDINGS", Class: rules.Request, Summary: rules.M("the tournament's standings").Key,
		Parse: simple(StandingsLine{})},
	{Name: "HELP", Syntax: "HELP", Class: rules.Request, Summary: rules.M("this text").Key, Parse: simple(HelpRequest{})},
}

// EntrantMail is what a tournament player's mail asks, as read.
type EntrantMail struct {
	Tournament string // its TOURNAMENT line's id, or ""
	Token      string
	Request    TournamentRequest
}

// Asks reports whether the mail is a tournament's: it bids or asks for the
// standings, or asks for HELP on a TOURNAMENT line's tournament.
func (m *EntrantMail) Asks() bool {
	return m.Request.Bid != nil || m.Request.Standings || m.Request.Help && m.Tournament != ""
}

// ReadEntrant reads the lines of a tournament player's mail. Lines that
// are none of them are left to the game's mail, which the text may be.
// Two BID lines make one bid for both sides, refused whole.
func ReadEntrant(text string) EntrantMail {
	o, _ := rules.ParseOrders(text, nil, &rules.ParseOptions{Keywords: EntrantKeywords, Only: true})
	var m EntrantMail
	if o == nil {
		return m
	}
	for _, ord := range o.List {
		switch l := ord.(type) {
		case TournamentLine:
			m.Tournament = l.ID
		case adjudicator.TokenLine:
			m.Token = l.Secret
		case BidLine:
			m.Request.Bid = append(append([]string{}, m.Request.Bid...), l.Words...)
		case StandingsLine:
			m.Request.Standings = true
		case HelpRequest:
			m.Request.Help = true
		}
	}
	return m
}

// EntrantHelp is the answer to a tournament player's HELP: his lines, in
// his language.
func EntrantHelp(p *lang.Printer) string {
	return p.Sprintf("The lines of a mail about a tournament, one a line, with your tournament token:") + "\n" +
		keywordList(p, EntrantKeywords)
}

// keywordList lists keywords for HELP: each one's form, and what it does
// below it.
func keywordList(p *lang.Printer, kws []rules.Keyword) string {
	var b strings.Builder
	for _, k := range kws {
		b.WriteString("  " + p.Text(rules.Message{Key: k.Syntax}) + "\n")
		b.WriteString(wrapLine(p.Text(rules.Message{Key: k.Summary}), "      ", "      ") + "\n")
	}
	return b.String()
}
