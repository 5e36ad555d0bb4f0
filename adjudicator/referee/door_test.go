package referee_test

import (
	"errors"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"titm/adjudicator/referee"
	"titm/rules"
)

// The heading lines read as the order parser reads every line: in ASCII or
// in the full-width forms a Japanese input method types, in 「」, in any
// case; not in a quoted reply, nor below END.
func TestReadHeading(t *testing.T) {
	for _, c := range []struct {
		name, text  string
		game, token string
	}{
		{"ASCII", "GAME intro-1\nTOKEN abcd-efgh\nSTATUS\n", "intro-1", "abcd-efgh"},
		{"full-width", "ＧＡＭＥ　intro-1\nＴＯＫＥＮ　abcd-efgh\n", "intro-1", "abcd-efgh"},
		{"full-width id", "ＧＡＭＥ　ｉｎｔｒｏ－１\r\nＴＯＫＥＮ　ａｂｃｄ－ｅｆｇｈ\r\n", "intro-1", "abcd-efgh"},
		{"quoted and ended", "「GAME intro-1」\ntoken abcd-efgh。\n", "intro-1", "abcd-efgh"},
		{"after a greeting", "Hello referee,\n\nGAME intro-1\nTOKEN abcd-efgh\nMOVE x y z\n", "intro-1", "abcd-efgh"},
		{"no token", "GAME intro-1\nJOIN\n", "intro-1", ""},
		{"a token without its secret", "GAME intro-1\nTOKEN\n", "intro-1", ""},
		{"in a quoted reply", "STATUS\n> GAME intro-1\n> TOKEN abcd-efgh\n", "", ""},
		{"below END", "STATUS\nEND\nGAME intro-1\nTOKEN abcd-efgh\n", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := referee.ReadHeading(c.text)
			if h.Game != c.game || h.Token != c.token {
				t.Errorf("GAME %q TOKEN %q; want %q, %q", h.Game, h.Token, c.game, c.token)
			}
		})
	}
}

// The director's lines are keywords of the order language: each reads to
// its act, its words and its reason as written, or is refused saying what
// it takes.
func TestDirectorLines(t *testing.T) {
	for _, c := range []struct {
		line string
		want referee.DirectorLine
		err  string
	}{
		{"PAUSE intro-1 a player is ill, for a week", referee.DirectorLine{Act: "PAUSE", Args: []string{"intro-1"}, Reason: "a player is ill, for a week"}, ""},
		{"ＰＡＵＳＥ　intro-1　a player is ill", referee.DirectorLine{Act: "PAUSE", Args: []string{"intro-1"}, Reason: "a player is ill"}, ""},
		{"resume intro-1 he is back", referee.DirectorLine{Act: "RESUME", Args: []string{"intro-1"}, Reason: "he is back"}, ""},
		{"EXTEND intro-1 48h network trouble", referee.DirectorLine{Act: "EXTEND", Args: []string{"intro-1", "48h"}, Reason: "network trouble"}, ""},
		{"ROLLBACK intro-1 G18-2 the 8.42 error", referee.DirectorLine{Act: "ROLLBACK", Args: []string{"intro-1", "G18-2"}, Reason: "the 8.42 error"}, ""},
		{"NEW campaign g@example.org a@example.org", referee.DirectorLine{Act: "NEW", Args: []string{"campaign", "g@example.org", "a@example.org"}}, ""},
		{"ＮＥＷ　ＴＯＵＲＮＡＭＥＮＴ", referee.DirectorLine{Act: "NEW TOURNAMENT"}, ""},
		{"TOURNAMENT PAUSE cup-1 the venue is closed", referee.DirectorLine{Act: "TOURNAMENT PAUSE", Args: []string{"cup-1"}, Reason: "the venue is closed"}, ""},
		{"TOURNAMENT REPLACE cup-1 a@x.org b@x.org he moved", referee.DirectorLine{Act: "TOURNAMENT REPLACE", Args: []string{"cup-1", "a@x.org", "b@x.org"}, Reason: "he moved"}, ""},
		{"TOURNAMENT ADJUDICATE cup-1 intro-4 draw no result", referee.DirectorLine{Act: "TOURNAMENT ADJUDICATE", Args: []string{"cup-1", "intro-4", "draw"}, Reason: "no result"}, ""},
		{"TOURNAMENT STANDINGS cup-1", referee.DirectorLine{Act: "TOURNAMENT STANDINGS", Args: []string{"cup-1"}}, ""},
		{"PAUSE intro-1", referee.DirectorLine{}, "PAUSE takes a game and a reason: PAUSE game reason"},
		{"EXTEND intro-1 soon the holidays", referee.DirectorLine{}, `EXTEND takes a game, a time as 24h, and a reason, not "soon"`},
		{"ROLLBACK intro-1 yesterday oops", referee.DirectorLine{}, `not "yesterday"`},
		{"NEW campaign g@example.org", referee.DirectorLine{}, "NEW takes a scenario and the two players' addresses"},
		{"TOURNAMENT PAUSE cup-1", referee.DirectorLine{}, "TOURNAMENT PAUSE needs a reason"},
		{"TOURNAMENT SHOUT cup-1", referee.DirectorLine{}, "TOURNAMENT takes PAUSE, RESUME"},
		{"TOURNAMENT STANDINGS cup-1 now", referee.DirectorLine{}, `"now" is more than TOURNAMENT takes`},
		{"MOVE 116/60 62 70", referee.DirectorLine{}, `unknown order "MOVE"`},
	} {
		t.Run(c.line, func(t *testing.T) {
			o, err := rules.ParseOrders(c.line, nil, &rules.ParseOptions{Keywords: referee.DirectorKeywords, Only: true})
			if c.err != "" {
				var oes rules.OrderErrors
				if !errors.As(err, &oes) || !strings.Contains(oes.Error(), c.err) {
					t.Errorf("error %v; want %q", err, c.err)
				}
				return
			}
			if err != nil || len(o.List) != 1 {
				t.Fatalf("%v, %v", o, err)
			}
			if got := o.List[0]; !reflect.DeepEqual(got, c.want) {
				t.Errorf("%#v; want %#v", got, c.want)
			}
		})
	}
}

