package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A store cut short, one with a page's header damaged and one with a
// game's record changed on the disk: check-store, status and serve each
// name the problem, and end with an exit status, never a panic or a
// signal; serve refuses to start, with exitDamagedStore.
func TestDamagedStores(t *testing.T) {
	t.Parallel()
	fixClock(t)
	good := filepath.Join(t.TempDir(), "good.db")
	for range 3 {
		newGame(t, good, "intro")
	}
	// The store as the game commands write it, before any daemon ran,
	// checks clean (its mails have no sender yet).
	if out, code := titmProcess(t, "check-store", "--db", good); code != exitOK {
		t.Fatalf("check-store of a good store: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	const ps = 4096
	// everyPage changes every leaf page holding b: the one in use among
	// them, and free ones, where a change is harmless.
	everyPage := func(b []byte, change func(page []byte, at int)) []byte {
		out := bytes.Clone(data)
		found := false
		for p := 0; p+ps <= len(out); p += ps {
			page := out[p : p+ps]
			if binary.LittleEndian.Uint16(page[8:]) != 0x02 {
				continue
			}
			for at := 0; ; {
				i := bytes.Index(page[at:], b)
				if i < 0 {
					break
				}
				change(page, at+i)
				found, at = true, at+i+len(b)
			}
		}
		if !found {
			t.Fatalf("%q is in no leaf page", b)
		}
		return out
	}
	for _, c := range []struct {
		name string
		file []byte
		want *regexp.Regexp
	}{
		{"cut short", data[:len(data)*6/10], regexp.MustCompile(`it is cut short: \d+ bytes.*are missing`)},
		{"a page's flags", everyPage([]byte(`"token_hash"`), func(page []byte, _ int) { page[8] = 0x06 }),
			regexp.MustCompile(`page \d+: damaged`)},
		{"a game's token_hash key", everyPage([]byte(`"token_hash"`), func(page []byte, at int) { page[at+10] = 0x97 }),
			regexp.MustCompile(`game intro-\d: .*(token_has|does not match its sum)`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newOpsWorld(t, "")
			if err := os.WriteFile(w.db, c.file, 0o600); err != nil {
				t.Fatal(err)
			}
			config := filepath.Join(t.TempDir(), "titm.toml")
			if err := os.WriteFile(config, []byte(w.text), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"check-store", "--db", w.db},
				{"status", "--db", w.db},
				{"serve", "--config", config},
			} {
				out, code := titmProcess(t, args...)
				switch {
				case code < 0 || strings.Contains(out, "goroutine ") || strings.Contains(out, "panic"):
					t.Errorf("titm %s: exit %d, a crash:\n%s", args[0], code, out)
				case code == exitOK || args[0] == "serve" && code != exitDamagedStore:
					t.Errorf("titm %s: exit %d\n%s", args[0], code, out)
				case !c.want.MatchString(out):
					t.Errorf("titm %s: exit %d, the problem %q is not named:\n%s", args[0], code, c.want, out)
				}
				t.Logf("titm %s: exit %d: %s", args[0], code, matchingLine(out, c.want))
			}
			if fi, err := os.Stat(w.db); err != nil || fi.Size() != int64(len(c.file)) {
				t.Errorf("the damaged file was changed: %v", err)
			}
		})
	}
}

// matchingLine is the line of out that matches re.
func matchingLine(out string, re *regexp.Regexp) string {
	for _, l := range strings.Split(out, "\n") {
		if re.MatchString(l) {
			if len(l) > 300 {
				return l[:300] + "..."
			}
			return l
		}
	}
	return ""
}

// A page damaged under a running daemon: check-store through its socket
// names the page, and the daemon goes on answering; a read of the damaged
// game is an error naming the damage.
func TestDamageUnderTheDaemon(t *testing.T) {
	w := newOpsWorld(t, "")
	w.start()
	ids, _ := w.newGames(3)
	f, err := os.OpenFile(w.db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := os.ReadFile(w.db)
	if err != nil {
		t.Fatal(err)
	}
	// Every leaf page that holds a game's record, the one in use and free
	// ones, made a meta page.
	var damagedPages int
	for p := 0; p+4096 <= len(data); p += 4096 {
		page := data[p : p+4096]
		if binary.LittleEndian.Uint16(page[8:]) == 0x02 && bytes.Contains(page, []byte(`"token_hash"`)) {
			if _, err := f.WriteAt([]byte{0x06}, int64(p+8)); err != nil {
				t.Fatal(err)
			}
			damagedPages++
		}
	}
	if damagedPages == 0 {
		t.Fatal("no page holds a game")
	}
	code, out, errs := runT(t, "check-store", "--db", w.db)
	if code != exitProblems || !regexp.MustCompile(`page \d+: damaged`).MatchString(out) {
		t.Errorf("check-store through the socket: exit %d\n%s%s", code, out, errs)
	}
	_, err = forward(w.cfg.Store.ControlSocket, request{Version: protocol, Act: "show", Game: ids[0]})
	if err != nil {
		t.Errorf("the daemon does not answer after check-store: %v", err)
	}
	code, out, errs = runT(t, "show", ids[0], "--db", w.db)
	if code == exitOK || !strings.Contains(out+errs, "is damaged") {
		t.Errorf("show of a damaged game: exit %d\n%s%s", code, out, errs)
	}
	// Put the pages back, for the daemon's stop.
	if _, err := f.WriteAt(data, 0); err != nil {
		t.Fatal(err)
	}
}

// A store of an older schema: the read-only commands say how to migrate
// it, titm migrate-store does, and then they read it.
func TestMigrateStore(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "old.db")
	data, err := os.ReadFile("../../testdata/store/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(db, data, 0o600)
	code, _, errs := runT(t, "check-store", "--db", db)
	if code != exitProblems || !strings.Contains(errs, "run titm migrate-store --db "+db+" once (or start titm serve once") {
		t.Errorf("check-store of an old store: exit %d: %s", code, errs)
	}
	if out := mustRun(t, "migrate-store", "--db", db); !strings.Contains(out, "schema version") {
		t.Errorf("migrate-store: %s", out)
	}
	if out := mustRun(t, "check-store", "--db", db); !strings.Contains(out, "1 replayed") || !strings.Contains(out, "no problems") {
		t.Errorf("check-store after migrate-store: %s", out)
	}
}
