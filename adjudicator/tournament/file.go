package tournament

import (
	"fmt"
	netmail "net/mail"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/rules"
)

// The formats of a tournament.
const (
	RoundRobin  = "round-robin" // everyone plays everyone once
	Swiss       = "swiss"       // a fixed number of rounds, paired by score
	Elimination = "elimination" // single elimination: the loser of a game is out
)

// The side rules: how the two players of a pairing get their sides.
const (
	SidesAlternate = "alternate" // the one who played the German side less often takes it
	SidesRandom    = "random"    // a die of the tournament's stream
	SidesBids      = "bids"      // sealed bids of VP (BID german 3)
)

// The tie-breaks, applied in the order the file lists them after the points.
const (
	TieMargin     = "margin"       // the VP margin of a player's games, adjusted by bids
	TieHeadToHead = "head-to-head" // the points scored in games between the tied players
	TieBuchholz   = "buchholz"     // the sum of the opponents' points
)

// File is a tournament file as written by its director (TOML, described in
// docs/tournaments.md).
type File struct {
	Name          string   `toml:"name"`
	Director      string   `toml:"director"`
	Scenario      string   `toml:"scenario"`
	Scenarios     []string `toml:"scenarios"` // one per round, instead of scenario
	Format        string   `toml:"format"`
	Rounds        int      `toml:"rounds"` // Swiss only
	Deadline      string   `toml:"deadline"`
	MaxExtensions *int     `toml:"max_extensions"` // nil: the referee's
	ForfeitAfter  int      `toml:"forfeit_after"`  // missed deadlines in a game that lose it; 0: never
	RateUnplayed  bool     `toml:"rate_unplayed"`  // rate the games not played out on the board
	Sides         string   `toml:"sides"`
	BidDeadline   string   `toml:"bid_deadline"`
	TieBreaks     []string `toml:"tiebreaks"`
	Players       []struct {
		Name     string `toml:"name"`
		Address  string `toml:"address"`
		Language string `toml:"language"` // en, ja; "": his address's or the referee's
	} `toml:"player"`
}

// Problem is one problem of a tournament file, on its line (0: the whole
// file).
type Problem struct {
	Line int
	Msg  string
}

// Problems are all the problems of a tournament file; as an error, one a
// line, each with the file's name and its line.
type Problems struct {
	File string
	List []Problem
}

func (ps *Problems) Error() string {
	var b strings.Builder
	for i, p := range ps.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		if p.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s", ps.File, p.Line, p.Msg)
		} else {
			fmt.Fprintf(&b, "%s: %s", ps.File, p.Msg)
		}
	}
	return b.String()
}

// Settings are a tournament's rules, read and checked from its file.
type Settings struct {
	Name          string        `json:"name"`
	Director      string        `json:"director"`
	Scenarios     []string      `json:"scenarios"` // one, or one per round
	Format        string        `json:"format"`
	Rounds        int           `json:"rounds"` // every format's, worked out for round robin and elimination
	Deadline      time.Duration `json:"deadline"`
	MaxExtensions int           `json:"max_extensions"` // -1: the referee's setting
	ForfeitAfter  int           `json:"forfeit_after"`
	Sides         string        `json:"sides"`
	BidDeadline   time.Duration `json:"bid_deadline"`
	TieBreaks     []string      `json:"tiebreaks"`
	Players       []Entry       `json:"players"`
	// RateUnplayed puts the games not played out on the board (a forfeit,
	// a withdrawal, the director's decision) into the ratings, which
	// leave them out by default.
	RateUnplayed bool `json:"rate_unplayed,omitempty"`
	// Version is the version of the log's rules the tournament was made
	// with (LogVersion; 0 before there were versions). A replay follows
	// the version of its log, so that an older log replays as it was
	// written.
	Version int `json:"version,omitempty"`
	// DirectorCommitment is the commitment to the director's address
	// (adjudicator.AddressCommitment). The log's created record holds it
	// instead of the address, as it holds each player's Commitment
	// instead of his; a tournament made before holds the addresses.
	DirectorCommitment string `json:"director_commitment,omitempty"`
}

