package tournament

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
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

// Discrepancy is the first difference Verify found: the record (Seq, -1
// for the export's own fields), the field by its JSON name where one field
// differs (`pairs[1][0]`, `bids[0].vp`; the export's: `head`), and what.
type Discrepancy struct {
	Seq   int
	Field string
	// Act, when not 0, is the record of the act that made the record Seq
	// with it (a bid, and the sides record its bid decides): which of the
	// two was changed, the log cannot tell.
	Act  int
	What string
	// Game is the game whose own export failed, when one did (Field
	// "games"), and Err what adjudicator.Verify found wrong in it: a
	// verifier that words its verdict names the game's record, as it
	// does for a game alone.
	Game string
	Err  error
}

// Unwrap returns what the game's verification found, if a game's failed.
func (d *Discrepancy) Unwrap() error { return d.Err }

func (d *Discrepancy) Error() string {
	switch {
	case d.Seq < 0:
		return d.What
	case d.Act != 0 && d.Act != d.Seq:
		return fmt.Sprintf("record %d (made with record %d): %s", d.Seq, d.Act, d.What)
	}
	return fmt.Sprintf("record %d: %s", d.Seq, d.What)
}

// Verify checks a tournament's export: every hash of its chain; the seed
// against the commitment; each game's export (adjudicator.Verify); the
// whole log replayed from its first record, each act giving again exactly
// the records logged, compared field by field (so every pairing, every
// side decision from the revealed bids and every die is checked), with
// each result derived from its game as the referee derives it (End): the
// game's result, its German VP less the bids' and the scenario's VP
// levels; each sealed bid against the hash logged when it came, where the
// sides record reveals it; the times of the log in order. A bid not
// revealed yet, in the export of a running tournament, is checked only for
// having come in when it could. Verify replays on a copy of x and never
// changes x.
func Verify(x *Export) (*Verified, error) {
	// The games are verified by adjudicator.Verify, which copies each and
	// changes none: only the tournament's own part is copied here.
	own := *x
	own.Games = nil
	c, err := adjudicator.Clone(&own)
	if err != nil {
		return nil, err
	}
	c.Games = x.Games
	x = c
	games := map[string]*adjudicator.Game{}
	var gv Verified
	for _, gx := range x.Games {
		if gx == nil {
			return nil, bad(-1, "games", "the export has an empty game")
		}
		if games[gx.ID] != nil {
			return nil, bad(-1, "games", "game %s is in the export twice", gx.ID)
		}
		if gx.Format != adjudicator.ExportFormat && gx.Format != adjudicator.ExportFormatV1 {
			return nil, bad(-1, "games", "game %s's export is of format %q, not %q", gx.ID, gx.Format, adjudicator.ExportFormat)
		}
		r, err := adjudicator.Verify(gx)
		if err != nil {
			return nil, &Discrepancy{Seq: -1, Field: "games", What: fmt.Sprintf("game %s: %v", gx.ID, err), Game: gx.ID, Err: err}
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
		return nil, bad(-1, "addresses", "the export gives the addresses of the tournament's log but not of its games', or the reverse: a full export gives all, a public one none")
	}
	v.Games, v.Impulses, v.Dice = gv.Games, gv.Impulses, v.Dice+gv.Dice
	v.Committed += gv.Committed
	v.Addresses += gv.Addresses
	return v, verifyGames(x, games, t)
}

// VerifyLog checks the tournament's log alone, as Verify does, without its
// games: each result is taken as its record tells it. It replays on a copy
// of x and never changes x.
func VerifyLog(x *Export) (*Verified, error) {
	x, err := adjudicator.Clone(x)
	if err != nil {
		return nil, err
	}
	v, _, err := verifyLog(x, nil)
	return v, err
}

func bad(seq int, field, format string, args ...any) error {
	return &Discrepancy{Seq: seq, Field: field, What: fmt.Sprintf(format, args...)}
}

// verifyLog replays the log of x, a copy the replay may change. With games
// (the verified games of the export, by id) each result is derived from
// its game; with nil, from its record.
func verifyLog(x *Export, games map[string]*adjudicator.Game) (*Verified, *Tournament, error) {
	if err := checkChain(x); err != nil {
		return nil, nil, err
	}
	rp, err := startReplay(x, games)
	if err != nil {
		return nil, nil, err
	}
	for i := 1; i < len(x.Records); {
		if i, err = rp.step(i); err != nil {
			return nil, nil, err
		}
	}
	if rp.t.Status == Over && x.Seed == "" {
		return nil, nil, bad(-1, "seed", "the tournament is over, but the export does not reveal its seed")
	}
	if err := checkGivenAddresses(x); err != nil {
		return nil, nil, err
	}
	return rp.v, rp.t, nil
}

// checkChain checks that the records of x are chained by their hashes, in
// time order, up to the export's head.
func checkChain(x *Export) error {
	if len(x.Records) == 0 || x.Records[0].Kind != KindCreated || x.Records[0].Settings == nil {
		return bad(0, "kind", "the log does not begin with the tournament's creation")
	}
	prev := ""
	for i, r := range x.Records {
		if r.Prev != prev {
			return bad(i, "prev", "its prev %s is not the hash of the record before, %s", r.Prev, prev)
		}
		if h := RecordHash(r); h != r.Hash {
			return bad(i, "hash", "its hash %s is not the hash of its content, %s", r.Hash, h)
		}
		if i > 0 && r.Time.Before(x.Records[i-1].Time) {
			return bad(i, "time", "its time %s is before the time of the record before it, %s",
				r.Time.Format(time.RFC3339Nano), x.Records[i-1].Time.Format(time.RFC3339Nano))
		}
		prev = r.Hash
	}
	if prev != x.Head {
		return bad(-1, "head", "the export's head %s is not the hash of its last record, %s", x.Head, prev)
	}
	return nil
}

// A replay is the tournament made again from its log, record by record.
type replay struct {
	x     *Export
	games map[string]*adjudicator.Game // nil: results are taken from their records
	// logs are the games' own logs, by id, for what the tournament's log
	// says of them: when each was made and ended, and why the director
	// ended it.
	logs map[string][]adjudicator.Record
	// adjudicated names the games the director's decision ended: it names
	// how its game ended, as the referee's act does (TournamentAdjudicate).
	adjudicated map[string]bool
	t           *Tournament
	v           *Verified
}

// startReplay makes the tournament again from its first record, as New
// made it; the settings are a copy, so that nothing the replay does
// changes the record it is compared with.
func startReplay(x *Export, games map[string]*adjudicator.Game) (*replay, error) {
	c := x.Records[0]
	if c.Commitment != x.Commitment {
		return nil, bad(0, "commitment", "the commitment %s is not the export's, %s", c.Commitment, x.Commitment)
	}
	settings, err := adjudicator.Clone(c.Settings)
	if err != nil {
		return nil, err
	}
	if err := checkSettings(settings); err != nil {
		return nil, err
	}
	v := &Verified{Records: len(x.Records)}
	t := &Tournament{ID: x.ID, Settings: *settings, Status: Running, Created: c.Time, Commitment: c.Commitment, Salt: x.Salt}
	t.Players = append([]Entry(nil), settings.Players...)
	if err := checkCommitments(x, t, v); err != nil {
		return nil, err
	}
	for _, p := range t.Players {
		t.Entrants = append(t.Entrants, &Entrant{Name: p.Name, Address: p.Address, Commitment: p.Commitment, Language: p.Language})
	}
	if x.Seed != "" {
		secret, err := hex.DecodeString(x.Seed)
		if err != nil {
			return nil, bad(-1, "seed", "the revealed seed is not hex")
		}
		if err := t.SetSecret(secret); err != nil {
			return nil, bad(-1, "seed", "%v", err)
		}
		v.DiceChecked = true
	}
	made := t.record(Record{Kind: KindCreated, Time: c.Time, Settings: settings, Commitment: t.Commitment})
	if err := compare(c, made); err != nil {
		return nil, err
	}
	rp := &replay{x: x, games: games, logs: map[string][]adjudicator.Record{}, adjudicated: map[string]bool{}, t: t, v: v}
	if games != nil {
		for _, gx := range x.Games {
			rp.logs[gx.ID] = gx.Records
		}
	}
	return rp, nil
}

// step replays the act of record i and compares the records it makes
// with the log's; it returns the index of the next act's record.
func (rp *replay) step(i int) (int, error) {
	x := rp.x
	if !rp.v.DiceChecked {
		// The dice are taken as logged, from this record on.
		rp.t.logged = nil
		for _, q := range x.Records[i:] {
			rp.t.logged = append(rp.t.logged, q.Dice...)
		}
	}
	got, err := rp.act(i, x.Records[i])
	if err != nil {
		return 0, err
	}
	if len(got) == 0 {
		return 0, bad(i, "", "replaying it makes no record")
	}
	act := i
	for _, g := range got {
		if i >= len(x.Records) {
			return 0, &Discrepancy{Seq: g.Seq, Act: act, What: fmt.Sprintf("the replay makes a %s record the log does not have", g.Kind)}
		}
		if g.Kind == KindFinished && x.Seed == "" {
			return 0, bad(g.Seq, "seed", "the tournament is over, but the export does not reveal its seed")
		}
		if err := compare(x.Records[i], g); err != nil {
			err.(*Discrepancy).Act = act
			return 0, err
		}
		if g.Kind == KindSides {
			rp.v.Sides++
		}
		rp.v.Dice += len(g.Dice)
		i++
	}
	return i, nil
}

// act replays the act record r, at index i, logs.
func (rp *replay) act(i int, r Record) ([]Record, error) {
	t := rp.t
	switch r.Kind {
	case KindPaired:
		return replayed(i)(t.Pair(r.Time))
	case KindBid:
		return replayed(i)(t.replayBid(i, r, rp.x.Records))
	case KindSides:
		return replayed(i)(t.CloseBids(r.Time))
	case KindGame:
		return rp.game(i, r)
	case KindResult:
		return rp.result(i, r)
	case KindReplaced:
		return rp.replaced(i, r)
	case KindWithdrawn:
		if rp.games != nil {
			if err := t.checkWithdrawn(i, r, rp.logs); err != nil {
				return nil, err
			}
		}
		return replayed(i)(t.Withdraw(r.Player-1, r.Text, r.Time))
	case KindPaused:
		return replayed(i)(one(t.Pause(r.Text, r.Time)))
	case KindResumed:
		return replayed(i)(one(t.Resume(r.Text, r.Time)))
	case KindAdjudicated:
		if rp.games != nil {
			if err := checkAdjudicated(i, r, rp.logs[r.Game]); err != nil {
				return nil, err
			}
		}
		rp.adjudicated[r.Game] = true
		return replayed(i)(one(t.Adjudicate(r.Game, r.Text, r.Time)))
	}
	return nil, bad(i, "kind", "a record of kind %q cannot come here", r.Kind)
}

// one makes a list of the one record an act makes.
func one(r Record, err error) ([]Record, error) {
	if err != nil {
		return nil, err
	}
	return []Record{r}, nil
}

// replayed names record i in an error of the act that replays it, unless
// the error names its record already.
func replayed(i int) func([]Record, error) ([]Record, error) {
	return func(got []Record, err error) ([]Record, error) {
		if err == nil {
			return got, nil
		}
		if d := (*Discrepancy)(nil); errors.As(err, &d) {
			return nil, err
		}
		return nil, bad(i, "", "replaying it: %v", err)
	}
}

// game replays the making of a pairing's game, checked against the game
// itself when the export has it.
func (rp *replay) game(i int, r Record) ([]Record, error) {
	t := rp.t
	_, p, _ := t.at(r.Round, r.Pairing)
	if p == nil {
		return nil, bad(i, "pairing", "no pairing %d in round %d", r.Pairing, r.Round)
	}
	if p.Game != "" {
		return nil, bad(i, "game", "pairing %d of round %d has its game, %s, already", r.Pairing, r.Round, p.Game)
	}
	if rp.games != nil {
		if err := t.checkGame(i, rp.x.Records, p, rp.games[r.Game], rp.logs[r.Game]); err != nil {
			return nil, err
		}
	}
	got := []Record{t.GameMade(r.Round, r.Pairing, r.Game, r.Time)}
	if err := t.checkPlayers(p, rp.x, r); err != nil {
		return nil, err
	}
	return got, nil
}

// result replays a game's result: derived from the game when the export
// has it, else as the record tells it.
func (rp *replay) result(i int, r Record) ([]Record, error) {
	t := rp.t
	_, p, _ := t.at(r.Round, r.Pairing)
	if p == nil || !p.Sided() {
		return nil, bad(i, "pairing", "a result for pairing %d of round %d, which has no sides", r.Pairing, r.Round)
	}
	e := endOf(p, r)
	if rp.games != nil {
		var err error
		if e, err = rp.gameEnd(i, r, p); err != nil {
			return nil, err
		}
	}
	got, err := t.Result(r.Game, e, r.Time)
	if err == nil && rp.games != nil && (got[0].Points != r.Points || got[0].Margin != r.Margin) {
		return nil, bad(i, "points", "the log counts game %s as %s, but the game ended %q with %d German VP and %+d given by the bids, which counts as %s",
			r.Game, t.count(p, r.Points, r.Margin), e.Result, e.VP+p.Give, p.Give, t.count(p, got[0].Points, got[0].Margin))
	}
	return replayed(i)(got, err)
}

// gameEnd is how the game of result r ended, read from the game itself.
func (rp *replay) gameEnd(i int, r Record, p *Pairing) (GameEnd, error) {
	g := rp.games[r.Game]
	if g == nil {
		return GameEnd{}, bad(i, "game", "game %s of the log is missing from the export", r.Game)
	}
	how := ""
	if rp.adjudicated[r.Game] {
		how = "adjudicated"
	}
	e, err := endOfGame(g, p, how)
	if err != nil {
		return GameEnd{}, bad(i, "game", "%v", err)
	}
	// The referee enters a result as the game ends.
	if l := rp.logs[r.Game]; !r.Time.Equal(l[len(l)-1].Time) {
		return GameEnd{}, bad(i, "time", "the result of game %s is entered at %s, but the game ended at %s", r.Game,
			r.Time.Format(time.RFC3339Nano), l[len(l)-1].Time.Format(time.RFC3339Nano))
	}
	return e, nil
}

// replaced replays a replacement, checked against the games taken over
// when the export has them.
func (rp *replay) replaced(i int, r Record) ([]Record, error) {
	t := rp.t
	if rp.games != nil {
		if err := t.checkReplaced(i, rp.x.Records, rp.games); err != nil {
			return nil, err
		}
	}
	addr := r.Address
	if t.Committed() {
		addr = rp.x.Addresses[r.AddressCommitment]
	}
	return replayed(i)(one(t.replace(r.Player-1, r.Name, addr, r.AddressCommitment, "", r.Text, r.Impulse, r.Time)))
}

// compare names the first field, by its JSON name, where a logged record
// and the record the replay made of it differ: every field of a record is
// compared (adjudicator.FirstDifference), a field added to Record too.
func compare(logged, replayed Record) error {
	d := adjudicator.FirstDifference(logged, replayed)
	if d == nil {
		return nil
	}
	switch {
	case d.Field == "hash":
		return bad(replayed.Seq, d.Field, "its hash %s is not the hash of its content as replayed, %s", d.Logged, d.Replayed)
	case d.Replayed == "":
		return bad(replayed.Seq, d.Field, "the replay differs: %s is %s in the log, and the replay has none", d.Field, d.Logged)
	case d.Logged == "":
		return bad(replayed.Seq, d.Field, "the replay differs: the log has no %s, and the replay gives %s", d.Field, d.Replayed)
	}
	return bad(replayed.Seq, d.Field, "the replay differs: %s is %s in the log, but the replay gives %s", d.Field, d.Logged, d.Replayed)
}

// checkGame checks, at record seq of log, pairing p's game g, whose log
// is glog: the export has it, of the round's scenario, with the
// tournament's deadline, made at the time of the record, for a pairing
// whose sides are decided, between the pairing's players on their sides
// (or whoever the log says takes a place later: checkReplaced checks
// that).
func (t *Tournament) checkGame(seq int, log []Record, p *Pairing, g *adjudicator.Game, glog []adjudicator.Record) error {
	r := log[seq]
	rd, _, _ := t.at(r.Round, r.Pairing)
	switch {
	case g == nil || len(glog) == 0:
		return bad(seq, "game", "game %s of the log is missing from the export", r.Game)
	case !p.Sided():
		return bad(seq, "game", "game %s is made for pairing %d of round %d, whose sides are not decided", r.Game, r.Pairing, r.Round)
	case g.Scenario != rd.Scenario:
		return bad(seq, "game", "game %s is a game of %q, but round %d plays %q", r.Game, g.Scenario, r.Round, rd.Scenario)
	case g.Deadline != t.Settings.Deadline:
		return bad(seq, "game", "game %s gives %s an impulse, but the tournament %s", r.Game, g.Deadline, t.Settings.Deadline)
	case !glog[0].Time.Equal(r.Time):
		return bad(seq, "time", "game %s is made at %s, but the log has it at %s", r.Game, glog[0].Time.Format(time.RFC3339Nano), r.Time.Format(time.RFC3339Nano))
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		i := p.German
		if side == rules.Allied {
			i = p.Opponent(p.German)
		}
		if addr := g.Players[side].Address; !t.plays(i, addr) && !replacedLater(log, seq) {
			return bad(seq, "game", "game %s's %s player is %s, but the pairing's is %s <%s>", r.Game, side, addr, t.Entrants[i].Name, t.Entrants[i].Address)
		}
	}
	return nil
}

// replacedLater reports whether a record after record seq of the log
// brings a new address: a replacement, whose own check (checkReplaced)
// tells whether the games in play took it.
func replacedLater(log []Record, seq int) bool {
	for _, q := range log[seq+1:] {
		if q.Address != "" {
			return true
		}
	}
	return false
}

// checkReplaced checks, at a replacement (record seq of log), that the
// new player took over the replaced player's games in play: each game's
// side is his address, or that of whoever the log says replaces him later.
func (t *Tournament) checkReplaced(seq int, log []Record, games map[string]*adjudicator.Game) error {
	r := log[seq]
	i := r.Player - 1
	if i < 0 || i >= len(t.Entrants) {
		return bad(seq, "player", "no player %d", r.Player)
	}
	later := []string{r.Address}
	if t.Committed() {
		// A game's log commits to the players it was made for, and its
		// export gives those; a takeover is the tournament's record
		// alone (its address a commitment, checked against the export's
		// addresses where it gives them).
		later = append(later, t.Entrants[i].Address)
	}
	for _, q := range log[seq+1:] {
		if q.Kind == KindReplaced && q.Player == r.Player {
			later = append(later, q.Address)
		}
	}
	for _, rd := range t.Rounds {
		for _, p := range rd.Pairings {
			if p.Of(i) < 0 || p.Game == "" || p.Done || games[p.Game] == nil {
				continue
			}
			side := p.SideOf(i)
			if addr := games[p.Game].Players[side].Address; !slices.Contains(later, addr) {
				return bad(seq, "address", "%s takes the place of %s, in play in game %s, but that game's %s player is %s", cmp.Or(r.Address, r.Name), t.Entrants[i].Name, p.Game, side, addr)
			}
		}
	}
	return nil
}

// withdrewReason is the reason a game is ended with when its player
// withdraws from the tournament (the referee's TournamentWithdraw).
const withdrewReason = "the player withdrew from the tournament: "

// checkWithdrawn checks, at a withdrawal (record seq), that each game the
// player had in play was ended then as his forfeit, for his reason, and
// no other game for a withdrawal then.
func (t *Tournament) checkWithdrawn(seq int, r Record, logs map[string][]adjudicator.Record) error {
	i := r.Player - 1
	if i < 0 || i >= len(t.Entrants) {
		return bad(seq, "player", "no player %d", r.Player)
	}
	for _, rd := range t.Rounds {
		for _, p := range rd.Pairings {
			if p.Game == "" || p.Done {
				continue
			}
			var end *adjudicator.Record
			for k, g := range logs[p.Game] {
				if g.Kind == adjudicator.KindAdjudicated {
					end = &logs[p.Game][k]
				}
			}
			if p.Of(i) < 0 {
				// Another player's game, which his withdrawal must not
				// have ended.
				if end != nil && strings.HasPrefix(end.Reason, withdrewReason) && end.Time.Equal(r.Time) {
					return bad(seq, "player", "game %s was ended at this withdrawal as its %s player's forfeit, but %s withdraws, who does not play it", p.Game, end.Side, t.Entrants[i].Name)
				}
				continue
			}
			switch {
			case end == nil:
				return bad(seq, "player", "%s withdraws with game %s in play, which his withdrawal did not end", t.Entrants[i].Name, p.Game)
			case end.Side != p.SideOf(i) || end.Reason != withdrewReason+r.Text:
				return bad(seq, "player", "%s withdraws, and game %s is ended as the %s side's forfeit for %q", t.Entrants[i].Name, p.Game, end.Side, end.Reason)
			case !end.Time.Equal(r.Time):
				return bad(seq, "time", "%s withdraws at %s, and game %s is ended at %s", t.Entrants[i].Name, r.Time.Format(time.RFC3339Nano), p.Game, end.Time.Format(time.RFC3339Nano))
			}
		}
	}
	return nil
}

// checkAdjudicated checks the director's decision on a game (record seq)
// against the game's log: the side that forfeits (or a draw) and the
// reason, as the referee writes it ("german: 3 deadlines missed"), and
// its time.
func checkAdjudicated(seq int, r Record, glog []adjudicator.Record) error {
	for _, g := range glog {
		if g.Kind != adjudicator.KindAdjudicated {
			continue
		}
		decision := string(g.Side)
		if decision == "" {
			decision = "draw"
		}
		d, reason, _ := strings.Cut(r.Text, ": ")
		switch {
		case !strings.EqualFold(d, decision) || reason != g.Reason:
			return bad(seq, "text", "the decision is %q, but game %s was ended as %s: %s", r.Text, r.Game, decision, g.Reason)
		case !g.Time.Equal(r.Time):
			return bad(seq, "time", "the decision is at %s, but game %s was ended at %s", r.Time.Format(time.RFC3339Nano), r.Game, g.Time.Format(time.RFC3339Nano))
		}
		return nil
	}
	return bad(seq, "game", "the director ended game %s, whose log does not say so", r.Game)
}

// plays reports whether addr is, or was before a replacement, player i's.
func (t *Tournament) plays(i int, addr string) bool {
	e := t.Entrants[i]
	return addr == e.Address || slices.Contains(e.Before, addr)
}

// verifyGames checks that the export holds the games of the log's
// pairings, no other, and that each finished game's result is counted:
// the replay derived each result logged from its game.
func verifyGames(x *Export, games map[string]*adjudicator.Game, t *Tournament) error {
	for _, gx := range x.Games {
		if _, p, _ := t.Find(gx.ID); p == nil {
			return bad(-1, "games", "game %s is in the export but in no pairing of the log", gx.ID)
		} else if games[gx.ID].Status == adjudicator.Finished && !p.Done {
			return bad(-1, "games", "game %s ended %q, and no result of the tournament's log says so", gx.ID, gx.Result)
		}
	}
	for _, r := range t.Rounds {
		for _, p := range r.Pairings {
			if p.Game == "" {
				continue
			}
			g := games[p.Game]
			if g == nil {
				return bad(-1, "games", "game %s of the log is missing from the export", p.Game)
			}
			// The game is played by the pairing's players on the sides
			// the log decided, or by whoever took a place since.
			a, b := p.German, p.Opponent(p.German)
			if ga, gb := g.Players[rules.German].Address, g.Players[rules.Allied].Address; !t.plays(a, ga) || !t.plays(b, gb) {
				seq := -1
				for i, q := range x.Records {
					if q.Kind == KindGame && q.Game == g.ID {
						seq = i
					}
				}
				return bad(seq, "game", "game %s is played by %s (German) and %s (Allied), not by the pairing's %s (German) and %s (Allied)",
					g.ID, ga, gb, t.Entrants[a].Name, t.Entrants[b].Name)
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

// replayBid replays a bid record r, record at of the log. The bid is
// taken sealed, with the hash logged; where the log has the sides record of
// its pairing (or, for a pairing a withdrawal ended before its sides were
// decided, its result), the bid it reveals there is checked against that
// hash and taken, so that the sides are decided again from the bids as
// revealed. A revealed bid that is not the sealed one is the revealing
// record's discrepancy: the seal is only known to be broken where it is
// opened.
func (t *Tournament) replayBid(at int, r Record, log []Record) ([]Record, error) {
	i := r.Player - 1
	rd, k, err := t.biddable(i, r.Time)
	if err != nil {
		return nil, err
	}
	p := rd.Pairings[k]
	j := p.Of(i)
	p.Sealed[j] = true
	for qi := at + 1; qi < len(log); qi++ {
		// The sides record reveals the bid; where a withdrawal ended the
		// pairing before its sides were decided, its result does.
		q := log[qi]
		if q.Kind != KindSides && (q.Kind != KindResult || q.Game != "") || q.Round != rd.N || q.Pairing != k+1 {
			continue
		}
		b := q.Bids[j]
		field := fmt.Sprintf("bids[%d]", j)
		switch {
		case b == nil:
			return nil, bad(qi, field, "it reveals no bid of %s, whose bid record %d seals one", t.Entrants[i].Name, at)
		case t.secret != nil && b.Salt != t.bidSalt(rd.N, i):
			return nil, bad(qi, field+".salt", "the salt of %s's bid is %q, but the tournament's seed gives %q", t.Entrants[i].Name, b.Salt, t.bidSalt(rd.N, i))
		case bidHash(t.ID, rd.N, i, *b) != r.BidHash:
			return nil, bad(qi, field, "the bid it reveals for %s (%s) does not hash to the bid sealed in record %d", t.Entrants[i].Name, BidText(b), at)
		}
		c := *b
		p.Bids[j], p.Sealed[j] = &c, false
		break
	}
	if p.in(0) && p.in(1) && (p.Sealed[0] || p.Sealed[1]) {
		// Both bids are in: the sides record follows this one, and
		// would have revealed them.
		return nil, &Discrepancy{Seq: at + 1, Act: at, Field: "kind",
			What: fmt.Sprintf("the bids of pairing %d of round %d are both in with record %d, and the log never reveals them in the sides record that must follow it", k+1, rd.N, at)}
	}
	return t.bidLogged(rd, k, i, r.BidHash, r.Time)
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

// checkSettings checks what the replay relies on of the settings the log
// begins with, which a tournament file's Parse checked when they were
// made: a forged log's settings could otherwise stop the replay.
func checkSettings(s *Settings) error {
	switch {
	case len(s.Players) < 2:
		return bad(0, "settings.players", "the settings have %d players", len(s.Players))
	case s.Format != RoundRobin && s.Format != Swiss && s.Format != Elimination:
		return bad(0, "settings.format", "the format %q is none titm knows", s.Format)
	case s.Sides != SidesAlternate && s.Sides != SidesRandom && s.Sides != SidesBids:
		return bad(0, "settings.sides", "the side rule %q is none titm knows", s.Sides)
	case s.Version < 0 || s.Version > LogVersion:
		return bad(0, "settings.version", "the log's version is %d, and this titm knows versions up to %d", s.Version, LogVersion)
	case s.Rounds < 1:
		return bad(0, "settings.rounds", "the settings have %d rounds", s.Rounds)
	case len(s.Scenarios) != 1 && len(s.Scenarios) != s.Rounds:
		return bad(0, "settings.scenarios", "the settings name %d scenarios for %d rounds", len(s.Scenarios), s.Rounds)
	}
	return nil
}
