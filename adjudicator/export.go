package adjudicator

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"titm/rules"
)

// ExportFormat names the format of an export, for the reader to check:
// version 2 has the salt of the address commitments (Header.Salt), and a
// public export leaves out the addresses and the salt.
const ExportFormat = "titm-export/2"

// ExportFormatV1 is the format of the exports written before, which
// ReadExport reads too: the same, without the salt.
const ExportFormatV1 = "titm-export/1"

// Export is everything needed to audit a game: its header (the scenario's
// files among it), its whole log, and, once the game is finished, the
// revealed seed. It holds no token and no token hash. The full export
// holds the addresses the log commits to and the salt that checks them;
// the public one (Public) neither, and verifies all the same.
type Export struct {
	Format string `json:"format"`
	Header
	Status  Status                `json:"status"`
	Result  string                `json:"result,omitempty"`
	Seeds   map[rules.Side]string `json:"player_seeds"`
	Seed    string                `json:"seed,omitempty"` // the secret seed, hex, once revealed
	Head    string                `json:"head"`
	Records []Record              `json:"records"`
}

// MakeExport returns the export of a game with its log.
func MakeExport(g *Game, log []Record) *Export {
	return &Export{
		Format: ExportFormat, Header: g.Header(), Status: g.Status, Result: g.Result,
		Seeds: map[rules.Side]string{rules.German: g.Players[rules.German].Seed, rules.Allied: g.Players[rules.Allied].Seed},
		Seed:  g.Seed, Head: g.Head, Records: log,
	}
}

// Public returns the export without the players' and observers' addresses
// and the salt of their commitments: what may be published. No record of
// a game's log holds an address, so it verifies as the full export does,
// the addresses aside.
func (x *Export) Public() *Export {
	c := *x
	c.Header = x.Header.Public()
	return &c
}

// ReadExport reads an export.
func ReadExport(r io.Reader) (*Export, error) {
	var x Export
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("reading the export: %w", err)
	}
	if x.Format != ExportFormat && x.Format != ExportFormatV1 {
		return nil, fmt.Errorf("reading the export: format %q, want %q (or %q, as written before)", x.Format, ExportFormat, ExportFormatV1)
	}
	if x.Format == ExportFormatV1 && x.Salt != "" {
		return nil, fmt.Errorf("reading the export: format %q has no address_salt", x.Format)
	}
	return &x, nil
}

// Verified is what Verify checked.
type Verified struct {
	Impulses int
	Dice     int
	// DiceChecked is false when the seed is not revealed yet: the dice were
	// taken from the log, and only what follows from them was checked.
	DiceChecked bool
	// Game is the game as its replayed log leaves it: a tournament's
	// verify counts its result from it.
	Game *Game
	// Committed is how many addresses the log commits to (0 for a log
	// from before commitments), and Addresses how many of them the export
	// gives and were checked against their commitments: all, or none for
	// a public export.
	Committed, Addresses int
}

// Verify checks an export: the revealed seed against the commitment, every
// die against the stream, every impulse replayed through the rules to the
// same events and positions, every record compared field by field with the
// one the replay makes, the times of the log in order, every hash of the
// chain, and the head, status, result and seeds the export states. The
// first difference is a *Discrepancy naming the record and the field.
// Verify replays on a copy of x and never changes x.
func Verify(x *Export) (*Verified, error) {
	return VerifyWith(nil, x, nil)
}

// VerifyWith is Verify with the game's scenario already loaded from the
// export's files (nil: loaded from them), as ReplayWith, and with step
// called after each change replayed, as ReplaySteps: a reader that shows
// every impulse's report beside the verification has both from one replay.
// The records and game step is given are the copy's.
func VerifyWith(s *rules.Scenario, x *Export, step func(g *Game, recs []Record, events []rules.Event) error) (*Verified, error) {
	x, err := x.clone()
	if err != nil {
		return nil, err
	}
	secret, s, err := x.prepare(s)
	if err != nil {
		return nil, err
	}
	// Each player's seed is checked against the export's where the log
	// records it, as the replay reaches it.
	seeds := func(g *Game, recs []Record, events []rules.Event) error {
		for j, r := range recs {
			if r.Kind == KindJoined && x.Seeds[r.Side] != r.Seed {
				// Named by its place in the log, as the replay numbers it.
				return &Discrepancy{Seq: g.Log - len(recs) + j, Kind: r.Kind, Field: "seed", What: fmt.Sprintf("the %s player's seed is %q in the log, but the export gives %q", r.Side, r.Seed, x.Seeds[r.Side])}
			}
		}
		if step != nil {
			return step(g, recs, events)
		}
		return nil
	}
	rp, err := ReplaySteps(s, x.Header, x.Records, secret, seeds)
	if err != nil {
		return nil, err
	}
	g := rp.Game
	if err := x.checkEnd(g); err != nil {
		return nil, err
	}
	// The replay checked the addresses against the created record.
	n, _ := checkAddresses(x.Header, x.Records[0])
	return &Verified{Impulses: rp.Impulses, Dice: rp.Dice, DiceChecked: secret != nil, Game: g,
		Committed: len(x.Records[0].AddressCommitments), Addresses: n}, nil
}

