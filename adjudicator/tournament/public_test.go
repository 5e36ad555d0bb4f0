package tournament

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
)

// copyOf returns an export that shares nothing with x, through its JSON,
// as a reader of the file has it.
func copyOf(t *testing.T, x *Export) *Export {
	t.Helper()
	data, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadExport(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rechain makes the hashes of an export's log right again after a change,
// as a forger would.
func rechain(x *Export) {
	prev := ""
	for i := range x.Records {
		x.Records[i].Prev = prev
		x.Records[i].Hash = RecordHash(x.Records[i])
		prev = x.Records[i].Hash
	}
	x.Head = prev
}

// A new tournament's log commits to the director's and the players'
// addresses, a replacement's too, and holds none: the full export gives
// them and verify checks each; the public export gives none and verifies;
// a changed, missing or extra address fails, and so does a replacement
// that the public log shows to be a player already.
func TestAddressCommitments(t *testing.T) {
	tr := newT(t, settings(RoundRobin, 3, 4, SidesAlternate))
	if _, err := tr.Pair(t0); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Replace(2, "Eve", "eve@example.org", "token-e-xyz", "moved away", "", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if tr.Entrants[2].Address != "eve@example.org" || tr.Director != "td@example.org" || tr.Players[0].Address != "a@example.org" {
		t.Fatalf("the tournament lost its addresses: %+v, director %q", tr.Entrants[2], tr.Director)
	}
	logged, _ := json.Marshal(tr.Log)
	if strings.Contains(string(logged), "@") {
		t.Errorf("the log holds an address:\n%s", logged)
	}

	full := MakeExport(tr, nil)
	if len(full.Addresses) != 6 || full.Salt == "" {
		t.Fatalf("the full export gives %d addresses (want the director's, 4 players' and Eve's), salt %q", len(full.Addresses), full.Salt)
	}
	v, err := VerifyLog(copyOf(t, full))
	if err != nil || v.Committed != 6 || v.Addresses != 6 {
		t.Errorf("the full export: %+v, %v", v, err)
	}

	public, err := full.Public()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(public)
	if strings.Contains(string(data), "@") || strings.Contains(string(data), `"address_salt"`) {
		t.Errorf("the public export holds an address or the salt:\n%s", data)
	}
	v, err = VerifyLog(copyOf(t, public))
	if err != nil || v.Committed != 6 || v.Addresses != 0 {
		t.Errorf("the public export: %+v, %v", v, err)
	}

	for _, c := range []struct {
		name   string
		change func(x *Export)
		want   string
	}{
		{"an address changed", func(x *Export) {
			for k, a := range x.Addresses {
				if a == "b@example.org" {
					x.Addresses[k] = "bob@example.org"
				}
			}
		}, `gives "bob@example.org" as the address committed to as`},
		{"an address left out", func(x *Export) {
			for k, a := range x.Addresses {
				if a == "eve@example.org" {
					delete(x.Addresses, k)
				}
			}
		}, "which the export does not give"},
		{"an address more", func(x *Export) {
			x.Addresses[adjudicator.AddressCommitment(x.Salt, "mallory@example.org")] = "mallory@example.org"
		}, `"mallory@example.org", which the log does not commit to`},
		{"another salt", func(x *Export) { x.Salt = strings.Repeat("00", adjudicator.AddressSaltSize) }, "hashes to"},
		{"addresses without the salt", func(x *Export) { x.Salt = "" }, "is not 16 bytes in hex"},
		{"an address in the created record", func(x *Export) {
			x.Records[0].Settings.Players[1].Address = "b@example.org"
			rechain(x)
		}, "player 2 has an address in the created record"},
		{"an address in the replaced record", func(x *Export) {
			x.Records[len(x.Records)-1].Address = "eve@example.org"
			rechain(x)
		}, "the replaced record holds the new player's address"},
	} {
		x := copyOf(t, full)
		c.change(x)
		if _, err := VerifyLog(x); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// The public log alone shows a replacement by a player already in:
	// the commitments are equal.
	x := copyOf(t, public)
	r := &x.Records[len(x.Records)-1]
	r.AddressCommitment = x.Records[0].Settings.Players[1].Commitment
	rechain(x)
	if _, err := VerifyLog(x); err == nil || !strings.Contains(err.Error(), "plays in tournament") {
		t.Errorf("a replacement by a player of the tournament, in the public export: %v", err)
	}
	x = copyOf(t, public)
	x.Records[len(x.Records)-1].AddressCommitment = x.Records[0].Settings.DirectorCommitment
	rechain(x)
	if _, err := VerifyLog(x); err == nil || !strings.Contains(err.Error(), "the director's address") {
		t.Errorf("a replacement by the director, in the public export: %v", err)
	}
}

// The export of a tournament made before logs committed to addresses, as
// titm wrote it then, verifies as it did; it has no public export.
func TestOldExportVerifies(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "export", "tournament-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := ReadExport(f)
	if err != nil {
		t.Fatal(err)
	}
	if x.Format != ExportFormatV1 || x.Records[0].Settings.Players[0].Address != "p1@example.org" {
		t.Fatalf("the fixture is not an export of before: %s, %+v", x.Format, x.Records[0].Settings.Players[0])
	}
	v, err := Verify(x)
	if err != nil || v.Games != 3 || v.Records != 18 || v.Committed != 0 || v.Addresses != 0 || !v.DiceChecked {
		t.Errorf("the export of before: %+v, %v", v, err)
	}
	if _, err := x.Public(); err == nil || !strings.Contains(err.Error(), "no public export") {
		t.Errorf("its public export: %v", err)
	}
}
