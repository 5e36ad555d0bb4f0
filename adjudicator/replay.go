package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"titm/rules"
)

// gameDice is the dice of one impulse: a rules.Dice that tells afterwards
// what it rolled and where the stream stands.
type gameDice interface {
	rules.Dice
	done() (rolls []Roll, draws uint64)
}

type streamDice struct{ *Stream }

func (d streamDice) done() ([]Roll, uint64) { return d.Rolls, d.Drawn() }

// recordedDice plays back the dice a log records, for replaying a log whose
// secret seed is not revealed yet: the outcomes can be checked against the
// dice, but not the dice themselves.
type recordedDice struct {
	want  []Roll
	draws uint64
	rolls []Roll
}

func (d *recordedDice) Roll(purpose string) (int, error) {
	i := len(d.rolls)
	if i >= len(d.want) {
		return 0, fmt.Errorf("the log records %d dice, but die %d is needed for %s", len(d.want), i+1, purpose)
	}
	r := d.want[i]
	if r.Value < 1 || r.Value > 10 {
		return 0, fmt.Errorf("die %d (%s) is %d in the log: a die is 1 to 10", i+1, r.Purpose, r.Value)
	}
	d.rolls = append(d.rolls, Roll{Purpose: purpose, Value: r.Value, Draw: r.Draw})
	d.draws = r.Draw + 1
	return r.Value, nil
}

func (d *recordedDice) done() ([]Roll, uint64) { return d.rolls, d.draws }

// dice returns the dice for the impulse in play: the game's stream, which
// goes on from where the last impulse left it.
func (g *Game) dice() (gameDice, error) {
	if g.replay != nil {
		return g.replay, nil
	}
	if len(g.secret) == 0 {
		return nil, fmt.Errorf("game %s: its secret seed is not at hand to roll dice", g.ID)
	}
	key := DiceKey(g.secret, g.ID, g.Players[rules.German].Seed, g.Players[rules.Allied].Seed)
	return streamDice{NewStreamAt(key, g.Draws)}, nil
}

// Header is what a game's log needs beside itself to be replayed: the game's
// id and its scenario's files (the log's first record holds their digest and
// the commitment), and the addresses with the salt they are committed with.
//
// The addresses are those the log's first record commits to (the players'
// when the game was made), checked against the commitments when Salt is
// given. A public header (Public) has neither: the log is replayed all the
// same, since no record holds an address. A log from before address
// commitments commits to none, and its header's addresses are not checked.
type Header struct {
	ID         string            `json:"id"`
	Scenario   string            `json:"scenario"`
	Main       string            `json:"main"`
	Files      map[string]string `json:"files"`
	Commitment string            `json:"commitment"`
	German     string            `json:"german,omitempty"` // the players' addresses
	Allied     string            `json:"allied,omitempty"`
	Observers  []string          `json:"observers,omitempty"`
	Salt       string            `json:"address_salt,omitempty"` // of the address commitments
}

// Header returns the game's header.
func (g *Game) Header() Header {
	return Header{ID: g.ID, Scenario: g.Scenario, Main: g.Main, Files: g.Files, Commitment: g.Commitment,
		German: g.Players[rules.German].committed(), Allied: g.Players[rules.Allied].committed(), Observers: g.Observers, Salt: g.Salt}
}

// Replayed is a game rebuilt from its log.
type Replayed struct {
	Game     *Game
	Impulses int // impulse records
	Dice     int // dice rolled in them
	// Events holds each impulse's events, by the impulse record's number,
	// for its report.
	Events map[int][]rules.Event
	// before holds the position before each impulse was last played, for
	// rollbacks: the game's own, which no change of the game changes
	// (Snapshot), and which a rollback copies.
	before map[rules.Impulse]*rules.State
}

// Snapshot returns a copy of the game as it stands, to read while a replay
// goes on changing the game: ReplaySteps' step may hand it to another
// goroutine, as the journal does to write each impulse's report beside the
// replay. The players are copied, since the replay goes on counting their
// impulses; the position is shared, since no method of a game changes a
// position once made: each change makes a new one (rules.Play,
// rules.ApplyStanding, a rollback, the end of the game in finish). So a
// snapshot costs no copy of a campaign's two hundred units. Nothing may
// change the snapshot's position either.
func (g *Game) Snapshot() *Game {
	c := *g
	c.Players = make(map[rules.Side]*Player, len(g.Players))
	for side, p := range g.Players {
		q := *p
		c.Players[side] = &q
	}
	return &c
}

