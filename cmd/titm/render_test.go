package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	readPNG := func(name string) []byte {
		t.Helper()
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Fatalf("%s is not a PNG: %v", name, err)
		}
		return data
	}

	// The scenario's start.
	start := filepath.Join(dir, "start.png")
	code, out, errs := runT(t, "render", "--scenario", "intro", "-o", start)
	if code != exitOK || !strings.Contains(out, "before G16-1") {
		t.Fatalf("render: exit %d, out %q, err %q", code, out, errs)
	}
	startPNG := readPNG(start)

	// A saved position, as titm adjudicate --out writes it.
	state := filepath.Join(dir, "state.json")
	orders := filepath.Join(dir, "orders.txt")
	if err := os.WriteFile(orders, []byte("MOVE 352/914 23 22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runT(t, "adjudicate", "--scenario", "intro", "--dice", "5,5,5,5,5,5,5,5,5,5", "--orders", orders, "--out", state); code != exitOK {
		t.Fatalf("adjudicate: exit %d, out %q, err %q", code, out, errs)
	}
	later := filepath.Join(dir, "later.png")
	code, out, errs = runT(t, "render", "--scenario", "intro", "--state", state, "--title", "after impulse G16-1", "--out", later)
	if code != exitOK || !strings.Contains(out, "before A16-1") {
		t.Fatalf("render --state: exit %d, out %q, err %q", code, out, errs)
	}
	if bytes.Equal(readPNG(later), startPNG) {
		t.Error("the saved position is drawn as the start")
	}

	// Wrong command lines.
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"render", "--scenario", "intro"}, exitUsage, "-o FILE is required"},
		{[]string{"render", "-o", start}, exitUsage, "--scenario is required"},
		{[]string{"render", "--scenario", "intro", "-o", start, "extra"}, exitUsage, "no arguments expected"},
		{[]string{"render", "--scenario", "campaign", "--state", state, "-o", start}, exitProblems, `not "campaign"`},
		{[]string{"render", "--scenario", "intro", "--state", filepath.Join(dir, "none.json"), "-o", start}, exitProblems, "reading the state"},
	} {
		code, _, errs := runT(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d, err %q; want exit %d and %q", c.args, code, errs, c.code, c.err)
		}
	}
}

// titm render --game draws a stored game after its last impulse.
func TestRenderGame(t *testing.T) {
	t.Parallel()
	fixClock(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "titm.db")
	id, tokens := newGame(t, db, "intro")
	mustRun(t, "join", id, "--db", db, "--side", "german")
	mustRun(t, "join", id, "--db", db, "--side", "allied")
	orders := filepath.Join(dir, "orders.txt")
	os.WriteFile(orders, []byte("TOKEN "+tokens["german"]+"\nIMPULSE 16-1\nENTRENCH 212/423\n"), 0o600)
	mustRun(t, "play", id, "--db", db, "--side", "german", "--orders", orders)
	pic := filepath.Join(dir, "game.png")
	out := mustRun(t, "render", "--game", id, "--db", db, "-o", pic)
	if !strings.Contains(out, "after G16-1") {
		t.Errorf("render --game: %s", out)
	}
	data, err := os.ReadFile(pic)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("not a PNG: %v", err)
	}
	if code, _, errs := runT(t, "render", "--game", id, "--scenario", "intro", "--db", db, "-o", pic); code != exitUsage || !strings.Contains(errs, "no --scenario") {
		t.Errorf("--game with --scenario: exit %d %s", code, errs)
	}
}
