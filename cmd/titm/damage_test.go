package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"titm/internal/waitfor"
)

// bucketPage finds, in a bbolt file's bytes, the page that a top-level
// bucket's root lives on, by bbolt's layout: each page starts with a
// header (id uint64, flags uint16, count uint16, overflow uint32); a meta
// page (0 and 1, the newer by its transaction id counts) holds after it
// the magic, version, page size and flags (uint32 each), then the root
// bucket (its page and sequence, uint64 each), the freelist's page, the
// high water mark and the transaction id; a leaf page holds count
// elements (flags, pos, ksize, vsize: uint32 each), pos counting from the
// element to its key, the value after the key. A bucket's value starts
// with its root page, 0 for a bucket inlined in its parent's page.
func bucketPage(t *testing.T, data []byte, name string) (id uint64, pageSize int) {
	t.Helper()
	le := binary.LittleEndian
	pageSize = int(le.Uint32(data[16+8:]))
	meta := 0
	if le.Uint64(data[pageSize+16+56:]) > le.Uint64(data[16+56:]) {
		meta = pageSize
	}
	root := le.Uint64(data[meta+16+16:])
	p := data[int(root)*pageSize:]
	if flags := le.Uint16(p[8:]); flags != 0x02 {
		t.Fatalf("the root bucket's page %d has flags %#x, not a leaf's: the store is larger than this test reads", root, flags)
	}
	for i := range int(le.Uint16(p[10:])) {
		e := p[16+16*i:]
		pos, ks := int(le.Uint32(e[4:])), int(le.Uint32(e[8:]))
		if string(e[pos:pos+ks]) == name {
			id = le.Uint64(e[pos+ks:])
			if id == 0 {
				t.Fatalf("the bucket %q is inlined in its parent's page", name)
			}
			return id, pageSize
		}
	}
	t.Fatalf("no bucket %q in the root page %d", name, root)
	return 0, 0
}

