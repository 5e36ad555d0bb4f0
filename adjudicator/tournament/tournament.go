// Package tournament is a tournament's logic, apart from any store or door:
// the tournament file, pairing (round robin, Swiss, single elimination),
// the side rules (alternate, random by the tournament's dice, sealed bids),
// the standings with their tie-breaks, the ratings (Glicko-2) and the
// tournament's hash-chained log, which lets anyone check every side
// decision. docs/tournaments.md describes it for directors and players.
//
// A Tournament is plain data, kept as JSON by the store; its methods change
// it and append the change's records to its log.
package tournament

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	netmail "net/mail"
	"strings"
	"time"

	"titm/adjudicator"
	"titm/rules"
)

// The statuses of a tournament.
const (
	Running = "running"
	Over    = "finished"
)

// Tournament is one tournament: its settings, its players, the pairings of
// the rounds played and in play, and the head of its log.
type Tournament struct {
	ID string `json:"id"`
	Settings
	Entrants   []*Entrant `json:"entrants"`
	Status     string     `json:"status"`
	Paused     bool       `json:"paused,omitempty"`
	Created    time.Time  `json:"created"`
	Rounds     []*Round   `json:"round_list"`
	Commitment string     `json:"commitment"`     // hex SHA-256 of the secret seed
	Seed       string     `json:"seed,omitempty"` // revealed when the tournament is over
	Draws      uint64     `json:"draws"`          // draws taken from the dice stream
	Log        []Record   `json:"log"`
	Head       string     `json:"head"`
	// Replacements are the director's replacements of players, in the
	// order of the log: each round names who played it (PlayedBy). A
	// tournament kept before they were is given them from its log
	// (History).
	Replacements []Replacement `json:"replacements,omitempty"`
	// Salt is the salt of the log's commitments to the director's and the
	// players' addresses (adjudicator.AddressCommitment), kept here beside
	// the addresses and never in the log; "" for a tournament made before
	// logs committed to addresses, whose log holds them.
	Salt string `json:"address_salt,omitempty"`

	secret []byte
	logged []adjudicator.Roll // Verify without the seed: the dice as logged
}

// Entrant is one player of a tournament.
type Entrant struct {
	Name       string   `json:"name"`
	Address    string   `json:"address"`
	Commitment string   `json:"commitment,omitempty"` // to the address, as the log holds it
	TokenHash  string   `json:"token_hash"`
	Before     []string `json:"before,omitempty"` // addresses he replaced, oldest first
	Out        bool     `json:"out,omitempty"`    // knocked out (single elimination)
	Withdrawn  bool     `json:"withdrawn,omitempty"`
	Language   string   `json:"language,omitempty"` // of his mails, as the file chose it; "": his address's or the referee's
}

// Round is one round's pairings.
type Round struct {
	N        int        `json:"n"`
	Scenario string     `json:"scenario"`
	Pairings []*Pairing `json:"pairings"`
	BidsDue  time.Time  `json:"bids_due,omitzero"` // sealed bids only
}

// Pairing is two players of a round, or one with a bye (B = -1).
type Pairing struct {
	A      int    `json:"a"`              // an index into Entrants
	B      int    `json:"b"`              // the other, or -1 for a bye
	German int    `json:"german"`         // the index of the German player; -1 until decided
	Game   string `json:"game,omitempty"` // the game's id once made
	// Bids are the sealed bids of A and B (nil: none yet). They are kept
	// from the players until the sides are decided: when both are in, or
	// the bids close.
	Bids [2]*Bid `json:"bids"`
	// Sealed marks a bid that is in but not known here: in a tournament
	// to show (Public) until the bids are revealed, and in the replay of
	// an export taken while the bids were open, whose log holds only the
	// bid's hash.
	Sealed [2]bool `json:"sealed,omitzero"`
	// Give is the VP the German side gives the Allied side by the bids
	// (negative: the Allied gives the German), which adjusts the German VP
	// of the game's result.
	Give int `json:"give,omitempty"`
	// Points and Margin are A's and B's once the game is over.
	Points [2]float64 `json:"points"`
	Margin [2]int     `json:"margin"`
	How    string     `json:"how,omitempty"` // how it ended: "victory", "draw", "concession", "forfeit", "bye", ...
	Done   bool       `json:"done,omitempty"`
	// Advance is the player who goes on from a drawn game of a single
	// elimination: the better VP margin, else a die.
	Advance int `json:"advance,omitempty"`
	// Players are who played A's and B's places in the round (PlayedBy),
	// filled in by Public for a page or a command to show; the tournament
	// itself does not keep them.
	Players [2][]Hand `json:"players,omitzero"`
}