// A Discrepancy is where a log and its replay part: the record, and what
// differs.
type Discrepancy struct {
	Seq     int
	Kind    string
	Impulse string
	// Field is the JSON name of the record's field that differs
	// (`dice[2].roll`), or of the export's; "" when the difference is not
	// one field's (the replay fails, or makes a record the log lacks).
	Field string
	// Act, when not 0, is the record of the act that made the record Seq
	// with it (an impulse, and the finished record that ends the game):
	// which of the two was changed, the log cannot tell.
	Act  int
	What string
	// Logged and Replayed are the field's JSON in the log and in the
	// replay, when one field differs ("" where a side has none), so that
	// a reader in another language than the verifier's own sees the
	// values without reading What.
	Logged, Replayed string
}

func (d *Discrepancy) Error() string {
	where := fmt.Sprintf("record %d (%s", d.Seq, d.Kind)
	if d.Impulse != "" {
		where += " " + d.Impulse
	}
	where += ")"
	if d.Act != 0 && d.Act != d.Seq {
		where += fmt.Sprintf(", made with record %d", d.Act)
	}
	return where + ": " + d.What
}

// discrepancy returns a *Discrepancy of record seq, made by itself.
func discrepancy(seq int, e Record, field, what string) *Discrepancy {
	return &Discrepancy{Seq: seq, Kind: e.Kind, Impulse: e.Impulse, Field: field, Act: seq, What: what}
}

// Replay rebuilds a game from its header and log, through the same methods
// that made it, and checks that every record it makes is the record logged:
// the same dice, events, positions and hashes. With the secret seed every
// die is recomputed from the stream; without it (the game not finished) the
// logged dice are used, and only what follows from them is checked. The
// first difference is returned as a *Discrepancy.
func Replay(h Header, log []Record, secret []byte) (*Replayed, error) {
	return ReplayWith(nil, h, log, secret)
}

// ReplayWith is Replay with the game's scenario already loaded from the
// header's files, as a store that checks many games of one scenario has it:
// loading the campaign's data for each game would take most of the time.
// With s nil the scenario is loaded from the files.
func ReplayWith(s *rules.Scenario, h Header, log []Record, secret []byte) (*Replayed, error) {
	return ReplaySteps(s, h, log, secret, nil)
}

