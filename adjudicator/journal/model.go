package journal

import (
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"strings"
	"sync"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// The journal's view of the records. Its types are what the templates
// show and what the JSON endpoints encode, field by field as
// docs/journal.md documents them: nothing of a game goes out but through
// them, so that a token hash, an address or a position (which holds the
// sides' standing orders) cannot leave by a field added to
// adjudicator.Game.

// player is a side's player as the journal shows him.
type player struct {
	Side rules.Side `json:"side"`
	Name string     `json:"name"` // the tournament's name of him, else the address's part before the @, or the address when the operator allows
	// Names are who played the side, with their pages: one, or in a
	// tournament's game taken over, each in turn (community.go).
	Names      []nameLink    `json:"names,omitempty"`
	Joined     *time.Time    `json:"joined,omitempty"`
	Seed       string        `json:"seed,omitempty"` // his contribution to the dice (B10), public from the game's start
	Promptness string        `json:"promptness"`
	Impulses   int           `json:"impulses"`
	Average    string        `json:"average,omitempty"` // the average time he took over an impulse
	average    time.Duration // Average, which the page says in its reader's words
	Missed     int           `json:"missed"`
	Extensions int           `json:"extensions"`
}

// players are a game's two players.
type players struct {
	German player `json:"german"`
	Allied player `json:"allied"`
}

// Both returns the players in the order the journal lists them.
func (p players) Both() []player { return []player{p.German, p.Allied} }

// row is a game as the list shows it.
type row struct {
	ID       string     `json:"id"`
	Scenario string     `json:"scenario"`
	Status   string     `json:"status"`            // forming, playing, paused or finished
	Waiting  string     `json:"waiting,omitempty"` // forming: who has still to join
	Impulse  string     `json:"impulse,omitempty"` // playing: the impulse in play
	ToMove   rules.Side `json:"to_move,omitempty"` // playing: whose impulse it is
	Deadline *time.Time `json:"deadline,omitempty"`
	Result   string     `json:"result,omitempty"`
	Players  players    `json:"players"`
	// Tournament is the tournament the game is of, if any (community.go).
	Tournament *tourLink `json:"tournament,omitempty"`
	Head       string    `json:"head"`
	Changed    time.Time `json:"changed"`
	URL        string    `json:"url"`
	API        string    `json:"api"`
}

// rowOf makes a game's row.
func (j *Journal) rowOf(g *adjudicator.Game, c change) row {
	r := row{ID: g.ID, Scenario: g.Scenario, Status: string(g.Status), Result: g.Result, Head: c.Head,
		Changed: c.Time.UTC(), URL: gameURL(g.ID), API: "/api/games/" + url.PathEscape(g.ID)}
	cm := j.community()
	r.Players.German = j.playerOf(cm, g, rules.German)
	r.Players.Allied = j.playerOf(cm, g, rules.Allied)
	r.Tournament = cm.linkOf(g.ID)
	switch g.Status {
	case adjudicator.Forming:
		var waiting []string
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			if p := g.Players[side]; p == nil || !p.HasJoined() {
				waiting = append(waiting, side.Title())
			}
		}
		r.Waiting = strings.Join(waiting, " and ")
	case adjudicator.Playing:
		r.Impulse, r.ToMove = g.Next.String(), g.Next.Side
		if g.Paused {
			r.Status = "paused"
		}
	}
	if !g.Due.IsZero() && g.Status == adjudicator.Playing {
		d := g.Due.UTC()
		r.Deadline = &d
	}
	return r
}

func (j *Journal) playerOf(c *community, g *adjudicator.Game, side rules.Side) player {
	p := g.Players[side]
	if p == nil {
		return player{Side: side}
	}
	names := j.sideNames(c, g, side, p)
	out := player{Side: side, Name: joinNames(names), Names: names, Promptness: p.Promptness(),
		Impulses: p.Impulses, Missed: p.Missed, Extensions: p.Extensions}
	if g.Status != adjudicator.Forming {
		// The seeds are published with the game's start, in its first
		// report: before, a seed shown would let the player who joins
		// last choose his own knowing the other's.
		out.Seed = p.Seed
	}
	if p.HasJoined() {
		t := p.Joined.UTC()
		out.Joined = &t
	}
	if p.Impulses > 0 {
		out.average = (p.Taken / time.Duration(p.Impulses)).Round(time.Minute)
		out.Average = adjudicator.FormatDuration(out.average)
	}
	return out
}

