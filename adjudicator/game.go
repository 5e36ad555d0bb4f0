package adjudicator

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"titm/rules"
)

// Status is where a game is in its life: forming, playing, then finished.
type Status string

// The statuses of a game.
const (
	Forming  Status = "forming"  // created, waiting for both players to JOIN
	Playing  Status = "playing"  // both joined; impulses are played
	Finished Status = "finished" // a result, a concession or an agreed draw; the seed is revealed
)

// Player is one side's player.
type Player struct {
	Address string `json:"address"`
	// Committed is the address the log's first record commits to, when
	// another player has taken this one's place since (ReplacePlayer);
	// "" while it is Address.
	Committed string    `json:"committed,omitempty"`
	TokenHash string    `json:"token_hash"`      // hex SHA-256 of the secret token; the token itself is never kept
	Joined    time.Time `json:"joined,omitzero"` // zero until JOIN
	Seed      string    `json:"seed,omitempty"`  // his contribution to the dice (B10), published in the first report

	// Promptness, which tournaments want to see.
	Impulses   int           `json:"impulses"`   // impulses he played with orders
	Taken      time.Duration `json:"taken"`      // time taken over them, from each impulse's start
	Missed     int           `json:"missed"`     // deadlines that passed (B8)
	Extensions int           `json:"extensions"` // extensions he asked for

	// NoPicture is the player's PICTURE OFF: his mails come without the
	// map picture, the text alone (a player reading on a phone). The zero
	// value is ON, as in the games kept before the setting was.
	NoPicture bool `json:"no_picture,omitempty"`

	// Language is the code of the language his mails are written in (en,
	// ja: see package lang); "" is the referee's default.
	Language string `json:"language,omitempty"`
}

// Pictures reports whether the player's mails carry the map picture
// (PICTURE ON, the default).
func (p *Player) Pictures() bool { return !p.NoPicture }

// Promptness tells how the player keeps the game's pace, as tournaments
// want it: impulses played, the average time taken, deadlines missed and
// extensions asked for.
func (p *Player) Promptness() string {
	s := plural(p.Impulses, "impulse")
	if p.Impulses > 0 {
		s += " in " + FormatDuration((p.Taken / time.Duration(p.Impulses)).Round(time.Minute)) + " on average"
	}
	return s + fmt.Sprintf(", %d missed, %s", p.Missed, plural(p.Extensions, "extension"))
}

// plural writes a count of a thing: "1 impulse", "2 impulses".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// FormatDuration writes d as a person would: 1h rather than 1h0m0s, 72h
// rather than 72h0m0s.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// FormatTime writes a time as reports and mails give deadlines.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// Message names where a game is in its life, for a reader's language.
func (s Status) Message() rules.Message {
	switch s {
	case Forming:
		return rules.M("forming")
	case Playing:
		return rules.M("playing")
	case Finished:
		return rules.M("finished")
	}
	return rules.Plain(string(s))
}

// HasJoined reports whether the player has joined the game.
func (p *Player) HasJoined() bool { return !p.Joined.IsZero() }

