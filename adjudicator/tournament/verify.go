package tournament

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

// ExportFormat names the format of a tournament's export: version 2 has
// the salt and the addresses the log commits to (Export.Salt and
// Addresses), which a public export leaves out.
const ExportFormat = "titm-tournament/2"

// ExportFormatV1 is the format of the exports written before, which
// ReadExport reads too.
const ExportFormatV1 = "titm-tournament/1"

// Export is everything needed to audit a tournament: its log (every
// pairing, sealed bid, side decision and result), the revealed seed once it
// is over, and the export of each of its games.
//
// A tournament's log commits to the director's and the players' addresses
// rather than holding them (adjudicator.AddressCommitment). The full export
// gives the salt and each address by its commitment, and Verify checks
// them; the public export (Public) gives neither, and its games' exports
// are public too.
type Export struct {
	Format     string                `json:"format"`
	ID         string                `json:"id"`
	Commitment string                `json:"commitment"`
	Seed       string                `json:"seed,omitempty"`
	Head       string                `json:"head"`
	Records    []Record              `json:"records"`
	Games      []*adjudicator.Export `json:"games"`
	Salt       string                `json:"address_salt,omitempty"`
	Addresses  map[string]string     `json:"addresses,omitempty"` // by commitment
}

// MakeExport returns a tournament's export with its games'.
func MakeExport(t *Tournament, games []*adjudicator.Export) *Export {
	x := &Export{Format: ExportFormat, ID: t.ID, Commitment: t.Commitment, Seed: t.Seed, Head: t.Head, Records: t.Log, Games: games}
	if !t.Committed() || t.Salt == "" {
		// A log from before commitments, or a tournament as Public
		// shows it, without the salt.
		return x
	}
	// Every address the tournament has known, by its commitment: those
	// the log commits to are among them.
	known := map[string]string{}
	for _, a := range append([]string{t.Director}, t.addresses()...) {
		if a != "" {
			known[adjudicator.AddressCommitment(t.Salt, a)] = a
		}
	}
	x.Salt, x.Addresses = t.Salt, map[string]string{}
	for _, c := range logCommitments(t.Log) {
		if a, ok := known[c]; ok {
			x.Addresses[c] = a
		}
	}
	return x
}

// IsExport reports whether data is a tournament's export rather than a
// game's.
func IsExport(data []byte) bool {
	var x struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &x) == nil && (x.Format == ExportFormat || x.Format == ExportFormatV1)
}

// ReadExport reads a tournament's export.
func ReadExport(r io.Reader) (*Export, error) {
	var x Export
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("reading the tournament's export: %w", err)
	}
	if x.Format != ExportFormat && x.Format != ExportFormatV1 {
		return nil, fmt.Errorf("reading the tournament's export: format %q, want %q (or %q, as written before)", x.Format, ExportFormat, ExportFormatV1)
	}
	return &x, nil
}

// Verified is what Verify checked.
type Verified struct {
	Records, Sides, Dice, Games, Impulses int
	DiceChecked                           bool // false while the seed is not revealed
	// Committed is how many address commitments the tournament's log and
	// its games' logs hold, and Addresses how many of them the export
	// gives and were checked: all, or none for a public export.
	Committed, Addresses int
}

// Public reports whether the export was a public one: its logs commit to
// addresses it does not give.
func (v *Verified) Public() bool { return v.Committed > 0 && v.Addresses == 0 }

// Discrepancy is the first difference Verify found.
type Discrepancy struct {
	Seq  int
	What string
}

func (d *Discrepancy) Error() string {
	if d.Seq < 0 {
		return d.What
	}
	return fmt.Sprintf("record %d: %s", d.Seq, d.What)
}

