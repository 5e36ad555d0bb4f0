package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/mail"
	"titm/store"
)

// /health answers 503, naming the problem, in every state the daemon is
// unhealthy in, each made for real on a store and a daemon whose clock
// the test sets: the outbox stuck, the IMAP server out of reach, a mail
// record that does not decode (it used to give 500). A damaged page is
// TestDamageAtTheDoors's. A healthy daemon answers 200.
func TestHealthEveryProblem(t *testing.T) {
	t0 := time.Date(2026, 12, 16, 12, 0, 0, 0, time.UTC)
	queue := func(at time.Time) func(t *testing.T, tx *store.Tx) error {
		return func(t *testing.T, tx *store.Tx) error {
			return tx.Queue(&store.Mail{From: "referee@health.test", To: []string{"g@health.test"}, Subject: "corrupt-me",
				Data: []byte("Subject: corrupt-me\r\n\r\nhello\r\n"), Created: at})
		}
	}
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T, tx *store.Tx) error
		corrupt bool          // a byte of the mail's record changed on disk
		after   time.Duration // the clock's time after the daemon's start
		want    string        // the problem; "" for healthy
	}{
		{"healthy", queue(t0), false, 14 * time.Minute, ""},
		{"the outbox stuck", queue(t0.Add(-2 * time.Hour)), false, 0, "the outbox is stuck: a mail has waited 2h0m0s"},
		{"the IMAP server out of reach", nil, false, 16 * time.Minute, "the IMAP server has been out of reach for 16m0s"},
		{"a corrupt mail record", queue(t0), true, 0, "the store cannot be read: the store's status: store: mail 0000000000000001: invalid character"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "titm.db")
			st, err := store.Open(db, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.prepare != nil {
				if err := st.Update(func(tx *store.Tx) error { return c.prepare(t, tx) }); err != nil {
					t.Fatal(err)
				}
			}
			if c.corrupt {
				st.Close()
				data, err := os.ReadFile(db)
				if err != nil {
					t.Fatal(err)
				}
				rec := []byte(`"subject":"corrupt-me"`)
				if bytes.Count(data, rec) == 0 {
					t.Fatal("the mail's record is not in the file")
				}
				os.WriteFile(db, bytes.ReplaceAll(data, rec, []byte("\"subject\":\x97corrupt-me\"")), 0o600)
				if st, err = store.Open(db, nil); err != nil {
					t.Fatal(err)
				}
			}
			defer st.Close()
			cfg, err := ParseConfig("health", []byte(`[store]
path = "unused.db"
[referee]
address = "referee@health.test"
[imap]
address = "127.0.0.1:1"
username = "referee@health.test"
password = "r"
[smtp]
address = "127.0.0.1:1"
`), func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			now := t0
			d := mail.NewDaemon(&cfg.Config, st, slog.New(slog.DiscardHandler), func() time.Time { return now })
			now = t0.Add(c.after)
			wb, err := StartWeb("127.0.0.1:0", d.Status, nil, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			defer wb.Close()
			resp, err := http.Get("http://" + wb.Addr() + "/health")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var s mail.Status
			if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
				t.Fatalf("%d: %v", resp.StatusCode, err)
			}
			got := fmt.Sprintf("%d %q", resp.StatusCode, s.Problems)
			if c.want == "" {
				if resp.StatusCode != http.StatusOK || !s.Healthy || len(s.Problems) > 0 {
					t.Errorf("healthy: %s", got)
				}
				return
			}
			if resp.StatusCode != http.StatusServiceUnavailable || s.Healthy || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], c.want) {
				t.Errorf("got %s, want 503 and %q", got, c.want)
			}
			if !s.Running {
				t.Errorf("the status says the daemon is not running: %+v", s)
			}
		})
	}
}