// impulse is one impulse record of a game's log, with its report.
type impulse struct {
	Impulse string     `json:"impulse"`
	Side    rules.Side `json:"side"`
	// Record is the record's number in the log, once the game is over:
	// before, the numbers would tell how many records of standing orders
	// came between two impulses.
	Record     int       `json:"record,omitempty"`
	Played     time.Time `json:"played"`
	Reason     string    `json:"reason,omitempty"` // why it was played without orders
	Dice       int       `json:"dice"`
	VP         int       `json:"vp"`   // German VP after it
	Head       string    `json:"head"` // the log's head after it: the receipt its report prints
	RolledBack bool      `json:"rolled_back,omitempty"`
	// The URLs of an impulse that stands (not rolled back).
	Replay  string `json:"replay,omitempty"`
	API     string `json:"url,omitempty"`
	Picture string `json:"picture,omitempty"`

	N      int           `json:"-"` // its place among the impulse records, from 1, for the page's anchors
	seq    int           // the record's number in the log
	orders string        // the orders as the report lists them: no standing orders
	html   template.HTML // the report, escaped for the pages
	rolls  []adjudicator.Roll
	end    int // the records of the log through its change
	step   int // its place among the impulses that stand, from 0; -1 when rolled back
}

// die is one die of the dice log.
type die struct {
	Record     int // once the game is over, as impulse.Record
	Impulse    string
	N          int
	Purpose    string
	Value      int
	Draw       uint64
	RolledBack bool
}

// verification is the referee's check of a finished game's export, as
// titm verify makes it.
type verification struct {
	OK          bool   `json:"ok"`
	Impulses    int    `json:"impulses"`
	Dice        int    `json:"dice"`
	DiceChecked bool   `json:"dice_checked"` // every die recomputed from the revealed seed
	Error       string `json:"error,omitempty"`
	Head        string `json:"head"` // the head of the log verified
}