// Bye reports whether the pairing is a bye.
func (p *Pairing) Bye() bool { return p.B < 0 }

// Sided reports whether the pairing's sides are decided.
func (p *Pairing) Sided() bool { return p.German >= 0 }

// Of returns 0 when i is the pairing's A, 1 when B, -1 when neither.
func (p *Pairing) Of(i int) int {
	switch i {
	case p.A:
		return 0
	case p.B:
		return 1
	}
	return -1
}

// Opponent returns the other player of a pairing.
func (p *Pairing) Opponent(i int) int {
	if i == p.A {
		return p.B
	}
	return p.A
}

// SideOf returns the side player i plays in the pairing, once decided.
func (p *Pairing) SideOf(i int) rules.Side {
	switch {
	case !p.Sided():
		return ""
	case p.German == i:
		return rules.German
	}
	return rules.Allied
}

// Bid is a player's sealed bid: the VP he gives up to play Side.
type Bid struct {
	Side rules.Side `json:"side"`
	VP   int        `json:"vp"`
	Time time.Time  `json:"time"`
	// Salt goes into the bid's hash in the log: with two sides and a few
	// VP to choose from, anyone who reads the log could otherwise hash
	// every possible bid and find the sealed one. It is drawn from the
	// tournament's secret seed and revealed with the bid.
	Salt string `json:"salt,omitempty"`
}

// The kinds of a tournament's log record.
const (
	KindCreated     = "created"     // the settings and players; the commitment
	KindPaired      = "paired"      // a round's pairings
	KindBid         = "bid"         // a sealed bid came in: who bid, its hash
	KindSides       = "sides"       // a pairing's sides: the bids revealed, the dice
	KindGame        = "game"        // a pairing's game was made
	KindResult      = "result"      // a pairing's result entered the standings
	KindReplaced    = "replaced"    // a player was replaced by the director
	KindPaused      = "paused"      // by the director
	KindResumed     = "resumed"     // by the director
	KindAdjudicated = "adjudicated" // the director ended a stalled game
	KindWithdrawn   = "withdrawn"   // a player left, with nobody to take his place
	KindFinished    = "finished"    // the last round is over; the seed is revealed
)

// Record is one entry of a tournament's log, chained by hashes as a game's.
type Record struct {
	Seq     int       `json:"seq"`
	Kind    string    `json:"kind"`
	Time    time.Time `json:"time"`
	Round   int       `json:"round,omitempty"`
	Pairing int       `json:"pairing,omitempty"` // 1-based
	Player  int       `json:"player,omitempty"`  // 1-based: the player who bid, or who was replaced
	Name    string    `json:"name,omitempty"`    // replaced: the new player's name
	Address string    `json:"address,omitempty"` // replaced: his address, in a log from before commitments
	// AddressCommitment is, in a replaced record, the commitment to the
	// new player's address, which the record holds instead of it.
	AddressCommitment string `json:"address_commitment,omitempty"`
	Game              string `json:"game,omitempty"`
	Text              string `json:"text,omitempty"`
	// Old and Impulse are a replacement's, from version 1 of the log
	// (Settings.Version): the replaced player's name, and the impulse in
	// play of the game he takes over (Game) when he took it; Round is the
	// first round he plays.
	Old     string `json:"old,omitempty"`
	Impulse string `json:"impulse,omitempty"`

	Settings   *Settings          `json:"settings,omitempty"` // created
	Commitment string             `json:"commitment,omitempty"`
	Pairs      [][2]int           `json:"pairs,omitempty"`    // paired: A and B of each pairing (B -1: a bye)
	Bids       [2]*Bid            `json:"bids,omitzero"`      // sides, and the result of a pairing a withdrawal ended: its bids, revealed
	BidHash    string             `json:"bid_hash,omitempty"` // bid: SHA-256 of the bid's JSON, sealed
	Dice       []adjudicator.Roll `json:"dice,omitempty"`
	German     int                `json:"german,omitempty"`  // sides: the German player, 1-based
	Give       int                `json:"give,omitempty"`    // sides: VP the German side gives
	Points     [2]float64         `json:"points,omitzero"`   // result
	Margin     [2]int             `json:"margin,omitzero"`   // result
	Advance    int                `json:"advance,omitempty"` // result of a drawn knockout game: who goes on, 1-based
	Seed       string             `json:"seed,omitempty"`    // finished

	Prev string `json:"prev"`
	Hash string `json:"hash"`
}