// LogVersion is the version of the log's rules of a new tournament:
//
//	0: the first
//	1: a replacement's record names the replaced player, the round he
//	   leaves from and the game and impulse taken over; a game not won
//	   by its victory conditions (a concession, a forfeit, the director's
//	   decision) counts no VP margin for its loser
//	2: a player who withdraws with a pairing of the round in play whose
//	   game is not made (its sealed bids open) gets no game: the pairing
//	   ends at his withdrawal as his forfeit, its result logged with the
//	   withdrawal, and he bids no more
const LogVersion = 2

// Entry is a player as the file names him.
type Entry struct {
	Name       string `json:"name"`
	Address    string `json:"address,omitempty"`
	Commitment string `json:"commitment,omitempty"` // to the address, in the log instead of it
	Language   string `json:"language,omitempty"`   // the language of his mails, if the file chose it
}

// committed returns the settings as the log's created record holds them:
// each address replaced by its commitment under salt.
func (s *Settings) committed(salt string) *Settings {
	c := *s
	c.Director, c.DirectorCommitment = "", adjudicator.AddressCommitment(salt, s.Director)
	c.Players = make([]Entry, len(s.Players))
	for i, p := range s.Players {
		p.Address, p.Commitment = "", adjudicator.AddressCommitment(salt, p.Address)
		c.Players[i] = p
	}
	return &c
}

// Committed reports whether the log commits to the addresses rather than
// holding them: a tournament made since logs do.
func (s *Settings) Committed() bool { return s.DirectorCommitment != "" }

// Scenario returns the scenario of round n (1-based).
func (s *Settings) Scenario(n int) string {
	if len(s.Scenarios) == 1 {
		return s.Scenarios[0]
	}
	return s.Scenarios[n-1]
}

// Parse reads and checks a tournament file. known reports whether a
// scenario name or file can be loaded (nil: any). Every problem is
// returned, each on its line, as *Problems.
func Parse(name string, data []byte, known func(string) error) (*Settings, error) {
	ps := &Problems{File: name}
	var f File
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		line, msg := rules.TOMLError(err)
		ps.List = append(ps.List, Problem{line, msg})
		return nil, ps
	}
	p := &fileParser{f: &f, ln: rules.NewTOMLLines(data), ps: ps}
	for _, k := range md.Undecoded() {
		p.add(p.ln.Line(k...), "unknown key %q (the keys are listed in docs/tournaments.md)", k.String())
	}
	s := &Settings{Name: strings.TrimSpace(f.Name), Format: f.Format, Rounds: f.Rounds, MaxExtensions: -1,
		ForfeitAfter: f.ForfeitAfter, Sides: f.Sides, TieBreaks: f.TieBreaks, RateUnplayed: f.RateUnplayed, Version: LogVersion}
	p.s = s
	p.heading()
	p.scenarios(known)
	p.players()
	p.rounds()
	p.timing()
	p.sides()
	p.tieBreaks()
	if len(ps.List) > 0 {
		return nil, ps
	}
	return s, nil
}

// A fileParser checks a decoded tournament file into its settings, part by
// part, each problem on its line.
type fileParser struct {
	f  *File
	s  *Settings
	ln *rules.TOMLLines
	ps *Problems
}

func (p *fileParser) add(line int, format string, args ...any) {
	p.ps.List = append(p.ps.List, Problem{line, fmt.Sprintf(format, args...)})
}

// top returns the line of the tournament's own key, else def.
func (p *fileParser) top(key string, def int) int {
	if l := p.ln.Line(key); l > 0 {
		return l
	}
	return def
}

