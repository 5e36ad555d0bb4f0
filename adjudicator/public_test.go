package adjudicator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/rules"
	"titm/rules/scenarios"
)

// exportCopy returns an export that shares nothing with x, through its
// JSON, as a reader of the file has it.
func exportCopy(t *testing.T, x *Export) *Export {
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

// A new game's first record commits to the players' and observers'
// addresses: the full export gives them with the salt and verify checks
// each, the public one gives neither and verifies all the same, and an
// address changed, added or left out fails, named. A player replaced keeps
// the address the log commits to in the header.
func TestGameAddressCommitments(t *testing.T) {
	s, files, main, err := scenarios.LoadFiles("intro")
	if err != nil {
		t.Fatal(err)
	}
	g, log, err := New(Options{ID: "intro-1", Scenario: s, Files: files, Main: main,
		German: "german@example.test", Allied: "allied@example.test", Observers: []string{"umpire@example.test"}, Deadline: time.Hour,
		Tokens: map[rules.Side]string{rules.German: "gggg-gggg-gggg", rules.Allied: "aaaa-aaaa-aaaa"},
		Secret: testSecret, Salt: testSalt, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		recs, err := g.Join(side, string(side)+" seed", t0.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, recs...)
	}
	g.ReplacePlayer(rules.Allied, "relief@example.test", HashToken("rrrr-rrrr-rrrr"))
	recs, err := g.concede(rules.German, t0.Add(time.Hour), rules.ConcededResult(rules.German))
	if err != nil {
		t.Fatal(err)
	}
	log = append(log, recs...)
	if data, _ := json.Marshal(log); strings.Contains(string(data), "@") {
		t.Errorf("the log holds an address:\n%s", data)
	}
	if c := log[0].AddressCommitments; len(c) != 3 || c[2] != AddressCommitment(testSalt, "UMPIRE@example.test") {
		t.Errorf("the created record commits to %v", c)
	}

	full := MakeExport(g, log)
	if full.Allied != "allied@example.test" || g.Players[rules.Allied].Address != "relief@example.test" {
		t.Errorf("after the replacement the export gives %q, the game %q", full.Allied, g.Players[rules.Allied].Address)
	}
	v, err := Verify(exportCopy(t, full))
	if err != nil || v.Committed != 3 || v.Addresses != 3 {
		t.Errorf("the full export: %+v, %v", v, err)
	}
	public := full.Public()
	data, _ := json.Marshal(public)
	if strings.Contains(string(data), "@") || strings.Contains(string(data), `"address_salt"`) {
		t.Errorf("the public export holds an address or the salt")
	}
	v, err = Verify(exportCopy(t, public))
	if err != nil || v.Committed != 3 || v.Addresses != 0 || !v.DiceChecked {
		t.Errorf("the public export: %+v, %v", v, err)
	}
	if full.German == "" || full.Salt == "" {
		t.Error("Public changed the export it was given")
	}

	for _, c := range []struct {
		name   string
		change func(x *Export)
		want   string
	}{
		{"the German address changed", func(x *Export) { x.German = "someone@example.test" }, `the German player's address as "someone@example.test"`},
		{"the Allied address of now", func(x *Export) { x.Allied = "relief@example.test" }, `the Allied player's address as "relief@example.test"`},
		{"an observer changed", func(x *Export) { x.Observers[0] = "spy@example.test" }, `observer 1's address as "spy@example.test"`},
		{"an observer more", func(x *Export) { x.Observers = append(x.Observers, "spy@example.test") }, "the log commits to 3"},
		{"an observer left out", func(x *Export) { x.Observers = nil }, "the log commits to 3"},
		{"another salt", func(x *Export) { x.Salt = strings.Repeat("00", AddressSaltSize) }, "not the address the log commits to"},
		{"a salt of another size", func(x *Export) { x.Salt = "00" }, "is not 16 bytes in hex"},
		{"addresses without the salt", func(x *Export) { x.Salt = "" }, "without the salt"},
	} {
		x := exportCopy(t, full)
		c.change(x)
		if _, err := Verify(x); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A commitment changed in the log, its chain made right again: the
	// full export's addresses no longer match it.
	x := exportCopy(t, full)
	x.Records[0].AddressCommitments[0] = AddressCommitment(testSalt, "someone@example.test")
	prev := ""
	for i := range x.Records {
		x.Records[i].Prev = prev
		x.Records[i].Hash = RecordHash(x.Records[i])
		prev = x.Records[i].Hash
	}
	x.Head = prev
	if _, err := Verify(x); err == nil || !strings.Contains(err.Error(), "the German player's address") {
		t.Errorf("a commitment changed: %v", err)
	}
}

// The export of a game made before logs committed to addresses, as titm
// wrote it then, verifies as it did; its public export too.
func TestOldGameExportVerifies(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "export", "game-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := ReadExport(f)
	if err != nil {
		t.Fatal(err)
	}
	if x.Format != ExportFormatV1 || x.German != "hasso@example.org" || len(x.Records[0].AddressCommitments) != 0 {
		t.Fatalf("the fixture is not an export of before: %s %q", x.Format, x.German)
	}
	for _, x := range []*Export{x, x.Public()} {
		v, err := Verify(x)
		if err != nil || v.Impulses != 1 || !v.DiceChecked || v.Committed != 0 || v.Addresses != 0 {
			t.Errorf("the export of before (addresses %q): %+v, %v", x.German, v, err)
		}
	}
	x.Salt = testSalt
	if _, err := Verify(x); err == nil || !strings.Contains(err.Error(), "commits to no address") {
		t.Errorf("a salt for a log of before: %v", err)
	}
}