// RecordHash returns the hash of a record: hex SHA-256 of its JSON with the
// hash empty.
func RecordHash(r Record) string {
	r.Hash = ""
	data, err := json.Marshal(r)
	if err != nil {
		// A Record is plain data; marshalling it cannot fail.
		panic("tournament: marshalling a record: " + err.Error())
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (t *Tournament) record(r Record) Record {
	r.Seq = len(t.Log)
	r.Prev = t.Head
	r.Time = r.Time.UTC().Truncate(time.Millisecond)
	r.Hash = RecordHash(r)
	t.Log = append(t.Log, r)
	t.Head = r.Hash
	return r
}

// New makes a tournament of settings s with the secret seed of its dice and
// the players' tokens (only their hashes are kept).
func New(id string, s *Settings, secret []byte, tokens []string, now time.Time) (*Tournament, error) {
	if len(secret) != adjudicator.SeedSize {
		return nil, fmt.Errorf("a tournament's secret seed is %d bytes, not %d", adjudicator.SeedSize, len(secret))
	}
	if len(tokens) != len(s.Players) {
		return nil, errors.New("one token per player is needed")
	}
	salt, err := adjudicator.NewAddressSalt()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(secret)
	// The log holds the settings with each address replaced by its
	// commitment; the tournament keeps both, and the salt.
	c := s.committed(salt)
	t := &Tournament{ID: id, Settings: *s, Status: Running, Created: now.UTC().Truncate(time.Millisecond),
		Commitment: hex.EncodeToString(sum[:]), Salt: salt, secret: append([]byte(nil), secret...)}
	t.DirectorCommitment = c.DirectorCommitment
	t.Players = make([]Entry, len(s.Players))
	for i, p := range s.Players {
		p.Commitment = c.Players[i].Commitment
		t.Players[i] = p
		t.Entrants = append(t.Entrants, &Entrant{Name: p.Name, Address: p.Address, Commitment: p.Commitment, Language: p.Language, TokenHash: adjudicator.HashToken(tokens[i])})
	}
	t.record(Record{Kind: KindCreated, Time: now, Settings: c, Commitment: t.Commitment})
	return t, nil
}

// Public returns a copy of the tournament to show: without its players'
// token hashes, without the sealed bids not yet revealed (only that each
// came in, as Pairing.Sealed), without the salt of its address
// commitments, and, as always, without the seed of its dice before it is
// over. A page or a command shows this, never the tournament itself.
func (t *Tournament) Public() *Tournament {
	c := *t
	c.secret, c.logged, c.Salt = nil, nil, ""
	c.Replacements = t.History()
	c.Entrants = nil
	for _, e := range t.Entrants {
		x := *e
		x.TokenHash = ""
		c.Entrants = append(c.Entrants, &x)
	}
	// The rounds are copied down to the pairings, so that hiding a bid
	// leaves the tournament itself as it is.
	c.Rounds = nil
	for _, r := range t.Rounds {
		x := *r
		x.Pairings = nil
		for _, p := range r.Pairings {
			q := *p
			q.Players[0] = c.PlayedBy(p.A, r.N)
			if !p.Bye() {
				q.Players[1] = c.PlayedBy(p.B, r.N)
			}
			if !q.Sided() && !q.Done {
				// The bids are revealed with the sides, as the log's sides
				// record reveals them (or the result of a pairing a
				// withdrawal ended); until then the bid is sealed.
				for j, b := range q.Bids {
					if b != nil {
						q.Bids[j], q.Sealed[j] = nil, true
					}
				}
			}
			x.Pairings = append(x.Pairings, &q)
		}
		c.Rounds = append(c.Rounds, &x)
	}
	return &c
}

// Secret returns the tournament's secret seed, for the store to keep apart.
func (t *Tournament) Secret() []byte { return append([]byte(nil), t.secret...) }

// SetSecret gives a tournament loaded from the store its seed back.
func (t *Tournament) SetSecret(secret []byte) error {
	sum := sha256.Sum256(secret)
	if hex.EncodeToString(sum[:]) != t.Commitment {
		return fmt.Errorf("tournament %s: the secret seed does not match the commitment", t.ID)
	}
	t.secret = append([]byte(nil), secret...)
	return nil
}

// Player returns the index of the entrant with the address, or -1.
func (t *Tournament) Player(addr string) int {
	for i, e := range t.Entrants {
		if e.Address == addr {
			return i
		}
	}
	return -1
}

// Authentic reports whether token is player i's.
func (t *Tournament) Authentic(i int, token string) bool {
	return token != "" && adjudicator.HashToken(token) == t.Entrants[i].TokenHash
}

// Withdraw takes player i out of the rounds to come: a player who drops
// out with nobody to take his place. His game in play, if any, is the
// referee's to end as his forfeit. From version 2 of the log, a pairing of
// his in the round in play whose game is not made yet (its sealed bids
// still open) gets none: it ends here as his forfeit, a win for his
// opponent with no VP margin, as a forfeited game counts, and its bids
// close, revealed in its result. It returns the records: the withdrawal,
// then each such result (and the end of the tournament, when it was the
// last pairing).
func (t *Tournament) Withdraw(i int, reason string, now time.Time) ([]Record, error) {
	switch {
	case i < 0 || i >= len(t.Entrants):
		return nil, rules.M("no player %d", i+1).Err()
	case t.Entrants[i].Withdrawn:
		return nil, rules.M("%s has withdrawn already", t.Entrants[i].Name).Err()
	case t.Status == Over:
		return nil, rules.M("tournament %s is over", t.ID).Err()
	}
	t.Entrants[i].Withdrawn = true
	out := []Record{t.record(Record{Kind: KindWithdrawn, Time: now, Player: i + 1, Text: reason})}
	r := t.Current()
	if t.Version < 2 || r == nil {
		// A log of before replays as it was written: the pairing's bids
		// went on, and its game was made.
		return out, nil
	}
	for k, p := range r.Pairings {
		if p.Of(i) < 0 || p.Bye() || p.Done || p.Game != "" {
			continue
		}
		w := 1 - p.Of(i)
		p.Points, p.Margin = [2]float64{}, [2]int{}
		p.Points[w] = 1
		p.How, p.Done = "forfeit", true
		// The bids close with it: those in are revealed, as a sides
		// record reveals them, so that their seals are checked.
		out = append(out, t.record(Record{Kind: KindResult, Time: now, Round: r.N, Pairing: k + 1,
			Text: fmt.Sprintf("forfeit: %s withdrew before his game was made", t.Entrants[i].Name), Points: p.Points, Bids: p.Bids}))
		out = append(out, t.roundOver(r, now)...)
	}
	return out, nil
}

// Unmade reports whether the pairing ended without a game: its player
// withdrew before it was made (Withdraw). A bye is none.
func (p *Pairing) Unmade() bool { return p.Done && !p.Bye() && p.Game == "" }

// at returns pairing k (1-based) of round n (1-based), or nils.
func (t *Tournament) at(n, k int) (*Round, *Pairing, int) {
	if n < 1 || n > len(t.Rounds) || k < 1 || k > len(t.Rounds[n-1].Pairings) {
		return nil, nil, -1
	}
	return t.Rounds[n-1], t.Rounds[n-1].Pairings[k-1], k - 1
}

// GameMade records the game made for pairing k (1-based) of round n.
func (t *Tournament) GameMade(n, k int, game string, now time.Time) Record {
	_, p, _ := t.at(n, k)
	p.Game = game
	return t.record(Record{Kind: KindGame, Time: now, Round: n, Pairing: k, Game: game})
}

// Adjudicate records the director's decision on a stalled game, before
// its result.
func (t *Tournament) Adjudicate(game, decision string, now time.Time) (Record, error) {
	r, p, k := t.Find(game)
	if p == nil || p.Done {
		return Record{}, rules.M("game %s is no game in play of tournament %s", game, t.ID).Err()
	}
	return t.record(Record{Kind: KindAdjudicated, Time: now, Round: r.N, Pairing: k + 1, Game: game, Text: decision}), nil
}

// Current returns the round in play, or nil before the first.
func (t *Tournament) Current() *Round {
	if len(t.Rounds) == 0 {
		return nil
	}
	return t.Rounds[len(t.Rounds)-1]
}

// Find returns the round and pairing of a game, or nils.
func (t *Tournament) Find(game string) (*Round, *Pairing, int) {
	for _, r := range t.Rounds {
		for k, p := range r.Pairings {
			if p.Game != "" && p.Game == game {
				return r, p, k
			}
		}
	}
	return nil, nil, -1
}

// DiceKey is the key of a tournament's dice stream:
//
//	key = HMAC-SHA256(seed, "titm tournament dice v1" || lp(id))
//
// with lp as for a game's key (docs/verify.md).
func DiceKey(seed []byte, id string) []byte {
	m := hmac.New(sha256.New, seed)
	m.Write([]byte("titm tournament dice v1"))
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(id)))
	m.Write(n[:])
	m.Write([]byte(id))
	return m.Sum(nil)
}

