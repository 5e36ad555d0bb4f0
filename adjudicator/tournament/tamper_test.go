package tournament_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/internal/tamper"
	"titm/rules"
	"titm/store"
)

var start = time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)

// cup drives a tournament through the referee and a real store, as the
// daemon does: players' bids, games joined and played to their end, the
// director's acts.
type cup struct {
	t      testing.TB
	ref    *referee.Referee
	st     *store.Store
	id     string
	tokens map[string]string // by address
	now    time.Time
}

var tokenRE = regexp.MustCompile(`tournament token:\n\n    (\S+)`)

func newCup(t testing.TB, format, sides string, n int, extra string) *cup {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"Forgery Cup\"\ndirector = \"td@example.org\"\nscenario = \"intro\"\nformat = %q\nsides = %q\ndeadline = \"24h\"\nbid_deadline = \"12h\"\n%s\n", format, sides, extra)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n[[player]]\nname = \"P%d\"\naddress = \"p%d@example.org\"\n", i, i)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &cup{t: t, ref: referee.New(&referee.Options{Address: "referee@example.org", Deadline: 24 * time.Hour}), st: st, tokens: map[string]string{}, now: start}
	res := c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.NewTournament(tx, "cup.toml", []byte(b.String()), start)
	})
	c.id = res.Tournament.ID
	return c
}

// act runs fn in a transaction, an hour after the act before, and keeps
// the tournament tokens its mails give.
func (c *cup) act(fn func(tx *store.Tx) (*referee.Result, error)) *referee.Result {
	c.t.Helper()
	c.now = c.now.Add(time.Hour)
	var res *referee.Result
	if err := c.st.Update(func(tx *store.Tx) error {
		var err error
		res, err = fn(tx)
		return err
	}); err != nil {
		c.t.Fatal(err)
	}
	for _, m := range res.Mails {
		if k := tokenRE.FindStringSubmatch(m.Text); k != nil {
			c.tokens[m.To[0]] = k[1]
		}
	}
	return res
}

func (c *cup) current() *tournament.Tournament {
	c.t.Helper()
	var tr *tournament.Tournament
	if err := c.st.View(func(tx *store.Tx) error {
		var err error
		tr, err = tx.Tournament(c.id)
		return err
	}); err != nil {
		c.t.Fatal(err)
	}
	return tr
}

// bid has player i (0-based) of the round in play bid.
func (c *cup) bid(tr *tournament.Tournament, i int, words string) {
	c.t.Helper()
	addr := tr.Entrants[i].Address
	res := c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.Tournament(tx, c.id, addr, c.tokens[addr], referee.TournamentRequest{Bid: strings.Fields(words)}, c.now)
	})
	if res.Refused {
		c.t.Fatalf("%s's bid %q: %s", tr.Entrants[i].Name, words, res.Reply)
	}
}

// tick runs the daemon's clock past the bids' deadline.
func (c *cup) tick() {
	c.now = c.now.Add(12 * time.Hour)
	c.act(func(tx *store.Tx) (*referee.Result, error) { return c.ref.TournamentTick(tx, c.now) })
}

// play has both players of each game of the round in play join it and
// plays it to its end: the German player's orders for an impulse, then
// how says: "concede" (the Allied player concedes), "draw" (offered and
// accepted), "adjudicate" (the director's decision against the German
// side), or "" to leave it in play.
func (c *cup) play(how map[int]string) {
	c.t.Helper()
	tr := c.current()
	for k, p := range tr.Current().Pairings {
		if p.Bye() || p.Game == "" || p.Done {
			continue
		}
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			c.act(func(tx *store.Tx) (*referee.Result, error) { return c.ref.Join(tx, p.Game, side, "", c.now) })
		}
		switch how[k] {
		case "draw":
			c.act(func(tx *store.Tx) (*referee.Result, error) {
				return c.ref.Orders(tx, p.Game, rules.German, "DRAW", c.now)
			})
			c.act(func(tx *store.Tx) (*referee.Result, error) {
				return c.ref.Orders(tx, p.Game, rules.Allied, "DRAW ACCEPT", c.now)
			})
		case "adjudicate":
			c.act(func(tx *store.Tx) (*referee.Result, error) {
				return c.ref.TournamentAdjudicate(tx, c.id, p.Game, "german", "3 deadlines missed", c.now)
			})
		case "concede":
			c.act(func(tx *store.Tx) (*referee.Result, error) {
				return c.ref.Orders(tx, p.Game, rules.Allied, "CONCEDE", c.now)
			})
		}
	}
}