// heading checks the tournament's name and director.
func (p *fileParser) heading() {
	if p.s.Name == "" {
		// A missing key is the whole file's problem, as a missing director
		// or scenario is; a player's name is not the tournament's.
		p.add(p.top("name", 0), "the tournament has no name: add name = \"...\"")
	}
	if a, err := netmail.ParseAddress(p.f.Director); err != nil {
		p.add(p.top("director", 0), "director = %q is not a mail address", p.f.Director)
	} else {
		p.s.Director = strings.ToLower(a.Address)
	}
}

// scenarios checks scenario or scenarios, and that each is known.
func (p *fileParser) scenarios(known func(string) error) {
	f, s := p.f, p.s
	switch {
	case f.Scenario != "" && len(f.Scenarios) > 0:
		p.add(p.top("scenarios", 0), "give scenario or scenarios, not both")
	case f.Scenario != "":
		s.Scenarios = []string{f.Scenario}
	case len(f.Scenarios) > 0:
		s.Scenarios = f.Scenarios
	default:
		p.add(0, "no scenario: add scenario = \"intro\", or scenarios = [...] with one per round")
	}
	if known == nil {
		return
	}
	key := "scenario"
	if len(f.Scenarios) > 0 {
		key = "scenarios"
	}
	for _, sc := range s.Scenarios {
		if err := known(sc); err != nil {
			msg, _, _ := strings.Cut(err.Error(), "\n")
			p.add(p.top(key, 0), "unknown scenario %q: %v", sc, msg)
		}
	}
}

// players checks each [[player]]: a name, an address, neither repeated
// nor the director's, and his language.
func (p *fileParser) players() {
	seen := map[string]int{}
	for i, fp := range p.f.Players {
		line := p.ln.Header("player", i)
		e := Entry{Name: strings.TrimSpace(fp.Name)}
		if e.Name == "" {
			p.add(line, "player %d has no name", i+1)
		}
		a, err := netmail.ParseAddress(fp.Address)
		if err != nil {
			p.add(line, "player %q: address %q is not a mail address", e.Name, fp.Address)
		} else {
			e.Address = strings.ToLower(a.Address)
		}
		for _, k := range []string{"name:" + strings.ToLower(e.Name), "address:" + e.Address} {
			if j, ok := seen[k]; ok && !strings.HasSuffix(k, ":") {
				p.add(line, "player %q repeats the %s of the player at line %d", e.Name, strings.SplitN(k, ":", 2)[0], p.ln.Header("player", j))
			}
			seen[k] = i
		}
		if fp.Language != "" {
			if e.Language, err = lang.Parse(fp.Language); err != nil {
				p.add(line, "player %q: %v", e.Name, err)
			}
		}
		if e.Address != "" && e.Address == p.s.Director {
			p.add(line, "player %q has the director's address: the director does not play", e.Name)
		}
		p.s.Players = append(p.s.Players, e)
	}
}

// rounds checks the format and works out its number of rounds.
func (p *fileParser) rounds() {
	f, s := p.f, p.s
	n := len(f.Players)
	if n < 2 {
		p.add(0, "a tournament needs at least 2 players, not %d", n)
	}
	fl := p.top("format", 0)
	switch f.Format {
	case RoundRobin:
		s.Rounds = n - 1
		if n%2 == 1 {
			s.Rounds = n
		}
		if f.Rounds != 0 && f.Rounds != s.Rounds {
			p.add(p.top("rounds", 0), "rounds = %d: a round robin of %d players has %s; leave rounds out", f.Rounds, n, RoundsText(s.Rounds))
		}
	case Elimination:
		s.Rounds = 0
		for k := 1; k < n; k *= 2 {
			s.Rounds++
		}
		if f.Rounds != 0 && f.Rounds != s.Rounds {
			p.add(p.top("rounds", 0), "rounds = %d: a single elimination of %d players has %s; leave rounds out", f.Rounds, n, RoundsText(s.Rounds))
		}
	case Swiss:
		switch {
		case f.Rounds < 1:
			p.add(p.top("rounds", fl), "a Swiss tournament needs rounds = N, at least 1")
		case n >= 2 && f.Rounds > maxSwissRounds(n):
			p.add(p.top("rounds", fl), "rounds = %d is impossible: %d players can play at most %s without a rematch", f.Rounds, n, RoundsText(maxSwissRounds(n)))
		}
	default:
		p.add(fl, "format = %q: it is %q, %q or %q", f.Format, RoundRobin, Swiss, Elimination)
	}
	if len(s.Scenarios) > 1 && s.Rounds > 0 && len(s.Scenarios) != s.Rounds {
		p.add(p.top("scenarios", 0), "scenarios names %d scenarios for %d rounds: give one per round, or one for all", len(s.Scenarios), s.Rounds)
	}
}