// Game is one game's life: who plays it, where it stands and the head of its
// log. It is plain data, kept as JSON by the store, except for the secret
// seed, which the store keeps apart and which is never marshalled: it is
// revealed only in the record that finishes the game.
//
// A Game's methods change it and return the log records of the change; the
// caller keeps both or neither (the store does it in one transaction). They
// take the time as an argument and roll dice only from the game's stream, so
// that a game replayed from its log (Replay) takes exactly the same course.
type Game struct {
	ID       string `json:"id"`
	Scenario string `json:"scenario"` // the scenario's name
	// Files are the scenario's data files as read when the game was made,
	// so that the game never depends on files that change later; Main is
	// the scenario file among them, and Data their digest (FilesHash). The
	// store keeps the files once for all the games that share them.
	Files map[string]string `json:"-"`
	Main  string            `json:"main"`
	Data  string            `json:"data"`

	Players   map[rules.Side]*Player `json:"players"`
	Observers []string               `json:"observers,omitempty"`
	// Salt is the salt of the commitments to the players' and observers'
	// addresses that the log's first record holds instead of the
	// addresses (AddressCommitment). It is kept here, beside the
	// addresses, never in the log; "" for a game made before logs
	// committed to addresses.
	Salt string `json:"address_salt,omitempty"`

	Status     Status        `json:"status"`
	Created    time.Time     `json:"created"`
	Deadline   time.Duration `json:"deadline"`          // the time a side has for each impulse
	Began      time.Time     `json:"began,omitzero"`    // when the impulse in play began
	Due        time.Time     `json:"due,omitzero"`      // its deadline; zero while paused
	Paused     bool          `json:"paused,omitempty"`  // by the director
	Left       time.Duration `json:"left,omitempty"`    // time left on the clock when paused
	Reminded   time.Time     `json:"reminded,omitzero"` // the deadline a reminder was last sent for; not in the log
	DrawOffer  rules.Side    `json:"draw_offer,omitempty"`
	Result     string        `json:"result,omitempty"`
	Commitment string        `json:"commitment"`     // hex SHA-256 of the secret seed, published at creation
	Seed       string        `json:"seed,omitempty"` // the secret seed in hex, once the game is finished

	// State is the position. The store keeps it apart from the rest, so
	// that a list of games need not read every position; Next is the
	// impulse to play, for such lists.
	State *rules.State  `json:"state,omitempty"`
	Next  rules.Impulse `json:"next"`
	Draws uint64        `json:"draws"` // draws taken from the dice stream so far
	Rolls int           `json:"rolls"` // dice rolled so far
	Log   int           `json:"log"`   // records in the log
	Head  string        `json:"head"`  // hash of the last record

	secret   []byte
	scenario *rules.Scenario
	replay   *recordedDice // when replaying a log without the secret
}

// SeedSize is the size of a game's secret seed.
const SeedSize = 32

// Options are what a new game is made of.
type Options struct {
	ID        string
	Scenario  *rules.Scenario   // the scenario, loaded from Files
	Files     map[string]string // the scenario's data files, as read
	Main      string            // the scenario file among Files
	German    string            // the players' addresses
	Allied    string
	Observers []string
	Deadline  time.Duration         // per impulse
	Tokens    map[rules.Side]string // the players' secret tokens; only their hashes are kept
	Secret    []byte                // the game's secret seed, SeedSize random bytes
	// Salt is the salt of the address commitments (NewAddressSalt); ""
	// draws one.
	Salt string
	Now  time.Time
}

// New makes a game in the forming status, and its first log record, which
// publishes the commitment to the secret seed (B10).
func New(o Options) (*Game, []Record, error) {
	if o.ID == "" {
		return nil, nil, errors.New("a game needs an id")
	}
	if len(o.Secret) != SeedSize {
		return nil, nil, fmt.Errorf("a game's secret seed is %d bytes, not %d", SeedSize, len(o.Secret))
	}
	if o.German == "" || o.Allied == "" {
		return nil, nil, errors.New("a game needs the addresses of both players")
	}
	if o.Deadline <= 0 {
		return nil, nil, fmt.Errorf("the deadline per impulse must be positive, not %s", o.Deadline)
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		if len(o.Tokens[side]) < 8 {
			return nil, nil, fmt.Errorf("the %s player's token is missing or too short", side.Title())
		}
	}
	if o.Salt == "" {
		var err error
		if o.Salt, err = NewAddressSalt(); err != nil {
			return nil, nil, err
		}
	} else if err := CheckAddressSalt(o.Salt); err != nil {
		return nil, nil, err
	}
	now := at(o.Now)
	sum := sha256.Sum256(o.Secret)
	g := &Game{
		ID: o.ID, Scenario: o.Scenario.Name, Files: o.Files, Main: o.Main, Data: FilesHash(o.Files),
		Players: map[rules.Side]*Player{
			rules.German: {Address: o.German, TokenHash: HashToken(o.Tokens[rules.German])},
			rules.Allied: {Address: o.Allied, TokenHash: HashToken(o.Tokens[rules.Allied])},
		},
		Observers:  o.Observers,
		Salt:       o.Salt,
		Status:     Forming,
		Created:    now,
		Deadline:   o.Deadline,
		Commitment: hex.EncodeToString(sum[:]),
		State:      rules.NewState(o.Scenario),
		Next:       o.Scenario.StartImpulse,
		secret:     append([]byte(nil), o.Secret...),
		scenario:   o.Scenario,
	}
	r := g.record(Record{Kind: KindCreated, Time: now, Scenario: g.Scenario, Engine: rules.Version, Data: g.Data,
		Commitment: g.Commitment, Deadline: o.Deadline.String(), AddressCommitments: g.Header().commitments(), State: StateHash(g.State)})
	return g, []Record{r}, nil
}

