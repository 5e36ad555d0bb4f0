package adjudicator

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

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

// Public reports whether the export was a public one: its log commits to
// addresses the export does not give.
func (v *Verified) Public() bool { return v.Committed > 0 && v.Addresses == 0 }

// Verify checks an export: the revealed seed against the commitment, every
// die against the stream, every impulse replayed through the rules to the
// same events and positions, every hash of the chain, and the head and
// result the export states. The first difference is a *Discrepancy.
func Verify(x *Export) (*Verified, error) {
	return VerifyWith(nil, x, nil)
}

// VerifyWith is Verify with the game's scenario already loaded from the
// export's files (nil: loaded from them), as ReplayWith, and with step
// called after each change replayed, as ReplaySteps: a reader that shows
// every impulse's report beside the verification has both from one replay.
func VerifyWith(s *rules.Scenario, x *Export, step func(g *Game, recs []Record, events []rules.Event) error) (*Verified, error) {
	var secret []byte
	if x.Seed != "" {
		var err error
		if secret, err = hex.DecodeString(x.Seed); err != nil || len(secret) != SeedSize {
			return nil, &Discrepancy{Kind: "export", What: fmt.Sprintf("the revealed seed %q is not %d bytes in hex", x.Seed, SeedSize)}
		}
	}
	rp, err := ReplaySteps(s, x.Header, x.Records, secret, step)
	if err != nil {
		return nil, err
	}
	g := rp.Game
	switch {
	case x.Seed == "" && g.Status == Finished:
		return nil, &Discrepancy{Seq: g.Log - 1, Kind: KindFinished, What: "the game is finished, but the export does not reveal its seed"}
	case x.Head != g.Head:
		return nil, &Discrepancy{Seq: g.Log - 1, Kind: "export", What: fmt.Sprintf("the export's head is %s, but its last record hashes to %s", x.Head, g.Head)}
	case x.Status != g.Status:
		return nil, &Discrepancy{Seq: g.Log - 1, Kind: "export", What: fmt.Sprintf("the export says the game is %s, but its log leaves it %s", x.Status, g.Status)}
	case x.Result != g.Result:
		return nil, &Discrepancy{Seq: g.Log - 1, Kind: "export", What: fmt.Sprintf("the export's result is %q, but its log gives %q", x.Result, g.Result)}
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		if x.Seeds[side] != g.Players[side].Seed {
			return nil, &Discrepancy{Kind: "export", What: fmt.Sprintf("the export gives the %s seed as %q, but the log has %q", side, x.Seeds[side], g.Players[side].Seed)}
		}
	}
	// The replay checked the addresses against the created record.
	n, _ := checkAddresses(x.Header, x.Records[0])
	return &Verified{Impulses: rp.Impulses, Dice: rp.Dice, DiceChecked: secret != nil, Game: g,
		Committed: len(x.Records[0].AddressCommitments), Addresses: n}, nil
}
