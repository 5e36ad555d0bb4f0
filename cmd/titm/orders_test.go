package main

import (
	"os"
	"path/filepath"
	"testing"
)

// titm orders check names the greeting and the sign-off it did not read, as
// the referee's reply does.
func TestOrdersCheckSignOff(t *testing.T) {
	f := filepath.Join(t.TempDir(), "mail.txt")
	if err := os.WriteFile(f, []byte("Hi Hans,\nGAME bulge-7\nMOVE 116/60 50 49\n\nCheers,\nTony\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runT(t, "orders", "check", "--scenario", "campaign", "--side", "german", f)
	if want := "GAME bulge-7\nMOVE 116/60 50 49\n# not read as orders: line 1, lines 5-6\n"; code != exitOK || out != want {
		t.Errorf("exit %d %s\n%s\nwant\n%s", code, errs, out, want)
	}
}