// ReplaySteps is ReplayWith that calls step, when not nil, after each
// change it has replayed and found as logged: the game's creation first,
// then each change as the game's methods made it (an impulse with the
// finished record that may follow it is one change). g is the game as the
// change left it, to read and not to keep, as the replay goes on changing
// it; recs are the change's records, and events an impulse's events. So a
// reader that wants every impulse's report writes them in one replay,
// rather than replaying the log up to each. An error of step stops the
// replay and is returned.
func ReplaySteps(s *rules.Scenario, h Header, log []Record, secret []byte, step func(g *Game, recs []Record, events []rules.Event) error) (*Replayed, error) {
	g, err := replayCreated(s, h, log, secret)
	if err != nil {
		return nil, err
	}
	if step != nil {
		if err := step(g, log[:1], nil); err != nil {
			return nil, err
		}
	}
	engine := log[0].Engine
	out := &Replayed{Game: g, Events: map[int][]rules.Event{}, before: map[rules.Impulse]*rules.State{}}
	for i := 1; i < len(log); {
		e := log[i]
		var next *Record
		if i+1 < len(log) {
			next = &log[i+1]
		}
		recs, err := out.apply(e, next, engine, secret)
		switch {
		case err == errNotByItself:
			// Such a record is made with the act before it (a
			// finished record with the last impulse): that act did
			// not make it.
			d := discrepancy(i, e, "kind", "no record of this kind is made here by itself")
			d.Act = i - 1
			return nil, d
		case err != nil:
			return nil, engineNote(engine, discrepancy(i, e, "", "replaying it fails: "+err.Error()))
		}
		start := i
		if i, err = matchLogged(log, i, recs, engine); err != nil {
			return nil, err
		}
		if step != nil {
			if err := step(g, log[start:i], out.Events[e.Seq]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// replayCreated checks the log's first record, the game's creation, against
// the header and the secret seed if it is revealed, and makes the game it
// records, forming.
func replayCreated(s *rules.Scenario, h Header, log []Record, secret []byte) (*Game, error) {
	if len(log) == 0 || log[0].Kind != KindCreated {
		return nil, &Discrepancy{Kind: "start", What: "the log does not begin with a created record"}
	}
	c := log[0]
	if err := checkCreated(h, c, secret); err != nil {
		return nil, err
	}
	if _, err := checkAddresses(h, c); err != nil {
		return nil, err
	}
	// A public header has no addresses: the commitments are taken as
	// logged, as nothing else can give them.
	commitments := c.AddressCommitments
	if h.Salt != "" {
		commitments = h.commitments()
	}
	// A log older than the versions (no engine) is version 1's.
	if c.Engine < 0 || c.Engine > rules.Version {
		return nil, discrepancy(0, c, "engine", fmt.Sprintf("the game was played with adjudication version %d, and this titm knows versions up to %d", c.Engine, rules.Version))
	}
	if _, ok := h.Files[h.Main]; !ok {
		return nil, discrepancy(0, c, "main", fmt.Sprintf("the scenario's main file %q is not among its files", h.Main))
	}
	if s == nil {
		var err error
		if s, err = LoadScenario(h.Files, h.Main); err != nil {
			return nil, fmt.Errorf("loading the game's scenario: %w", err)
		}
	}
	deadline, err := time.ParseDuration(c.Deadline)
	if err != nil {
		return nil, &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("deadline %q: %v", c.Deadline, err)}
	}
	g := &Game{
		ID: h.ID, Scenario: c.Scenario, Files: h.Files, Main: h.Main, Data: c.Data,
		Players:    map[rules.Side]*Player{rules.German: {Address: h.German}, rules.Allied: {Address: h.Allied}},
		Observers:  h.Observers,
		Salt:       h.Salt,
		Status:     Forming,
		Created:    at(c.Time),
		Deadline:   deadline,
		Commitment: c.Commitment,
		State:      rules.NewState(s),
		Next:       s.StartImpulse,
		secret:     secret,
		scenario:   s,
	}
	r := g.record(Record{Kind: KindCreated, Time: g.Created, Scenario: s.Name, Engine: c.Engine, Data: FilesHash(h.Files),
		Commitment: g.Commitment, Deadline: deadline.String(), AddressCommitments: commitments, State: StateHash(g.State)})
	if err := compare(c, r); err != nil {
		return nil, err
	}
	return g, nil
}

// checkCreated checks the created record c against the header and the
// secret seed (nil: not revealed): the seed hashes to the commitment
// published at creation (B10), which is the header's, and the header's
// files are those the game was played with.
func checkCreated(h Header, c Record, secret []byte) error {
	if secret != nil {
		sum := sha256.Sum256(secret)
		if got := hex.EncodeToString(sum[:]); got != c.Commitment {
			return &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("the revealed seed hashes to %s, but the commitment published at creation is %s", got, c.Commitment)}
		}
	}
	if h.Commitment != c.Commitment {
		return &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("the game's commitment is %s, but the log's first record has %s", h.Commitment, c.Commitment)}
	}
	if got := FilesHash(h.Files); got != c.Data {
		return &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("the scenario's files digest to %s, but the log records %s: they are not the files the game was played with", got, c.Data)}
	}
	return nil
}

// errNotByItself is apply's error for a logged record that no method makes
// by itself: one made only with another, as a game's creation, start or
// finish, or of no kind known.
var errNotByItself = errors.New("not made by itself")

// apply replays a logged record, e, through the game's method that made it,
// and returns the records that method makes now. With no secret seed, an
// impulse rolls the dice the log records. next is the logged record after
// e, if any, and engine the adjudication version of the log.
func (out *Replayed) apply(e Record, next *Record, engine int, secret []byte) ([]Record, error) {
	g := out.Game
	switch e.Kind {
	case KindJoined:
		return g.Join(e.Side, e.Seed, e.Time)
	case KindStanding:
		recs, _, err := g.Submit(e.Side, e.Text, e.Time)
		return recs, err
	case KindImpulse:
		return out.applyImpulse(e, secret)
	case KindPaused:
		return g.Pause(e.Reason, e.Time)
	case KindResumed:
		return g.Resume(e.Reason, e.Time)
	case KindExtended:
		d, err := time.ParseDuration(e.Deadline)
		if err != nil {
			return nil, err
		}
		return g.Extend(e.Side, d, e.Reason, e.Time)
	case KindRolledBack:
		to, err := rules.ParseImpulse(e.Impulse)
		if err != nil {
			return nil, err
		}
		return g.rollback(out.before, to, e.Reason, e.Time)
	case KindConceded:
		result := rules.ConcededResult(e.Side)
		if engine < 2 && next != nil && next.Result == rules.ConcededResultV1(e.Side) {
			// Version 1 wrote the sides in lower case. Its
			// log, which may have been conceded with a later
			// titm, keeps the wording it was written with.
			result = rules.ConcededResultV1(e.Side)
		}
		return g.concede(e.Side, e.Time, result)
	case KindAdjudicated:
		return g.Adjudicate(e.Side, e.Reason, e.Time)
	case KindDrawOffered:
		return g.Draw(e.Side, false, e.Time)
	case KindDrawAgreed:
		return g.Draw(e.Side, true, e.Time)
	}
	return nil, errNotByItself
}