// prepare checks what of the export comes before its replay (the seed, the
// format, the times, the scenario) and returns the game's secret, nil if
// not revealed, and its scenario: s, or loaded from the files the log
// vouches for, or nil for the replay to load.
func (x *Export) prepare(s *rules.Scenario) ([]byte, *rules.Scenario, error) {
	var secret []byte
	if x.Seed != "" {
		var err error
		if secret, err = hex.DecodeString(x.Seed); err != nil || len(secret) != SeedSize {
			return nil, nil, &Discrepancy{Kind: "export", Field: "seed", What: fmt.Sprintf("the revealed seed %q is not %d bytes in hex", x.Seed, SeedSize)}
		}
	}
	if x.Format != ExportFormat && x.Format != ExportFormatV1 {
		return nil, nil, &Discrepancy{Kind: "export", Field: "format", What: fmt.Sprintf("the export's format is %q, not %q (or %q, as written before)", x.Format, ExportFormat, ExportFormatV1)}
	}
	if err := checkTimes(x.Records); err != nil {
		return nil, nil, err
	}
	if _, ok := x.Files[x.Main]; s == nil && ok && len(x.Records) > 0 && FilesHash(x.Files) == x.Records[0].Data {
		// Files the log vouches for: loaded once for every game that has
		// them.
		var err error
		if s, err = loadScenario(x.Files, x.Main); err != nil {
			return nil, nil, fmt.Errorf("loading the game's scenario: %w", err)
		}
	}
	if len(x.Records) > 0 && x.Scenario != x.Records[0].Scenario {
		return nil, nil, &Discrepancy{Kind: KindCreated, Field: "scenario", What: fmt.Sprintf("the export's scenario is %q, but the log's first record has %q", x.Scenario, x.Records[0].Scenario)}
	}
	return secret, s, nil
}

// checkEnd checks the export's own fields against the game its log
// replayed to, g.
func (x *Export) checkEnd(g *Game) error {
	switch {
	case x.Seed == "" && g.Status == Finished:
		return &Discrepancy{Seq: g.Log - 1, Kind: KindFinished, Field: "seed", What: "the game is finished, but the export does not reveal its seed"}
	case x.Head != g.Head:
		return &Discrepancy{Seq: g.Log - 1, Kind: "export", Field: "head", What: fmt.Sprintf("the export's head is %s, but its last record hashes to %s", x.Head, g.Head)}
	case x.Status != g.Status:
		return &Discrepancy{Seq: g.Log - 1, Kind: "export", Field: "status", What: fmt.Sprintf("the export says the game is %s, but its log leaves it %s", x.Status, g.Status)}
	case x.Result != g.Result:
		return &Discrepancy{Seq: g.Log - 1, Kind: "export", Field: "result", What: fmt.Sprintf("the export's result is %q, but its log gives %q", x.Result, g.Result)}
	}
	for side := range x.Seeds {
		if side != rules.German && side != rules.Allied || x.Seeds[side] != g.Players[side].Seed {
			return &Discrepancy{Kind: "export", Field: "player_seeds." + string(side), What: fmt.Sprintf("the export gives the %s seed as %q, but the log has %q", side, x.Seeds[side], g.Players[side].Seed)}
		}
	}
	return nil
}

// checkTimes checks that the times of a log never go back: each record is
// written when its act is done, after the one before. A time between its
// neighbours' is all a log can tell of a record whose act derives nothing
// from its time (docs/verify.md).
func checkTimes(log []Record) error {
	for i := 1; i < len(log); i++ {
		if r := log[i]; r.Time.Before(log[i-1].Time) {
			return &Discrepancy{Seq: i, Kind: r.Kind, Impulse: r.Impulse, Field: "time",
				What: fmt.Sprintf("its time %s is before the time of the record before it, %s", r.Time.Format(time.RFC3339Nano), log[i-1].Time.Format(time.RFC3339Nano))}
		}
	}
	return nil
}

// clone returns a deep copy of x: nothing of it shares memory with x. The
// scenario's files, the bulk of an export, are copied as a map of their
// texts, which no one can change; the records through their JSON.
func (x *Export) clone() (*Export, error) {
	c := *x
	c.Files = maps.Clone(x.Files)
	c.Observers = slices.Clone(x.Observers)
	c.Seeds = maps.Clone(x.Seeds)
	recs, err := Clone(&x.Records)
	if err != nil {
		return nil, err
	}
	c.Records = *recs
	return &c, nil
}

// loaded keeps the scenarios verify loaded, by their files' digest and
// main file: a tournament's games are mostly of one scenario, and loading
// it is most of the time a short game's verification takes. A scenario is
// not changed once loaded (ReplayWith shares one among games), so one may
// serve every game with the same files.
var loaded struct {
	sync.Mutex
	m map[string]*rules.Scenario
}

// loadScenario is LoadScenario through the cache.
func loadScenario(files map[string]string, main string) (*rules.Scenario, error) {
	key := FilesHash(files) + " " + main
	loaded.Lock()
	s := loaded.m[key]
	loaded.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := LoadScenario(files, main)
	if err != nil {
		return nil, err
	}
	loaded.Lock()
	defer loaded.Unlock()
	if loaded.m == nil || len(loaded.m) >= 8 {
		loaded.m = map[string]*rules.Scenario{}
	}
	loaded.m[key] = s
	return s, nil
}
