package mail_test

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	refpkg "titm/adjudicator/referee"
	"titm/mail"
	"titm/rules"
	"titm/rules/scenarios"
	"titm/store"
)

// The pictures of the mails due at once are drawn in lanes of their own,
// ahead of the mails, as many at once as the processor has cores: with
// the reports of several games due, pictures of different impulses are
// drawn at the same time, each once.
func TestPicturesDrawnInLanes(t *testing.T) {
	t.Parallel()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: one lane")
	}
	const games = 6
	var users []string
	for i := range games {
		users = append(users, playerOf(rules.German, i), playerOf(rules.Allied, i))
	}
	w := newWorld(t, &worldOptions{extra: "map_picture = true", noStart: true, users: users})
	type span struct {
		snapshot string
		from, to time.Time
	}
	var (
		mu    sync.Mutex
		spans []span
	)
	w.logger = logOn("map picture drawn", func(r slog.Record) {
		took, err := time.ParseDuration(attr(r, "took"))
		if err != nil {
			t.Errorf("map picture drawn: took %q: %v", attr(r, "took"), err)
		}
		mu.Lock()
		defer mu.Unlock()
		spans = append(spans, span{attr(r, "snapshot"), r.Time.Add(-took), r.Time})
	})
	addCampaignGames(t, w, "lanes", games, playerOf)
	// Every game's orders are in the folder before the daemon starts: the
	// reports are due together.
	for i := range games {
		if err := w.srv.Deliver(referee, campaignOrders("lanes", i, playerOf)); err != nil {
			t.Fatal(err)
		}
	}
	w.start()
	// Six campaign pictures: under -race, on a machine busy with other
	// work, they took more than settle's 15 s.
	w.settleWithin(2 * time.Minute)
	for i := range games {
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			ms := w.inbox(playerOf(side, i))
			// Each its own game's: the mails of a connection are
			// composed in the same buffer, one after the other.
			if len(ms) != 1 || !strings.Contains(ms[0].Subject, "G16-1 played") || !strings.Contains(ms[0].Subject, fmt.Sprintf("[lanes-%d]", i)) ||
				!slices.Equal(ms[0].Attachments, []string{fmt.Sprintf("lanes-%d-G16-1.png", i)}) {
				t.Errorf("%s: %d mails, want the report of G16-1 of lanes-%d with its map", playerOf(side, i), len(ms), i)
				for _, m := range ms {
					t.Logf("%q with %q", m.Subject, m.Attachments)
				}
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	drawn, together := map[string]int{}, 0
	for i, a := range spans {
		drawn[a.snapshot]++
		for _, b := range spans[i+1:] {
			if a.from.Before(b.to) && b.from.Before(a.to) {
				together++
			}
		}
	}
	if len(drawn) != games || len(spans) != games {
		t.Errorf("%d pictures drawn of %d impulses: %v", len(spans), games, drawn)
	}
	if together == 0 {
		t.Errorf("no two of the %d pictures were drawn at the same time: %v", len(spans), spans)
	}
}

// TestPicturesNotMixed: with the reports of many games due at once, drawn
// in a few lanes ahead of their mails in buffers used again from picture
// to picture, every report carries its own game's picture, byte for byte
// the picture of its snapshot drawn on its own: a buffer freed while a
// mail still held it would carry another game's picture, or (freed
// buffers being cleared here) no PNG at all. Run it with -race too.
func TestPicturesNotMixed(t *testing.T) {
	const games = 14 // over twice what is drawn ahead and kept
	var users []string
	for i := range games {
		users = append(users, playerOf(rules.German, i), playerOf(rules.Allied, i))
	}
	w := newWorld(t, &worldOptions{extra: "map_picture = true", noStart: true, users: users})
	var (
		mu    sync.Mutex
		snaps = map[string][]byte{} // by game, the snapshot its picture is drawn from
	)
	w.logger = logOn("map picture drawn", func(r slog.Record) {
		// Logged once the picture is drawn, before its mails are sent and
		// its snapshot forgotten.
		err := w.st.View(func(tx *store.Tx) error {
			data := tx.Snapshot(attr(r, "snapshot"))
			if data == nil {
				return fmt.Errorf("snapshot %s is gone", attr(r, "snapshot"))
			}
			mu.Lock()
			defer mu.Unlock()
			snaps[attr(r, "game")] = slices.Clone(data)
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	})
	addCampaignGames(t, w, "mixed", games, playerOf)
	for i := range games {
		if err := w.srv.Deliver(referee, campaignOrders("mixed", i, playerOf)); err != nil {
			t.Fatal(err)
		}
	}
	w.start(mail.ScribbleFreedPictures) // freed buffers cleared
	w.settleWithin(2 * time.Minute)     // 28 campaign pictures, under -race too
	mu.Lock()
	defer mu.Unlock()
	s, err := scenarios.Load("campaign")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for i := range games {
		game := fmt.Sprintf("mixed-%d", i)
		snap, err := refpkg.ReadSnapshot(snaps[game])
		if err != nil {
			t.Errorf("%s: the snapshot of its picture: %v", game, err)
			continue
		}
		var b bytes.Buffer
		if err := snap.Draw(&b, s); err != nil {
			t.Fatal(err)
		}
		want := b.Bytes()
		for _, side := range []rules.Side{rules.German, rules.Allied} {
			raws := w.rawInbox(playerOf(side, i))
			if len(raws) != 1 {
				t.Errorf("%s: %d mails, want the report of G16-1 of %s", playerOf(side, i), len(raws), game)
				continue
			}
			name, got := attachment(t, raws[0])
			if name != game+"-G16-1.png" {
				t.Errorf("%s: the report carries %q, want %s's picture", playerOf(side, i), name, game)
			}
			if _, err := png.Decode(bytes.NewReader(got)); err != nil {
				t.Errorf("%s: the picture is no PNG: %v", playerOf(side, i), err)
			} else if !bytes.Equal(got, want) {
				t.Errorf("%s: the picture of %d bytes is not its snapshot's (%d bytes)", playerOf(side, i), len(got), len(want))
			}
			seen++
		}
	}
	if seen != 2*games {
		t.Errorf("%d pictures compared, want %d", seen, 2*games)
	}
}

// attachment returns the name and contents of a mail's one attachment.
func attachment(t *testing.T, raw []byte) (string, []byte) {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*gomail.AttachmentHeader); ok {
			name, _ := h.Filename()
			data, err := io.ReadAll(p.Body)
			if err != nil {
				t.Fatalf("attachment %s: %v", name, err)
			}
			return name, data
		}
	}
}