func (c *cup) export() *tournament.Export {
	c.t.Helper()
	var x *tournament.Export
	if err := c.st.View(func(tx *store.Tx) error {
		var err error
		x, err = referee.TournamentExport(tx, c.id)
		return err
	}); err != nil {
		c.t.Fatal(err)
	}
	return x
}

// swissExport plays a Swiss of five players over three rounds with sealed
// bids: a bye every round; bids for the same side, for different sides,
// equal bids (a die) and none (a die); a draw, concessions and the
// director's adjudication; a pause; a player replaced while his game is
// in play, and one who withdraws (his game forfeited, his next opponent
// given a bye).
func swissExport(t testing.TB) *tournament.Export {
	c := newCup(t, "swiss", "bids", 5, "rounds = 3")
	// Round 1: P1-P3, P2-P4, P5 bye. P1 and P3 bid for the German side,
	// P3 more; P2 alone bids.
	tr := c.current()
	c.bid(tr, 0, "german 1")
	c.bid(tr, 2, "german 2")
	c.bid(tr, 1, "allied 0")
	c.tick()
	c.play(map[int]string{0: "concede", 1: "adjudicate"})
	c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.TournamentPause(tx, c.id, "a holiday", c.now)
	})
	c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.TournamentResume(tx, c.id, "back", c.now)
	})
	// Round 2: equal bids for one pairing, bids for different sides in
	// the other.
	tr = c.current()
	for _, p := range tr.Current().Pairings {
		if p.Bye() {
			continue
		}
		if p.A == 0 || p.B == 0 {
			c.bid(tr, p.A, "allied 1")
			c.bid(tr, p.B, "allied 1")
		} else {
			c.bid(tr, p.A, "german 0")
			c.bid(tr, p.B, "allied 2")
		}
	}
	c.tick()
	tr = c.current()
	// P2 is replaced while his game is in play; a player of the other
	// game withdraws while it is in play: it is his forfeit.
	c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.TournamentReplace(tx, c.id, "P2", "Hanna Ries", "hanna@example.org", "moved away", c.now)
	})
	how, leaver := map[int]string{}, ""
	for k, p := range tr.Current().Pairings {
		if p.Bye() {
			continue
		}
		how[k] = "draw"
		if leaver == "" && p.Of(1) < 0 {
			how[k], leaver = "", tr.Entrants[p.A].Name
		}
	}
	c.play(how)
	c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.TournamentWithdraw(tx, c.id, leaver, "ill", c.now)
	})
	// Round 3: no bids; the dice decide.
	c.tick()
	c.play(map[int]string{0: "concede", 1: "concede", 2: "concede"})
	if tr = c.current(); tr.Status != tournament.Over {
		t.Fatalf("the Swiss is %s after %d rounds", tr.Status, len(tr.Rounds))
	}
	return c.export()
}

// knockoutExport plays a knockout of four with sealed bids: one
// semi-final's sides by bids; in the other, P2 bids and P3 withdraws
// before the bids close, so that it ends with no game as his forfeit, P2's
// bid revealed in its result; the final's sides by the dice, the final
// drawn, so that a die decides who goes on.
func knockoutExport(t testing.TB) *tournament.Export {
	c := newCup(t, "elimination", "bids", 4, "")
	tr := c.current()
	c.bid(tr, 0, "german 3")
	c.bid(tr, 3, "german 1")
	c.bid(tr, 1, "allied 2")
	c.act(func(tx *store.Tx) (*referee.Result, error) {
		return c.ref.TournamentWithdraw(tx, c.id, "P3", "ill", c.now)
	})
	c.tick()
	c.play(map[int]string{0: "concede", 1: "concede"})
	c.tick()
	c.play(map[int]string{0: "draw"})
	if tr = c.current(); tr.Status != tournament.Over {
		t.Fatalf("the knockout is %s", tr.Status)
	}
	return c.export()
}

// tournamentChain is how a tournament's export chains its records.
var tournamentChain = tamper.Chain{Records: "records", Head: "head", Hash: func(rec map[string]any) (string, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	var r tournament.Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return "", err
	}
	return tournament.RecordHash(r), nil
}}

var tournamentEnums = tamper.Enums{
	"side": {string(rules.German), string(rules.Allied)},
	"kind": {tournament.KindCreated, tournament.KindPaired, tournament.KindBid, tournament.KindSides, tournament.KindGame,
		tournament.KindResult, tournament.KindReplaced, tournament.KindPaused, tournament.KindResumed, tournament.KindAdjudicated,
		tournament.KindWithdrawn, tournament.KindFinished},
	"format": {tournament.Swiss, tournament.RoundRobin, tournament.Elimination},
	"sides":  {tournament.SidesAlternate, tournament.SidesRandom, tournament.SidesBids},
}