// roll rolls one die of the tournament's stream.
func (t *Tournament) roll(purpose string) (adjudicator.Roll, error) {
	if t.secret == nil {
		if len(t.logged) == 0 {
			return adjudicator.Roll{}, fmt.Errorf("a die is needed for %s, and the log has none", purpose)
		}
		r := t.logged[0]
		t.logged = t.logged[1:]
		t.Draws = r.Draw + 1
		return r, nil
	}
	s := adjudicator.NewStreamAt(DiceKey(t.secret, t.ID), t.Draws)
	if _, err := s.Roll(purpose); err != nil {
		return adjudicator.Roll{}, err
	}
	t.Draws = s.Drawn()
	return s.Rolls[0], nil
}

// Pause stops the tournament: no round is paired and no game made until
// Resume. The games in play go on; the director pauses them one by one.
func (t *Tournament) Pause(reason string, now time.Time) (Record, error) {
	if t.Status == Over {
		return Record{}, rules.M("tournament %s is over", t.ID).Err()
	}
	if t.Paused {
		return Record{}, rules.M("tournament %s is paused already", t.ID).Err()
	}
	t.Paused = true
	return t.record(Record{Kind: KindPaused, Time: now, Text: reason}), nil
}

// Resume starts a paused tournament again.
func (t *Tournament) Resume(reason string, now time.Time) (Record, error) {
	if !t.Paused {
		return Record{}, rules.M("tournament %s is not paused", t.ID).Err()
	}
	t.Paused = false
	return t.record(Record{Kind: KindResumed, Time: now, Text: reason}), nil
}

