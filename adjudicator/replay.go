package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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
// the commitment).
type Header struct {
	ID         string            `json:"id"`
	Scenario   string            `json:"scenario"`
	Main       string            `json:"main"`
	Files      map[string]string `json:"files"`
	Commitment string            `json:"commitment"`
	German     string            `json:"german"` // the players' addresses
	Allied     string            `json:"allied"`
	Observers  []string          `json:"observers,omitempty"`
}

// Header returns the game's header.
func (g *Game) Header() Header {
	return Header{ID: g.ID, Scenario: g.Scenario, Main: g.Main, Files: g.Files, Commitment: g.Commitment,
		German: g.Players[rules.German].Address, Allied: g.Players[rules.Allied].Address, Observers: g.Observers}
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
	// rollbacks.
	before map[rules.Impulse]*rules.State
}

// A Discrepancy is where a log and its replay part: the record, and what
// differs.
type Discrepancy struct {
	Seq     int
	Kind    string
	Impulse string
	What    string
}

func (d *Discrepancy) Error() string {
	where := fmt.Sprintf("record %d (%s", d.Seq, d.Kind)
	if d.Impulse != "" {
		where += " " + d.Impulse
	}
	return where + "): " + d.What
}

// Replay rebuilds a game from its header and log, through the same methods
// that made it, and checks that every record it makes is the record logged:
// the same dice, events, positions and hashes. With the secret seed every
// die is recomputed from the stream; without it (the game not finished) the
// logged dice are used, and only what follows from them is checked. The
// first difference is returned as a *Discrepancy.
func Replay(h Header, log []Record, secret []byte) (*Replayed, error) {
	if len(log) == 0 || log[0].Kind != KindCreated {
		return nil, &Discrepancy{Kind: "start", What: "the log does not begin with a created record"}
	}
	c := log[0]
	if secret != nil {
		sum := sha256.Sum256(secret)
		if got := hex.EncodeToString(sum[:]); got != c.Commitment {
			return nil, &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("the revealed seed hashes to %s, but the commitment published at creation is %s", got, c.Commitment)}
		}
	}
	if h.Commitment != c.Commitment {
		return nil, &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("the game's commitment is %s, but the log's first record has %s", h.Commitment, c.Commitment)}
	}
	if got := FilesHash(h.Files); got != c.Data {
		return nil, &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("the scenario's files digest to %s, but the log records %s: they are not the files the game was played with", got, c.Data)}
	}
	s, err := LoadScenario(h.Files, h.Main)
	if err != nil {
		return nil, fmt.Errorf("loading the game's scenario: %w", err)
	}
	deadline, err := time.ParseDuration(c.Deadline)
	if err != nil {
		return nil, &Discrepancy{Seq: 0, Kind: c.Kind, What: fmt.Sprintf("deadline %q: %v", c.Deadline, err)}
	}
	g := &Game{
		ID: h.ID, Scenario: c.Scenario, Files: h.Files, Main: h.Main, Data: c.Data,
		Players:    map[rules.Side]*Player{rules.German: {Address: h.German}, rules.Allied: {Address: h.Allied}},
		Observers:  h.Observers,
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
		Commitment: g.Commitment, Deadline: deadline.String(), State: StateHash(g.State)})
	if err := compare(c, r); err != nil {
		return nil, err
	}
	out := &Replayed{Game: g, Events: map[int][]rules.Event{}, before: map[rules.Impulse]*rules.State{}}
	for i := 1; i < len(log); {
		e := log[i]
		var recs []Record
		var err error
		switch e.Kind {
		case KindJoined:
			recs, err = g.Join(e.Side, e.Seed, e.Time)
		case KindStanding:
			recs, _, err = g.Submit(e.Side, e.Text, e.Time)
		case KindImpulse:
			out.before[g.State.Next] = g.State.Clone()
			if secret == nil {
				g.replay = &recordedDice{want: e.Dice, draws: g.Draws}
			}
			var events []rules.Event
			if e.Reason == ReasonDeadline {
				recs, events, err = g.Expire(e.Time)
			} else {
				recs, events, err = g.Submit(e.Side, e.Text, e.Time)
			}
			out.Events[e.Seq] = events
			g.replay = nil
			out.Impulses++
			out.Dice += len(e.Dice)
		case KindPaused:
			recs, err = g.Pause(e.Reason, e.Time)
		case KindResumed:
			recs, err = g.Resume(e.Reason, e.Time)
		case KindExtended:
			var d time.Duration
			if d, err = time.ParseDuration(e.Deadline); err == nil {
				recs, err = g.Extend(e.Side, d, e.Reason, e.Time)
			}
		case KindRolledBack:
			var to rules.Impulse
			if to, err = rules.ParseImpulse(e.Impulse); err == nil {
				recs, err = g.rollback(out.before, to, e.Reason, e.Time)
			}
		case KindConceded:
			recs, err = g.Concede(e.Side, e.Time)
		case KindDrawOffered:
			recs, err = g.Draw(e.Side, false, e.Time)
		case KindDrawAgreed:
			recs, err = g.Draw(e.Side, true, e.Time)
		default:
			return nil, &Discrepancy{Seq: e.Seq, Kind: e.Kind, Impulse: e.Impulse, What: "no record of this kind is made here by itself"}
		}
		if err != nil {
			return nil, engineNote(c.Engine, &Discrepancy{Seq: e.Seq, Kind: e.Kind, Impulse: e.Impulse, What: "replaying it fails: " + err.Error()})
		}
		for _, r := range recs {
			if i >= len(log) {
				return nil, engineNote(c.Engine, &Discrepancy{Seq: r.Seq, Kind: r.Kind, Impulse: r.Impulse, What: "the replay makes this record, but the log ends before it"})
			}
			if err := compare(log[i], r); err != nil {
				return nil, engineNote(c.Engine, err)
			}
			i++
		}
	}
	return out, nil
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
// record the replay made.
func compare(e, r Record) error {
	d := &Discrepancy{Seq: e.Seq, Kind: e.Kind, Impulse: e.Impulse}
	fail := func(format string, args ...any) error { d.What = fmt.Sprintf(format, args...); return d }
	str := func(field, logged, replayed string) error {
		return fail("%s is %q in the log, but the replay gives %q", field, logged, replayed)
	}
	switch {
	case e.Seq != r.Seq:
		return fail("it is numbered %d, but it is record %d of the log", e.Seq, r.Seq)
	case e.Kind != r.Kind:
		return str("the kind", e.Kind, r.Kind)
	case !e.Time.Equal(r.Time):
		return str("the time", e.Time.Format(time.RFC3339Nano), r.Time.Format(time.RFC3339Nano))
	case e.Side != r.Side:
		return str("the side", string(e.Side), string(r.Side))
	case e.Impulse != r.Impulse:
		return str("the impulse", e.Impulse, r.Impulse)
	case e.Text != r.Text:
		return str("the orders", e.Text, r.Text)
	case e.Reason != r.Reason:
		return str("the reason", e.Reason, r.Reason)
	case e.Seed != r.Seed:
		return str("the seed", e.Seed, r.Seed)
	case e.Scenario != r.Scenario:
		return str("the scenario", e.Scenario, r.Scenario)
	case e.Data != r.Data:
		return str("the files' digest", e.Data, r.Data)
	case e.Commitment != r.Commitment:
		return str("the commitment", e.Commitment, r.Commitment)
	case e.Deadline != r.Deadline:
		return str("the deadline", e.Deadline, r.Deadline)
	}
	for i := 0; i < len(e.Dice) || i < len(r.Dice); i++ {
		switch {
		case i >= len(r.Dice):
			return fail("the log has %d dice, but the replay rolls only %d", len(e.Dice), len(r.Dice))
		case i >= len(e.Dice):
			return fail("the log has %d dice, but the replay rolls more: die %d for %s", len(e.Dice), i+1, r.Dice[i].Purpose)
		case e.Dice[i].Purpose != r.Dice[i].Purpose:
			return fail("die %d is for %q in the log, but the replay rolls it for %q", i+1, e.Dice[i].Purpose, r.Dice[i].Purpose)
		case e.Dice[i].Value != r.Dice[i].Value:
			return fail("die %d (%s) is %d in the log, but the dice stream gives %d", i+1, e.Dice[i].Purpose, e.Dice[i].Value, r.Dice[i].Value)
		case e.Dice[i].Draw != r.Dice[i].Draw:
			return fail("die %d (%s) is draw %d in the log, but the dice stream gives it at draw %d", i+1, e.Dice[i].Purpose, e.Dice[i].Draw, r.Dice[i].Draw)
		}
	}
	for i := 0; i < len(e.Events) || i < len(r.Events); i++ {
		switch {
		case i >= len(r.Events):
			return fail("event %d %q is in the log, but the replay has only %d events", i+1, e.Events[i], len(r.Events))
		case i >= len(e.Events):
			return fail("the log has %d events, but the replay goes on: %q", len(e.Events), r.Events[i])
		case e.Events[i] != r.Events[i]:
			return fail("event %d is %q in the log, but the replay gives %q", i+1, e.Events[i], r.Events[i])
		}
	}
	switch {
	case e.State != r.State:
		return str("the position's digest", e.State, r.State)
	case !e.Due.Equal(r.Due):
		return str("the deadline", e.Due.Format(time.RFC3339Nano), r.Due.Format(time.RFC3339Nano))
	case e.Result != r.Result:
		return str("the result", e.Result, r.Result)
	case e.Prev != r.Prev:
		return fail("it links to %s, but the record before it hashes to %s", e.Prev, r.Prev)
	case e.Hash != r.Hash:
		return fail("its hash is %s in the log, but its contents hash to %s: it was changed after it was written", e.Hash, r.Hash)
	}
	return nil
}