// timing checks the deadlines, the extensions and forfeit_after.
func (p *fileParser) timing() {
	f, s := p.f, p.s
	s.Deadline = p.duration(f.Deadline, 72*time.Hour, "deadline")
	if f.MaxExtensions != nil {
		s.MaxExtensions = *f.MaxExtensions
		if s.MaxExtensions < 0 {
			p.add(p.top("max_extensions", 0), "max_extensions = %d: it cannot be negative", s.MaxExtensions)
		}
	}
	if s.ForfeitAfter < 0 {
		p.add(p.top("forfeit_after", 0), "forfeit_after = %d: it cannot be negative (0: never)", s.ForfeitAfter)
	}
	s.BidDeadline = p.duration(f.BidDeadline, 48*time.Hour, "bid_deadline")
}

// sides checks the side rule.
func (p *fileParser) sides() {
	switch p.s.Sides {
	case "":
		p.s.Sides = SidesAlternate
	case SidesAlternate, SidesRandom, SidesBids:
	default:
		p.add(p.top("sides", 0), "sides = %q: it is %q, %q or %q", p.s.Sides, SidesAlternate, SidesRandom, SidesBids)
	}
}

// tieBreaks checks the tie-breaks, or gives the format's.
func (p *fileParser) tieBreaks() {
	s := p.s
	if len(s.TieBreaks) == 0 {
		s.TieBreaks = []string{TieMargin, TieHeadToHead}
		if s.Format == Swiss {
			s.TieBreaks = []string{TieBuchholz, TieMargin, TieHeadToHead}
		}
	}
	dup := map[string]bool{}
	for _, t := range s.TieBreaks {
		if t != TieMargin && t != TieHeadToHead && t != TieBuchholz {
			p.add(p.top("tiebreaks", 0), "tie-break %q: it is %q, %q or %q", t, TieMargin, TieHeadToHead, TieBuchholz)
		}
		if dup[t] {
			p.add(p.top("tiebreaks", 0), "tie-break %q is listed twice", t)
		}
		dup[t] = true
	}
}

// duration reads the time written for key, def if none.
func (p *fileParser) duration(text string, def time.Duration, key string) time.Duration {
	if text == "" {
		return def
	}
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		p.add(p.top(key, 0), "%s = %q: write a time as \"72h\" or \"90m\"", key, text)
		return def
	}
	return d
}

// RoundsText is a number of rounds in English, as the director reads it:
// "1 round", "3 rounds".
func RoundsText(n int) string {
	if n == 1 {
		return "1 round"
	}
	return fmt.Sprintf("%d rounds", n)
}

// maxSwissRounds is the most rounds n players can play without a
// rematch: n-1, each meeting every other once; with n odd, n, as in a
// round robin, each having one bye.
func maxSwissRounds(n int) int {
	if n%2 == 1 {
		return n
	}
	return n - 1
}

// sideOf reads a side as a player writes it.
func sideOf(s string) (rules.Side, bool) {
	switch strings.ToLower(s) {
	case "german", "g":
		return rules.German, true
	case "allied", "a":
		return rules.Allied, true
	}
	return "", false
}