// Replacement is the director's replacement of a player: an event of the
// tournament's log (KindReplaced), kept so that every round names who
// played it, and the ratings, which go by the games' addresses, agree
// with the record.
type Replacement struct {
	Player     int    `json:"player"` // the place taken: an index into Entrants
	Old        string `json:"old"`    // the replaced player's name
	OldAddress string `json:"old_address"`
	New        string `json:"new"`
	Address    string `json:"address"`
	// Round is the first round the new player plays: the round in play
	// when his place has a game of it not over, else the next.
	Round int `json:"round"`
	// Game is the game in play he took over, where it stood; Impulse the
	// impulse in play when he took it over (the position he plays from),
	// "" when none had been played (the game is wholly his).
	Game    string    `json:"game,omitempty"`
	Impulse string    `json:"impulse,omitempty"`
	Reason  string    `json:"reason"`
	Time    time.Time `json:"time"`
}

// History returns the replacements of players: those the tournament
// keeps, or, for a tournament kept before it kept them, those its log
// tells. A log of version 0 does not say whether a game taken over had
// begun: its replacements name the round, and the game, but no impulse.
func (t *Tournament) History() []Replacement {
	if len(t.Replacements) > 0 {
		return t.Replacements
	}
	type at struct{ round, pairing int }
	var (
		out          []Replacement
		names, addrs []string
		pairs        [][2]int
		round        int
		done         = map[at]bool{}
		games        = map[at]string{}
	)
	// A log that commits to addresses holds none: they are those the
	// tournament keeps, found by their commitments.
	committed := map[string]string{}
	if t.Salt != "" {
		for _, e := range t.Entrants {
			for _, a := range append([]string{e.Address}, e.Before...) {
				committed[adjudicator.AddressCommitment(t.Salt, a)] = a
			}
		}
	}
	for _, r := range t.Log {
		switch r.Kind {
		case KindCreated:
			if r.Settings == nil {
				return nil
			}
			for _, p := range r.Settings.Players {
				names, addrs = append(names, p.Name), append(addrs, cmp.Or(p.Address, committed[p.Commitment]))
			}
		case KindPaired:
			round, pairs = r.Round, r.Pairs
		case KindGame:
			games[at{r.Round, r.Pairing}] = r.Game
		case KindResult:
			done[at{r.Round, r.Pairing}] = true
		case KindReplaced:
			i := r.Player - 1
			if i < 0 || i >= len(names) {
				return nil
			}
			rp := Replacement{Player: i, Old: names[i], OldAddress: addrs[i], New: r.Name, Address: cmp.Or(r.Address, committed[r.AddressCommitment]),
				Round: round + 1, Reason: r.Text, Time: r.Time}
			if r.Round > 0 {
				// Version 1 says it.
				rp.Round, rp.Game, rp.Impulse = r.Round, r.Game, r.Impulse
			} else {
				for k, p := range pairs {
					if (p[0] == i || p[1] == i) && !done[at{round, k + 1}] {
						rp.Round, rp.Game = round, games[at{round, k + 1}]
					}
				}
			}
			names[i], addrs[i] = r.Name, rp.Address
			out = append(out, rp)
		}
	}
	return out
}