// Verify checks a tournament's export: every hash of its chain; the seed
// against the commitment; each game's export (adjudicator.Verify); the
// whole log replayed from its first record, each act giving again exactly
// the records logged (so every pairing, every side decision from the
// revealed bids and every die is checked), with each result derived from
// its game as the referee derives it (End): the game's result, its German
// VP less the bids' and the scenario's VP levels; each sealed bid against
// the hash logged when it came. A bid not revealed yet, in the export of
// a running tournament, is checked only for having come in when it could.
func Verify(x *Export) (*Verified, error) {
	games := map[string]*adjudicator.Game{}
	var gv Verified
	for _, gx := range x.Games {
		if games[gx.ID] != nil {
			return nil, bad(-1, "game %s is in the export twice", gx.ID)
		}
		r, err := adjudicator.Verify(gx)
		if err != nil {
			return nil, bad(-1, "game %s: %v", gx.ID, err)
		}
		games[gx.ID] = r.Game
		gv.Games++
		gv.Impulses += r.Impulses
		gv.Dice += r.Dice
		gv.Committed += r.Committed
		gv.Addresses += r.Addresses
	}
	v, t, err := verifyLog(x, games)
	if err != nil {
		return nil, err
	}
	if (v.Addresses > 0) != (gv.Addresses > 0) && v.Committed > 0 && gv.Committed > 0 {
		return nil, bad(-1, "the export gives the addresses of the tournament's log but not of its games', or the reverse: a full export gives all, a public one none")
	}
	v.Games, v.Impulses, v.Dice = gv.Games, gv.Impulses, v.Dice+gv.Dice
	v.Committed += gv.Committed
	v.Addresses += gv.Addresses
	return v, verifyGames(x, games, t)
}

// VerifyLog checks the tournament's log alone, as Verify does, without its
// games: each result is taken as its record tells it.
func VerifyLog(x *Export) (*Verified, error) {
	v, _, err := verifyLog(x, nil)
	return v, err
}

func bad(seq int, format string, args ...any) error {
	return &Discrepancy{Seq: seq, What: fmt.Sprintf(format, args...)}
}