// applyImpulse replays a logged impulse: its orders, or its deadline
// passing. It keeps the position before it, for rollbacks, its events, for
// its report, and counts it and its dice.
func (out *Replayed) applyImpulse(e Record, secret []byte) ([]Record, error) {
	g := out.Game
	out.before[g.State.Next] = g.State // never changed: the impulse makes a new one
	if secret == nil {
		g.replay = &recordedDice{want: e.Dice, draws: g.Draws}
	}
	var recs []Record
	var events []rules.Event
	var err error
	if e.Reason == ReasonDeadline {
		recs, events, err = g.Expire(e.Time)
	} else {
		recs, events, err = g.Submit(e.Side, e.Text, e.Time)
	}
	out.Events[e.Seq] = events
	g.replay = nil
	out.Impulses++
	out.Dice += len(e.Dice)
	return recs, err
}

// matchLogged compares the records the replay of a logged record made,
// recs, with the log's from the i-th on, and returns the index of the log's
// record after them.
func matchLogged(log []Record, i int, recs []Record, engine int) (int, error) {
	act := i
	for _, r := range recs {
		if i >= len(log) {
			d := discrepancy(r.Seq, r, "", "the replay makes this record, but the log ends before it")
			d.Act = act
			return i, engineNote(engine, d)
		}
		if err := compare(log[i], r); err != nil {
			err.(*Discrepancy).Act = act
			return i, engineNote(engine, err)
		}
		i++
	}
	return i, nil
}

// engineNote adds to a discrepancy that the game was played with another
// version of the adjudication, where it was: the difference may come from a
// change of the rules engine rather than from the log.
func engineNote(engine int, err error) error {
	var d *Discrepancy
	if engine != rules.Version && errors.As(err, &d) {
		d.What += fmt.Sprintf(" (the game was played with adjudication version %d, and this titm has version %d: replay it with the titm it was played with)", engine, rules.Version)
	}
	return err
}

// compare names the first difference between a logged record and the
// record the replay made, field by field in the order of the record's
// JSON (FirstDifference): so every field is compared, a field added to
// Record as well, and the discrepancy names the field by its JSON name.
func compare(e, r Record) error {
	d := FirstDifference(e, r)
	if d == nil {
		return nil
	}
	// The record is named by its place in the log, which the replay
	// numbers, not by the number it claims.
	dd := discrepancy(r.Seq, e, d.Field, describe(d))
	dd.Logged, dd.Replayed = d.Logged, d.Replayed
	return dd
}

// fieldWords says what some fields of a record are, for a reader of a
// discrepancy; a field not named here is named by its JSON name alone.
var fieldWords = map[string]string{
	"seq":                 "the record's number",
	"time":                "the time",
	"text":                "the orders",
	"reason":              "the reason",
	"seed":                "the seed",
	"data":                "the files' digest",
	"commitment":          "the commitment",
	"deadline":            "the deadline",
	"address_commitments": "the commitments to the players' addresses",
	"dice":                "the dice",
	"events":              "the events",
	"state":               "the position's digest",
	"due":                 "the next deadline",
	"result":              "the result",
	"prev":                "the link to the record before",
	"hash":                "the record's hash",
}

// describe writes a difference for a reader: the field by its JSON name
// and what it is, and its value in the log and in the replay.
func describe(d *Difference) string {
	top, _, _ := strings.Cut(d.Field, ".")
	top, _, _ = strings.Cut(top, "[")
	what := d.Field
	if w := fieldWords[top]; w != "" {
		what += " (" + w + ")"
	}
	switch {
	case top == "hash":
		return fmt.Sprintf("%s is %s in the log, but its contents hash to %s: it was changed after it was written", what, d.Logged, d.Replayed)
	case top == "prev":
		return fmt.Sprintf("%s is %s in the log, but the record before it hashes to %s", what, d.Logged, d.Replayed)
	case d.Replayed == "":
		return fmt.Sprintf("%s is %s in the log, and the replay has none", what, d.Logged)
	case d.Logged == "":
		return fmt.Sprintf("the log has no %s, and the replay gives %s", what, d.Replayed)
	case top == "dice" && strings.HasSuffix(d.Field, ".roll"):
		return fmt.Sprintf("%s is %s in the log, but the dice stream gives %s", what, d.Logged, d.Replayed)
	}
	return fmt.Sprintf("%s is %s in the log, but the replay gives %s", what, d.Logged, d.Replayed)
}