// Hand is one who played a place of a tournament in a round: his name and
// address, and, for one who took over the round's game in play, the
// impulse in play when he took it over.
type Hand struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	From    string `json:"from,omitempty"` // an impulse: he took over the game there
}

// PlayedBy returns who played place i in round n, in order: the one who
// held it then, followed, where a replacement took over the round's game
// in play, by each who took it over (Hand.From). The last of them played
// the game to its end, and the ratings credit him with it.
func (t *Tournament) PlayedBy(i, n int) []Hand {
	e := t.Entrants[i]
	var out []Hand
	for _, r := range t.History() {
		if r.Player != i {
			continue
		}
		if out == nil {
			out = []Hand{{Name: r.Old, Address: r.OldAddress}}
		}
		switch {
		case r.Round < n || r.Round == n && r.Impulse == "":
			out = []Hand{{Name: r.New, Address: r.Address}}
		case r.Round == n:
			out = append(out, Hand{Name: r.New, Address: r.Address, From: r.Impulse})
		}
	}
	if out == nil {
		out = []Hand{{Name: e.Name, Address: e.Address}}
	}
	return out
}

// NameIn names who played place i in round n, in English: "Bert Lamm",
// or "Bert Lamm, then Hanna Ries from G17-1" where a replacement took
// over the round's game.
func (t *Tournament) NameIn(i, n int) string {
	var b strings.Builder
	for k, h := range t.PlayedBy(i, n) {
		if k > 0 {
			fmt.Fprintf(&b, ", then %s from %s", h.Name, h.From)
			continue
		}
		b.WriteString(h.Name)
	}
	return b.String()
}