// pictureRef is a picture as a page shows it.
type pictureRef struct {
	URL    string `json:"url"`
	Alt    string `json:"alt"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// gameView is a game as its page shows it, built from its log once for
// each head.
type gameView struct {
	row
	Lang          string        `json:"lang"`                  // the language of the texts: the reports, the result's text, the pictures
	ResultText    string        `json:"result_text,omitempty"` // the result in that language
	ScenarioTitle string        `json:"scenario_title"`
	Created       time.Time     `json:"created"`
	PerImpulse    string        `json:"time_per_impulse"`
	PerTime       string        `json:"-"`                   // PerImpulse in the reader's words
	Observers     []string      `json:"observers,omitempty"` // only when the operator shows addresses
	Commitment    string        `json:"commitment"`
	Seed          string        `json:"seed,omitempty"` // the game's seed, once revealed at the end
	VP            int           `json:"vp"`
	Records       int           `json:"records,omitempty"` // once the game is over, as Record
	Verified      *verification `json:"verified,omitempty"`
	Picture       pictureRef    `json:"picture"`
	Export        string        `json:"export,omitempty"`
	Impulses      []*impulse    `json:"impulses"`
	// ReplayError says why the reports could not all be written again
	// from the log, if they could not.
	ReplayError string `json:"replay_error,omitempty"`

	dice []die
	page [2]struct {
		once sync.Once
		p    *page
		err  error
	} // the game's page, written at the first request: with links that keep ?lang= or not
	p     *lang.Printer // the language of the texts
	line  []*impulse    // the impulses that stand, in order
	size  picSize
	cost  int64
	seed  []byte // the revealed seed, to draw the pictures with the dice it gives
	start bool   // the current picture is of the position before any impulse

	tourTag string // its tournament's names of its players (community.tag), for the ETags
}

func gameURL(id string) string { return "/games/" + url.PathEscape(id) }

func (v *gameView) impulseURL(imp string) string {
	return gameURL(v.ID) + "/impulses/" + url.PathEscape(imp)
}

// find returns the standing impulse named imp (as G16-1), or nil.
func (v *gameView) find(imp rules.Impulse) *impulse {
	for _, iv := range v.line {
		if iv.Impulse == imp.String() {
			return iv
		}
	}
	return nil
}

// buildView builds a game's view from the game and its log: every
// impulse's report as the players and observers received it, written again
// in one replay of the log.
func (j *Journal) buildView(g *adjudicator.Game, log []adjudicator.Record, p *lang.Printer) (*gameView, error) {
	sc, err := g.Rules()
	if err != nil {
		return nil, err
	}
	if len(log) == 0 {
		return nil, errors.New("its log is empty")
	}
	// The page shows the log up to its last record that is not a side's
	// standing orders (see lastChange): the same page, whether or not a
	// player gave some since.
	last := log[publicEnd(log)-1]
	v := &gameView{row: j.rowOf(g, change{last.Hash, last.Time}), Lang: p.Code(), ScenarioTitle: sc.Name, Created: g.Created.UTC(), PerImpulse: adjudicator.FormatDuration(g.Deadline), PerTime: span(p, g.Deadline),
		Commitment: g.Commitment, VP: g.State.VP, Impulses: []*impulse{}, size: j.pictureSize(g, sc), p: p}
	v.tourTag = j.community().tag(g.ID)
	if sc.Title != "" {
		v.ScenarioTitle = p.Data(sc.Title)
	}
	if v.Result != "" {
		v.ResultText = p.Text(rules.ResultMessage(v.Result))
	}
	if j.opt.ShowAddresses {
		v.Observers = g.Observers
	}
	// The seed is read from the game only once it is finished, when the
	// last record has revealed it; before, the logged dice are replayed.
	if g.Status == adjudicator.Finished && g.Seed != "" {
		v.Seed = g.Seed
		if v.seed, err = hex.DecodeString(g.Seed); err != nil {
			return nil, fmt.Errorf("the revealed seed: %w", err)
		}
		v.Export = gameURL(g.ID) + "/export.json"
	}
	err = j.replayReports(v, g, log, sc, p)
	j.listUnreplayed(v, g, log, err)
	if g.Status == adjudicator.Finished {
		v.Records = len(log)
	}
	for i, iv := range v.Impulses {
		iv.N = i + 1
		if g.Status == adjudicator.Finished {
			iv.Record = iv.seq
		}
		for n, d := range iv.rolls {
			v.dice = append(v.dice, die{Record: iv.Record, Impulse: iv.Impulse, N: n + 1, Purpose: d.Purpose, Value: d.Value, Draw: d.Draw, RolledBack: iv.RolledBack})
		}
		if !iv.RolledBack {
			iv.Replay = gameURL(g.ID) + "/replay?impulse=" + url.QueryEscape(iv.Impulse)
			iv.API = "/api/games/" + url.PathEscape(g.ID) + "/impulses/" + url.PathEscape(iv.Impulse)
			iv.Picture = v.impulseURL(iv.Impulse) + "/picture.png"
		}
		v.cost += int64(len(iv.html) + len(iv.orders) + 64*len(iv.rolls) + 256)
	}
	v.Picture = pictureRef{URL: gameURL(g.ID) + "/picture.png", Width: v.size.W, Height: v.size.H}
	if n := len(v.line); n > 0 {
		v.Picture.Alt = p.Sprintf("Map of game %s after impulse %s: the position of every unit; German VP %d", g.ID, v.line[n-1].Impulse, v.VP)
	} else {
		v.start = true
		v.Picture.Alt = p.Sprintf("Map of game %s before the first impulse: the units as the scenario sets them up", g.ID)
	}
	// The game's page, kept with the view, holds the escaped reports and
	// the dice again, and gzipped a fraction of them once more.
	v.cost = v.cost*2 + 4096
	return v, nil
}

// replayReports writes every impulse's report again, in the language of
// p, in one replay of the log (the referee's verification of it, once the
// game is finished), and adds the impulses to v as they are replayed. It
// returns the replay's error; a report that could not be written is told
// by v.ReplayError.
func (j *Journal) replayReports(v *gameView, g *adjudicator.Game, log []adjudicator.Record, sc *rules.Scenario, p *lang.Printer) error {
	var err error
	// The reports are written by a goroutine of their own while the
	// replay goes on, each from a snapshot of the game as its impulse
	// left it (its players copied, its position shared, as the replay
	// never changes a position once made): the replay is most of the
	// time a page takes to build, and the reports need not wait for it to
	// end.
	reports := make(chan reportJob, 8)
	written := make(chan error, 1)
	go func() {
		var first error
		for jb := range reports {
			text, err := adjudicator.ReportIn(p, jb.g, jb.recs, jb.events)
			if err != nil && first == nil {
				first = fmt.Errorf("the report of %s: %w", jb.iv.Impulse, err)
			}
			// Escaped here, beside the replay, rather than by the
			// template after it.
			jb.iv.html = template.HTML(html.EscapeString(text))
		}
		written <- first
	}()
	step := func(rg *adjudicator.Game, recs []adjudicator.Record, events []rules.Event) error {
		switch last := recs[0]; last.Kind {
		case adjudicator.KindImpulse:
			iv := v.addImpulse(rg, recs)
			reports <- reportJob{iv, rg.Snapshot(), recs, events}
		case adjudicator.KindRolledBack:
			v.rollback(last.Impulse)
		}
		return nil
	}
	if g.Status == adjudicator.Finished {
		// The referee's stamp: titm verify's check of the game's export,
		// whose replay writes the reports as it goes.
		ok, err := adjudicator.VerifyWith(sc, adjudicator.MakeExport(g, log), step)
		v.Verified = &verification{Head: g.Head}
		if err != nil {
			v.Verified.Error = err.Error()
		} else {
			v.Verified.OK, v.Verified.Impulses, v.Verified.Dice, v.Verified.DiceChecked = true, ok.Impulses, ok.Dice, ok.DiceChecked
		}
	} else {
		// Before the end the seed is not at hand: the dice are replayed
		// as logged.
		_, err = adjudicator.ReplaySteps(sc, g.Header(), log, nil, step)
	}
	close(reports)
	if werr := <-written; werr != nil {
		// The page goes without the report, and says why.
		v.ReplayError = werr.Error()
		j.log.Warn("journal: writing a report", "game", g.ID, "err", werr)
	}
	return err
}

// listUnreplayed lists the impulses of a log the replay could not go
// through (it stops at the first record it finds otherwise), from the
// log, without their reports; err is the replay's.
func (j *Journal) listUnreplayed(v *gameView, g *adjudicator.Game, log []adjudicator.Record, err error) {
	reached := -1
	if n := len(v.Impulses); n > 0 {
		reached = v.Impulses[n-1].seq
	}
	for _, r := range log {
		if r.Kind == adjudicator.KindImpulse && r.Seq > reached {
			if v.ReplayError == "" {
				v.ReplayError = fmt.Sprintf("record %d and after: %v", r.Seq, err)
				if v.Verified != nil {
					v.ReplayError = fmt.Sprintf("record %d and after: %s", r.Seq, v.Verified.Error)
				}
				j.log.Warn("journal: replaying a game's log", "game", g.ID, "err", v.ReplayError)
			}
			v.add(&impulse{Impulse: r.Impulse, Side: r.Side, seq: r.Seq, Played: r.Time.UTC(), Reason: r.Reason,
				Dice: len(r.Dice), Head: r.Hash, orders: adjudicator.PublicOrders(r.Text), rolls: r.Dice, end: r.Seq + 1})
		}
	}
}

// addImpulse adds an impulse replayed, whose report is written as the
// referee wrote it then.
func (v *gameView) addImpulse(g *adjudicator.Game, recs []adjudicator.Record) *impulse {
	r := recs[0]
	iv := &impulse{Impulse: r.Impulse, Side: r.Side, seq: r.Seq, Played: r.Time.UTC(), Reason: r.Reason, Dice: len(r.Dice),
		VP: g.State.VP, Head: recs[len(recs)-1].Hash, orders: adjudicator.PublicOrders(r.Text), rolls: r.Dice,
		end: recs[len(recs)-1].Seq + 1}
	v.add(iv)
	return iv
}

// reportJob is an impulse whose report is to be written, with the game as
// the impulse left it.
type reportJob struct {
	iv     *impulse
	g      *adjudicator.Game
	recs   []adjudicator.Record
	events []rules.Event
}

func (v *gameView) add(iv *impulse) {
	iv.step = len(v.line)
	v.Impulses = append(v.Impulses, iv)
	v.line = append(v.line, iv)
}

// rollback marks the impulses a rollback to imp undid: the last time imp
// was played and every impulse after it.
func (v *gameView) rollback(imp string) {
	for i := len(v.line) - 1; i >= 0; i-- {
		if v.line[i].Impulse == imp {
			for _, iv := range v.line[i:] {
				iv.RolledBack, iv.step = true, -1
			}
			v.line = v.line[:i]
			return
		}
	}
}

// Report returns the impulse's report, as its players received it. It is
// kept escaped, as the pages want it, and the JSON unescapes it.
func (iv *impulse) Report() string { return html.UnescapeString(string(iv.html)) }

// ReportHTML returns the report escaped, to go in a pre element.
func (iv *impulse) ReportHTML() template.HTML { return iv.html }

// Number returns the impulse's place among those that stand, from 1.
func (iv *impulse) Number() int { return iv.step + 1 }