// The director's mail in docs/mail.md reads, every line of it.
func TestDirectorMailOfTheDocs(t *testing.T) {
	data, err := os.ReadFile("../../docs/mail.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```\n(TOKEN the-director-token\n.*?)```").FindSubmatch(data)
	if m == nil {
		t.Fatal("docs/mail.md shows no director's mail")
	}
	o, err := rules.ParseOrders(string(m[1]), nil, &rules.ParseOptions{Keywords: referee.DirectorKeywords, Only: true})
	if err != nil || len(o.List) != strings.Count(string(m[1]), "\n") {
		t.Errorf("the director's mail of docs/mail.md: %v, %d lines read of\n%s", err, len(o.List), m[1])
	}
}

// A tournament player's lines: his tournament, his token, a bid, the
// standings and HELP; two BID lines are one bid, refused whole.
func TestReadEntrant(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       referee.EntrantMail
		asks       bool
	}{
		{"a bid", "TOURNAMENT cup-1\nTOKEN abcd\nBID german 3\n",
			referee.EntrantMail{Tournament: "cup-1", Token: "abcd", Request: referee.TournamentRequest{Bid: []string{"german", "3"}}}, true},
		{"full-width standings", "ＴＯＫＥＮ　abcd\nＳＴＡＮＤＩＮＧＳ。\n",
			referee.EntrantMail{Token: "abcd", Request: referee.TournamentRequest{Standings: true}}, true},
		{"two bids", "BID german 3\nBID allied 2\n",
			referee.EntrantMail{Request: referee.TournamentRequest{Bid: []string{"german", "3", "allied", "2"}}}, true},
		{"HELP on a tournament", "TOURNAMENT cup-1\nHELP\n",
			referee.EntrantMail{Tournament: "cup-1", Request: referee.TournamentRequest{Help: true}}, true},
		{"a game's HELP", "GAME intro-1\nTOKEN abcd\nHELP\n",
			referee.EntrantMail{Token: "abcd", Request: referee.TournamentRequest{Help: true}}, false},
		{"a game's orders", "GAME intro-1\nTOKEN abcd\nIMPULSE 16-1\nMOVE 116/60 62\n",
			referee.EntrantMail{Token: "abcd"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := referee.ReadEntrant(c.text)
			if !reflect.DeepEqual(m, c.want) || m.Asks() != c.asks {
				t.Errorf("%+v, asks %v; want %+v, %v", m, m.Asks(), c.want, c.asks)
			}
		})
	}
}