// Replace gives player i's place to a new address and token, for a player
// who drops out: the games go on with the new player. The address is a
// bare mail address, as the file's are (Parse); the director's is refused,
// as the file refuses it: the director does not play. impulse is the
// impulse in play of his place's game in play, "" when it has none or
// none of its impulses was played; the round he begins with and that game
// are the tournament's to know (Replacement).
func (t *Tournament) Replace(i int, name, addr, token, reason, impulse string, now time.Time) (Record, error) {
	return t.replace(i, name, addr, "", token, reason, impulse, now)
}

// replace is Replace. The replay of a public export, which has no address,
// gives addr "" and the commitment logged: the checks that need the
// address are made on the commitments, which are equal for equal
// addresses under the log's one salt.
func (t *Tournament) replace(i int, name, addr, commitment, token, reason, impulse string, now time.Time) (Record, error) {
	if i < 0 || i >= len(t.Entrants) {
		return Record{}, rules.M("no player %d", i+1).Err()
	}
	commitment, err := t.newPlayer(addr, commitment)
	if err != nil {
		return Record{}, err
	}
	e := t.Entrants[i]
	rp := Replacement{Player: i, Old: e.Name, OldAddress: e.Address, Address: addr, Round: len(t.Rounds) + 1, Reason: reason, Time: now.UTC().Truncate(time.Millisecond)}
	if c := t.Current(); c != nil {
		for _, p := range c.Pairings {
			if p.Of(i) >= 0 && !p.Done {
				// The round in play is his: its game, if made, goes on
				// with him where it stands.
				rp.Round, rp.Game = c.N, p.Game
				if p.Game != "" {
					rp.Impulse = impulse
				}
			}
		}
	}
	e.Before = append(e.Before, e.Address)
	e.Address, e.TokenHash = addr, adjudicator.HashToken(token)
	// The language the file chose was his predecessor's: the new player
	// reads his address's, or the referee's.
	e.Language = ""
	if name != "" {
		e.Name = name
	}
	rp.New = e.Name
	t.Replacements = append(t.History(), rp)
	rec := Record{Kind: KindReplaced, Time: now, Player: i + 1, Name: e.Name, Address: addr, Text: reason}
	if t.Version >= 1 {
		rec.Old, rec.Round, rec.Game, rec.Impulse = rp.Old, rp.Round, rp.Game, rp.Impulse
	}
	if t.Committed() {
		e.Commitment = commitment
		rec.Address, rec.AddressCommitment = "", commitment
	}
	return t.record(rec), nil
}

// newPlayer checks the address of a new player, or with none (the replay
// of a public export) its commitment: a mail address, not the director's,
// nor one that plays already. It returns the commitment to it, if the log
// commits to addresses.
func (t *Tournament) newPlayer(addr, commitment string) (string, error) {
	if addr != "" || !t.Committed() {
		if a, err := netmail.ParseAddress(addr); err != nil || a.Name != "" || a.Address != addr {
			return "", rules.M("%q is not a mail address", addr).Err()
		}
		if t.Committed() {
			commitment = adjudicator.AddressCommitment(t.Salt, addr)
		}
	}
	shown := cmp.Or(addr, "the address committed to as "+commitment)
	switch {
	case strings.EqualFold(addr, t.Director) && !t.Committed(), t.Committed() && commitment == t.DirectorCommitment:
		return "", rules.M("%s is the director's address: the director does not play", shown).Err()
	case t.Player(addr) >= 0 && !t.Committed(), t.Committed() && t.committedPlayer(commitment) >= 0:
		return "", rules.M("%s plays in tournament %s already", shown, t.ID).Err()
	}
	return commitment, nil
}

// committedPlayer returns the index of the entrant whose address has the
// commitment, or -1.
func (t *Tournament) committedPlayer(commitment string) int {
	for i, e := range t.Entrants {
		if e.Commitment == commitment {
			return i
		}
	}
	return -1
}
