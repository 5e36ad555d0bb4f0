package journal

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/internal/playtest"
	"titm/rules"
	"titm/rules/scenarios"
)

// memSource is a Source in memory: one game and its log, which a test may
// change behind the journal's back.
type memSource struct {
	g   *adjudicator.Game
	log []adjudicator.Record
	ver int
}

func (m *memSource) lookup(id string) error {
	if id != m.g.ID {
		return fmt.Errorf("game %s: %w", id, ErrNotFound)
	}
	return nil
}

func (m *memSource) Games() ([]*adjudicator.Game, error) { return []*adjudicator.Game{m.g}, nil }
func (m *memSource) Summary(id string) (*adjudicator.Game, error) {
	return m.g, m.lookup(id)
}
func (m *memSource) LastRecord(id string) (adjudicator.Record, error) {
	return m.log[len(m.log)-1], m.lookup(id)
}
func (m *memSource) Game(id string) (*adjudicator.Game, []adjudicator.Record, error) {
	return m.g, m.log, m.lookup(id)
}
func (m *memSource) Version() (string, error) { return fmt.Sprint(m.ver), nil }

// played makes a game of the intro scenario and plays n impulses of it, or
// to the end when n < 0.
func played(t *testing.T, n int) *memSource {
	t.Helper()
	s, files, main, err := scenarios.LoadFiles("intro")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	g, log, err := adjudicator.New(adjudicator.Options{ID: "intro-1", Scenario: s, Files: files, Main: main,
		German: "g@example.test", Allied: "a@example.test", Deadline: 72 * time.Hour,
		Tokens: map[rules.Side]string{rules.German: "gggg-gggg-gggg", rules.Allied: "aaaa-aaaa-aaaa"},
		Secret: []byte(strings.Repeat("s", adjudicator.SeedSize)), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	add := func(recs []adjudicator.Record, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, recs...)
	}
	add(g.Join(rules.German, "g", now))
	add(g.Join(rules.Allied, "a", now))
	for i := 0; (n < 0 || i < n) && g.Status == adjudicator.Playing; i++ {
		now = now.Add(time.Hour)
		text, err := playtest.EveryAttack(s, g.State)
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := g.Submit(g.ToMove(), fmt.Sprintf("IMPULSE %d-%d\n%s", g.Next.Day, g.Next.N, text), now)
		add(recs, err)
	}
	return &memSource{g: g, log: log}
}

func body(t *testing.T, j *Journal, path string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	j.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, string(b)
}

// A log the replay finds changed still has its page: the impulses are all
// listed, the reports up to the change, and what differs is said; a
// finished game's stamp says NOT verified.
func TestChangedLog(t *testing.T) {
	for _, tt := range []struct {
		name    string
		n       int
		want    []string
		notWant []string
	}{
		{"in play", 4, []string{"could not all be written again from the log: record 6 and after", "Impulse G16-2, German"}, []string{"Verified by the referee"}},
		{"finished", -1, []string{"NOT verified: record 6", "could not all be written again", "Impulse A18-3, Allied"}, []string{"Verified by the referee"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := played(t, tt.n)
			// The events of the third impulse, G16-2 (record 6), changed.
			src.log[6].Events = append([]string(nil), src.log[6].Events...)
			src.log[6].Events[0] += " (changed)"
			j := New(src, nil)
			code, page := body(t, j, "/games/intro-1")
			if code != 200 {
				t.Fatalf("status %d", code)
			}
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("no %q", w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(page, w) {
					t.Errorf("%q", w)
				}
			}
			// The impulses before the change have their reports; those
			// after are listed without.
			if got := strings.Count(page, "<pre>"); got != 2 {
				t.Errorf("%d reports on the page, want 2", got)
			}
		})
	}
}