// Damage met by a running daemon's doors is named to whoever asked, and
// the daemon goes on: a page whose flags were changed (bbolt panics on
// it) and a file cut short under the daemon (bbolt's read of the mapped
// file past its end is a memory fault) make check-store and status
// through the control socket answer "the store is damaged", /health
// answer 503 naming the problem, and the journal's pages 500 with a short
// text; once the file is mended, the same requests succeed, served by the
// same daemon, whose /health tells of the damage met until it is started
// again.
func TestDamageAtTheDoors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, f *os.File, page int64, pageSize int)
		want   string // what bbolt says, in the answer
	}{
		{"page flags", func(t *testing.T, f *os.File, page int64, pageSize int) {
			if _, err := f.WriteAt([]byte{0x20, 0x00}, page*int64(pageSize)+8); err != nil {
				t.Fatal(err)
			}
		}, "page %d: damaged"},
		{"cut short", func(t *testing.T, f *os.File, page int64, pageSize int) {
			if err := f.Truncate(page * int64(pageSize)); err != nil {
				t.Fatal(err)
			}
		}, "cut short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := idleConfig(t, dir)
			db := cfg.Store.Path
			// Games enough for their bucket to have its own page, not to
			// be inlined in its parent's.
			var id string
			for range 6 {
				out := mustRun(t, "new", "--db", db, "--scenario", "intro", "--german", "german@idle.test", "--allied", "allied@idle.test", "--json")
				var made struct{ ID string }
				if err := json.Unmarshal([]byte(out), &made); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				id = made.ID
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := startIdle(t, ctx, cfg)
			stop := func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("serve: %v", err)
				}
			}
			defer func() { stop() }()
			// The welcomes sent, the daemon reads and writes nothing of
			// itself until its clock's next minute: the damage is met by
			// the requests alone, and the file mended is the file as the
			// daemon left it.
			waited := time.Now()
			waitfor.Until(t, time.Minute, func() bool {
				resp, err := forward(cfg.Store.ControlSocket, request{Version: protocol, Act: "status"})
				if err != nil || resp.Error != "" {
					t.Fatalf("status: %v %s", err, resp.Error)
				}
				return resp.Ops.Status.Queued == 0
			}, "the outbox to be empty")
			t.Logf("the outbox was empty %s after the daemon idled", time.Since(waited).Round(time.Millisecond))
			good, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			page, pageSize := bucketPage(t, good, "games")
			f, err := os.OpenFile(db, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tc.damage(t, f, int64(page), pageSize)

			web := "http://" + cfg.Web.Listen
			want := tc.want
			if strings.Contains(want, "%d") {
				want = fmt.Sprintf(want, page)
			}
			for _, act := range []string{"status", "games"} {
				resp, err := forward(cfg.Store.ControlSocket, request{Version: protocol, Act: act})
				if err != nil {
					t.Fatalf("%s through the socket: %v", act, err)
				}
				// The status tells the damage among its problems; a
				// reading act fails with it.
				answer := resp.Error
				if act == "status" && resp.Ops != nil && resp.Ops.Status != nil {
					answer += strings.Join(resp.Ops.Status.Problems, "\n")
				}
				if !strings.Contains(answer, " is damaged: ") || !strings.Contains(answer, want) {
					t.Errorf("%s through the socket answered %q, not the damage", act, answer)
				}
			}
			if code, out, errs := runT(t, "check-store", "--db", db); code != exitProblems && code != exitDamagedStore || !strings.Contains(out+errs, want) {
				t.Errorf("titm check-store: exit %d\n%s%s", code, out, errs)
			}
			get := func(path string) (int, string) {
				t.Helper()
				resp, err := http.Get(web + path)
				if err != nil {
					t.Fatalf("GET %s: %v", path, err)
				}
				defer resp.Body.Close()
				body, err := io.ReadAll(resp.Body)
				if err != nil {
					t.Fatalf("GET %s: %v", path, err)
				}
				return resp.StatusCode, string(body)
			}
			code, body := get("/health")
			var s struct {
				Healthy  bool
				Problems []string
			}
			if err := json.Unmarshal([]byte(body), &s); err != nil || code != http.StatusServiceUnavailable || s.Healthy ||
				len(s.Problems) != 1 || !strings.Contains(s.Problems[0], " is damaged") || !strings.Contains(s.Problems[0], want) {
				t.Errorf("/health on a damaged store: %d %v\n%s", code, err, body)
			}
			for _, path := range []string{"/", "/api/games", "/games/" + id, "/api/games/" + id} {
				if code, body := get(path); code != http.StatusInternalServerError || body == "" {
					t.Errorf("GET %s on a damaged store: %d\n%s", path, code, body)
				}
			}

			// Mended, the same daemon serves the same requests; its health
			// tells of the damage met until it is started again.
			if _, err := f.WriteAt(good, 0); err != nil {
				t.Fatal(err)
			}
			if code, out, errs := runT(t, "check-store", "--db", db); code != exitOK {
				t.Errorf("titm check-store on the mended store: exit %d\n%s%s", code, out, errs)
			}
			if code, body := get("/api/games/" + id); code != http.StatusOK {
				t.Errorf("GET /api/games/%s on the mended store: %d\n%s", id, code, body)
			}
			if code, body := get("/health"); code != http.StatusServiceUnavailable || !strings.Contains(body, "a request met damage in the store at ") ||
				!strings.Contains(body, want) {
				t.Errorf("/health on the mended store, before a restart: %d\n%s", code, body)
			}
			stop()
			ctx2, cancel2 := context.WithCancel(context.Background())
			done2 := startIdle(t, ctx2, cfg)
			stop = func() {
				cancel2()
				if err := <-done2; err != nil {
					t.Errorf("serve started again: %v", err)
				}
			}
			if code, body := get("/health"); code != http.StatusOK {
				t.Errorf("/health on the mended store, started again: %d\n%s", code, body)
			}
		})
	}
}