// verifyLog replays the log. With games (the verified games of the
// export, by id) each result is derived from its game; with nil, from its
// record.
func verifyLog(x *Export, games map[string]*adjudicator.Game) (*Verified, *Tournament, error) {
	if len(x.Records) == 0 || x.Records[0].Kind != KindCreated || x.Records[0].Settings == nil {
		return nil, nil, bad(0, "the log does not begin with the tournament's creation")
	}
	prev := ""
	for _, r := range x.Records {
		if r.Prev != prev {
			return nil, nil, bad(r.Seq, "its prev %s is not the hash of the record before, %s", r.Prev, prev)
		}
		if RecordHash(r) != r.Hash {
			return nil, nil, bad(r.Seq, "its hash %s is not the hash of its content", r.Hash)
		}
		prev = r.Hash
	}
	if prev != x.Head {
		return nil, nil, bad(-1, "the export's head %s is not the hash of its last record, %s", x.Head, prev)
	}
	c := x.Records[0]
	if c.Commitment != x.Commitment {
		return nil, nil, bad(0, "the commitment %s is not the export's, %s", c.Commitment, x.Commitment)
	}
	v := &Verified{Records: len(x.Records)}
	t := &Tournament{ID: x.ID, Settings: *c.Settings, Status: Running, Created: c.Time, Commitment: c.Commitment, Salt: x.Salt}
	t.Players = append([]Entry(nil), c.Settings.Players...)
	if err := checkCommitments(x, t, v); err != nil {
		return nil, nil, err
	}
	for _, p := range t.Players {
		t.Entrants = append(t.Entrants, &Entrant{Name: p.Name, Address: p.Address, Commitment: p.Commitment, Language: p.Language})
	}
	if x.Seed != "" {
		secret, err := hex.DecodeString(x.Seed)
		if err != nil {
			return nil, nil, bad(-1, "the revealed seed is not hex")
		}
		if err := t.SetSecret(secret); err != nil {
			return nil, nil, bad(-1, "%v", err)
		}
		v.DiceChecked = true
	}
	t.Log, t.Head = x.Records[:1], c.Hash
	// The director's decision names how its game ended, as the referee's
	// act does (TournamentAdjudicate).
	adjudicated := map[string]bool{}
	for i := 1; i < len(x.Records); {
		r := x.Records[i]
		if !v.DiceChecked {
			// The dice are taken as logged, from this record on.
			t.logged = nil
			for _, q := range x.Records[i:] {
				t.logged = append(t.logged, q.Dice...)
			}
		}
		var got []Record
		var err error
		switch r.Kind {
		case KindPaired:
			got, err = t.Pair(r.Time)
		case KindBid:
			b, ok, berr := revealed(t.ID, x.Records[i:], r)
			switch {
			case berr != nil:
				return nil, nil, bad(r.Seq, "%v", berr)
			case ok:
				got, err = t.replayBid(r.Player-1, b, r.Time)
			default:
				// The export was taken while the bids were open: the bid
				// is still sealed, and its hash all the log holds.
				got, err = t.sealedBid(r.Player-1, r.BidHash, r.Time)
			}
		case KindSides:
			got, err = t.CloseBids(r.Time)
		case KindGame:
			_, p, _ := t.at(r.Round, r.Pairing)
			if p == nil {
				return nil, nil, bad(r.Seq, "no pairing %d in round %d", r.Pairing, r.Round)
			}
			got = []Record{t.GameMade(r.Round, r.Pairing, r.Game, r.Time)}
			if err := t.checkPlayers(p, x, r); err != nil {
				return nil, nil, err
			}
		case KindResult:
			_, p, _ := t.at(r.Round, r.Pairing)
			if p == nil || !p.Sided() {
				return nil, nil, bad(r.Seq, "a result for pairing %d of round %d, which has no sides", r.Pairing, r.Round)
			}
			e := endOf(p, r)
			if games != nil {
				g := games[r.Game]
				if g == nil {
					return nil, nil, bad(r.Seq, "game %s of the log is missing from the export", r.Game)
				}
				how := ""
				if adjudicated[r.Game] {
					how = "adjudicated"
				}
				if e, err = endOfGame(g, p, how); err != nil {
					return nil, nil, bad(r.Seq, "%v", err)
				}
			}
			got, err = t.Result(r.Game, e, r.Time)
			if err == nil && games != nil && (got[0].Points != r.Points || got[0].Margin != r.Margin) {
				return nil, nil, bad(r.Seq, "the log counts game %s as %s, but the game ended %q with %d German VP and %+d given by the bids, which counts as %s",
					r.Game, t.count(p, r.Points, r.Margin), e.Result, e.VP+p.Give, p.Give, t.count(p, got[0].Points, got[0].Margin))
			}
		case KindReplaced:
			var rec Record
			addr := r.Address
			if t.Committed() {
				addr = x.Addresses[r.AddressCommitment]
			}
			rec, err = t.replace(r.Player-1, r.Name, addr, r.AddressCommitment, "", r.Text, r.Impulse, r.Time)
			got = []Record{rec}
		case KindWithdrawn:
			var rec Record
			rec, err = t.Withdraw(r.Player-1, r.Text, r.Time)
			got = []Record{rec}
		case KindPaused:
			var rec Record
			rec, err = t.Pause(r.Text, r.Time)
			got = []Record{rec}
		case KindResumed:
			var rec Record
			rec, err = t.Resume(r.Text, r.Time)
			got = []Record{rec}
		case KindAdjudicated:
			var rec Record
			rec, err = t.Adjudicate(r.Game, r.Text, r.Time)
			got = []Record{rec}
			adjudicated[r.Game] = true
		default:
			return nil, nil, bad(r.Seq, "a record of kind %q cannot come here", r.Kind)
		}
		if err != nil {
			return nil, nil, bad(r.Seq, "replaying it: %v", err)
		}
		if len(got) == 0 {
			return nil, nil, bad(r.Seq, "replaying it makes no record")
		}
		for _, g := range got {
			if i >= len(x.Records) {
				return nil, nil, bad(g.Seq, "the replay makes a %s record the log does not have", g.Kind)
			}
			if g.Hash != x.Records[i].Hash {
				want, _ := json.Marshal(x.Records[i])
				have, _ := json.Marshal(g)
				return nil, nil, bad(g.Seq, "the replay differs:\n  logged:   %s\n  replayed: %s", want, have)
			}
			if g.Kind == KindSides {
				v.Sides++
			}
			v.Dice += len(g.Dice)
			i++
		}
	}
	if t.Status == Over && x.Seed == "" {
		return nil, nil, bad(-1, "the tournament is over, but the export does not reveal its seed")
	}
	return v, t, nil
}