func tournamentUnchecked(kind, field string) (string, bool) {
	for _, l := range tournament.Unchecked {
		if (l.Kind == "" || l.Kind == kind) && l.Field == field {
			return l.Check, true
		}
	}
	return "", false
}

func tournamentWhere(err error) (seq, act int, field string, ok bool) {
	var d *tournament.Discrepancy
	if !errors.As(err, &d) {
		return 0, -1, "", false
	}
	act = -1
	if d.Act != 0 {
		act = d.Act
	}
	return d.Seq, act, d.Field, true
}

func verifyJSON(data []byte) error {
	x, err := tournament.ReadExport(bytes.NewReader(data))
	if err != nil {
		return err
	}
	_, err = tournament.Verify(x)
	return err
}

// TestTamper forges real exports of a finished Swiss and a finished
// knockout (swissExport, knockoutExport), made by the referee on a real
// store, as TestTamper of package adjudicator forges games' (see there
// for the changes made and what is expected of each): every field of
// every record of the tournament's log (a field with more than three
// values in a record, its first, middle and last), with the chain
// rebuilt; records deleted, duplicated, inserted and swapped; the head
// moved; and every value of the export outside its log, its games'
// headers among them (their logs are forged by package adjudicator's
// suite). A field tournament.Unchecked lists (docs/verify.md) may pass as
// listed; every other change must fail, naming its record.
func TestTamper(t *testing.T) {
	if raceDetector {
		// It forges one goroutine's exports some thousand times: nothing
		// for the race detector, which would make it ten times slower.
		t.Skip("the forging suite runs without the race detector")
	}
	if testing.Short() {
		t.Skip("forges every field of two tournaments")
	}
	var total tamper.Count
	for name, x := range map[string]*tournament.Export{"swiss": swissExport(t), "knockout": knockoutExport(t)} {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := tamper.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			suite := tamper.Suite{Chain: tournamentChain, Enums: tournamentEnums, Verify: verifyJSON, Where: tournamentWhere, Unchecked: tournamentUnchecked,
				Export: func(l tamper.Leaf) bool {
					// A game's log and scenario files are forged by the
					// games' suite; here its header.
					return len(l.Path) < 3 || l.Path[0] != "games" || l.Path[2] != "records" && l.Path[2] != "files"
				}}
			before, _ := json.Marshal(doc)
			c := suite.Run(t, doc)
			if after, _ := json.Marshal(doc); !bytes.Equal(after, before) {
				t.Error("the suite left the export changed")
			}
			t.Logf("%s: %d records, %d (record, field) pairs changed, %d refused naming the record, %d accepted as docs/verify.md lists; %d distinct fields; %d times out of order refused; %d moves refused; %d export values changed",
				name, c.Records, c.Pairs, c.Failed, c.Listed, c.Fields, c.Bounds, c.Moves, c.Export)
			if c.Failed+c.Listed != c.Pairs {
				t.Errorf("%d pairs changed, %d refused and %d listed", c.Pairs, c.Failed, c.Listed)
			}
			total.Pairs += c.Pairs
			total.Failed += c.Failed
			total.Listed += c.Listed
		})
	}
	t.Logf("tournaments: %d (record, field) pairs changed with the chain rebuilt: %d refused naming the record, %d accepted as docs/verify.md lists", total.Pairs, total.Failed, total.Listed)
}

// The tournaments the suite forges have a record of every kind, byes,
// revealed bids and dice.
func TestTamperCoverage(t *testing.T) {
	kinds := map[string]bool{}
	var byes, bids, dice int
	for _, x := range []*tournament.Export{swissExport(t), knockoutExport(t)} {
		for _, r := range x.Records {
			kinds[r.Kind] = true
			if r.Kind == tournament.KindResult && r.Text == "bye" {
				byes++
			}
			for _, b := range r.Bids {
				if b != nil {
					bids++
				}
			}
			dice += len(r.Dice)
		}
		for _, g := range x.Games {
			if g.Status != adjudicator.Finished {
				t.Errorf("game %s is %s", g.ID, g.Status)
			}
		}
	}
	for _, k := range tournamentEnums["kind"] {
		if !kinds[k] {
			t.Errorf("no %s record", k)
		}
	}
	if byes == 0 || bids == 0 || dice == 0 {
		t.Errorf("%d byes, %d bids revealed, %d dice", byes, bids, dice)
	}
}