// ReplacePlayer gives a side's place to another address with another
// token's hash, as a tournament does for a player who drops out: the game
// goes on where it stands. The address the log commits to stays the
// game's header, so that the full export still checks against the log.
func (g *Game) ReplacePlayer(side rules.Side, address, tokenHash string) {
	p := g.Players[side]
	if p.Committed == "" {
		p.Committed = p.Address
	}
	p.Address, p.TokenHash = address, tokenHash
}

// committed returns the address the log commits to for the player.
func (p *Player) committed() string {
	if p.Committed != "" {
		return p.Committed
	}
	return p.Address
}

// HashToken returns how a token is kept: hex SHA-256. Tokens are random and
// long, so no slower hash is needed.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Authentic reports whether token is the side's token, in constant time.
func (g *Game) Authentic(side rules.Side, token string) bool {
	p := g.Players[side]
	if p == nil || token == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(HashToken(token)), []byte(p.TokenHash)) == 1
}

// FilesHash returns a digest of a scenario's files, for the log.
func FilesHash(files map[string]string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%d:%s%d:%s", len(n), n, len(files[n]), files[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// StateHash returns the digest of a position, which the log keeps after
// every change instead of the position itself: the SHA-256 of its JSON as
// json.Marshal writes it. The JSON is written by State.AppendJSON, the same
// bytes without the reflection, which was most of the time of a digest; a
// replay takes one after every impulse.
func StateHash(st *rules.State) string {
	buf := stateBuffers.Get().(*[]byte)
	data := st.AppendJSON((*buf)[:0])
	sum := sha256.Sum256(data)
	*buf = data
	stateBuffers.Put(buf)
	return hex.EncodeToString(sum[:])
}

// stateBuffers keeps the room StateHash writes a position's JSON in: a
// campaign's is tens of kilobytes.
var stateBuffers = sync.Pool{New: func() any { return new([]byte) }}

// LoadScenario loads a scenario from files kept as text, as a game keeps
// them.
func LoadScenario(files map[string]string, main string) (*rules.Scenario, error) {
	read := func(name string) ([]byte, error) {
		text, ok := files[path.Clean(name)]
		if !ok {
			return nil, fmt.Errorf("no file %s among the game's scenario files", name)
		}
		return []byte(text), nil
	}
	return rules.LoadScenario(read, main)
}

// Rules returns the game's scenario, loading it from the game's files the
// first time.
func (g *Game) Rules() (*rules.Scenario, error) {
	if g.scenario == nil {
		s, err := LoadScenario(g.Files, g.Main)
		if err != nil {
			return nil, fmt.Errorf("game %s: loading its scenario: %w", g.ID, err)
		}
		g.scenario = s
	}
	return g.scenario, nil
}

// SetScenario gives the game its scenario already loaded, and the files it
// was loaded from, as a store that holds many games of the same scenario
// does. The files must be those of the game (FilesHash equal to Data).
func (g *Game) SetScenario(s *rules.Scenario, files map[string]string) {
	g.scenario, g.Files = s, files
}

// Secret returns the game's secret seed, for the store to keep apart.
func (g *Game) Secret() []byte { return append([]byte(nil), g.secret...) }

// SetSecret gives a game loaded from the store its secret seed back, after
// checking it against the commitment.
func (g *Game) SetSecret(secret []byte) error {
	sum := sha256.Sum256(secret)
	if hex.EncodeToString(sum[:]) != g.Commitment {
		return fmt.Errorf("game %s: the secret seed does not match the commitment", g.ID)
	}
	g.secret = append([]byte(nil), secret...)
	return nil
}

// ToMove returns the side whose impulse is in play, or "" when none is
// (forming, finished).
func (g *Game) ToMove() rules.Side {
	if g.Status != Playing {
		return ""
	}
	return g.Next.Side
}

// setState moves the game to a new position.
func (g *Game) setState(st *rules.State) { g.State, g.Next = st, st.Next }

// Clone returns a deep copy of the game, to change without touching g.
func (g *Game) Clone() *Game {
	c := *g
	c.Players = map[rules.Side]*Player{}
	for s, p := range g.Players {
		q := *p
		c.Players[s] = &q
	}
	c.Observers = append([]string(nil), g.Observers...)
	c.State = g.State.Clone()
	c.secret = append([]byte(nil), g.secret...)
	return &c
}