// verifyGames checks that the export holds the games of the log's
// pairings, no other, and that each finished game's result is counted:
// the replay derived each result logged from its game.
func verifyGames(x *Export, games map[string]*adjudicator.Game, t *Tournament) error {
	for _, gx := range x.Games {
		if _, p, _ := t.Find(gx.ID); p == nil {
			return bad(-1, "game %s is in the export but in no pairing of the log", gx.ID)
		} else if games[gx.ID].Status == adjudicator.Finished && !p.Done {
			return bad(-1, "game %s ended %q, and no result of the tournament's log says so", gx.ID, gx.Result)
		}
	}
	for _, r := range t.Rounds {
		for _, p := range r.Pairings {
			if p.Game != "" && games[p.Game] == nil {
				return bad(-1, "game %s of the log is missing from the export", p.Game)
			}
		}
	}
	return nil
}

// endOfGame is the end a verified game counts for in its tournament, as
// the referee enters it (End).
func endOfGame(g *adjudicator.Game, p *Pairing, how string) (GameEnd, error) {
	if g.Status != adjudicator.Finished {
		return GameEnd{}, fmt.Errorf("the log has a result for game %s, which its export shows %s", g.ID, g.Status)
	}
	s, err := g.Rules()
	if err != nil {
		return GameEnd{}, err
	}
	return End(g.Result, g.State.VP, p.Give, &s.Victory, how), nil
}

// count writes a pairing's points and margins, for a discrepancy.
func (t *Tournament) count(p *Pairing, points [2]float64, margin [2]int) string {
	return fmt.Sprintf("%s %g (margin %+d), %s %g (margin %+d)", t.Entrants[p.A].Name, points[0], margin[0], t.Entrants[p.B].Name, points[1], margin[1])
}

// replayBid replays a bid revealed in the log, with its salt as revealed.
func (t *Tournament) replayBid(i int, b Bid, now time.Time) ([]Record, error) {
	r, k, err := t.biddable(i, now)
	if err != nil {
		return nil, err
	}
	return t.takeBid(r, k, i, b, now)
}

// revealed finds the bid a bid record sealed: revealed in the sides record
// of its pairing, and matching the hash. It reports false when the log has
// no sides record for the pairing: the bids were still open when the
// export was taken.
func revealed(id string, rest []Record, r Record) (Bid, bool, error) {
	for _, q := range rest {
		if q.Kind == KindSides && q.Round == r.Round && q.Pairing == r.Pairing {
			for _, b := range q.Bids {
				if b != nil && bidHash(id, r.Round, r.Player-1, *b) == r.BidHash {
					return *b, true, nil
				}
			}
			return Bid{}, false, fmt.Errorf("the sealed bid does not match any bid revealed for pairing %d of round %d", r.Pairing, r.Round)
		}
	}
	return Bid{}, false, nil
}

// endOf is the game's end a result record tells, for the replay of the
// log without its games (VerifyLog).
func endOf(p *Pairing, r Record) GameEnd {
	g := p.Of(p.German)
	how, result, _ := strings.Cut(r.Text, ": ")
	e := GameEnd{VP: r.Margin[g], How: how, Result: result}
	switch {
	case r.Points[g] > r.Points[1-g]:
		e.Winner = rules.German
	case r.Points[g] < r.Points[1-g]:
		e.Winner = rules.Allied
	case r.Points[g] == 0:
		e.BothLose = true
	}
	return e
}
