package mail_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	acts "titm/adjudicator/referee"
	"titm/mail"
	"titm/store"
)

// fuzzToken is the German player's token in the fuzzed game, set in place
// of the random one so that the corpus's mails, which carry it, pass the
// token check and reach the order parser and the position.
const fuzzToken = "fuzz-german-token-0001"

// fuzzWorld is a game in progress (G16-1, the German player to move), whose
// German token is fuzzToken, and a handler for it.
func fuzzWorld(tb testing.TB) (*world, *mail.Handler, time.Time) {
	w := newWorld(tb, &worldOptions{noStart: true})
	// Mails up to the default limit are read whole, as in service.
	w.cfg.Referee.MaxMessageBytes = 262144
	h := mail.NewHandler(w.cfg, quiet())
	now := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	w.joinDirect(h, now)
	err := w.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(w.game)
		if err != nil {
			return err
		}
		g.Players["german"].TokenHash = adjudicator.HashToken(fuzzToken)
		return tx.SaveGame(g, nil)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return w, h, now
}

// errRollback ends a fuzzed mail's transaction, so that every input meets
// the same game.
var errRollback = errors.New("rolled back")

// handleOnce handles one raw mail as the inbox does, and returns the outcome
// and the texts of the answers it queues; nothing is kept.
func handleOnce(w *world, h *mail.Handler, raw []byte, now time.Time) (string, []string, error) {
	var outcome string
	var replies []string
	err := w.st.Update(func(tx *store.Tx) error {
		var err error
		if outcome, err = h.Handle(tx, mail.MessageKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1 << 30}, raw, int64(len(raw)), now); err != nil {
			return err
		}
		q, err := tx.Outbox(store.MailQueued)
		if err != nil {
			return err
		}
		for _, m := range q {
			if m.Kind != acts.KindReply {
				continue
			}
			if m.Deferred {
				var d struct {
					Out struct{ Text string } `json:"out"`
				}
				if err := json.Unmarshal(tx.MailData(m.ID), &d); err != nil {
					return err
				}
				replies = append(replies, d.Out.Text)
				continue
			}
			in, err := mail.ParseIncoming(tx.MailData(m.ID))
			if err != nil {
				return err
			}
			replies = append(replies, in.Text)
		}
		return errRollback
	})
	if errors.Is(err, errRollback) {
		err = nil
	}
	return outcome, replies, err
}

// FuzzIncoming fuzzes the whole way a mail comes in, from its raw bytes as
// the IMAP server gives them: MIME and transfer encodings, charsets, HTML
// to text, the header fields, delivery reports, then the TOKEN and GAME
// lines, quoted replies and signatures, the order parser, and the orders
// checked against the position, as Handler.Handle does in service. The
// corpus (testdata/fuzz/FuzzIncoming) holds mails in the shapes real
// clients send. A fault of the referee's own (a panic, which Handle turns
// into an InternalError) fails, as does an answer over the 64 KB cap.
func FuzzIncoming(f *testing.F) {
	w, h, now := fuzzWorld(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		outcome, replies, err := handleOnce(w, h, raw, now)
		if err != nil {
			t.Fatalf("handling the mail: %v (outcome %q)", err, outcome)
		}
		for _, r := range replies {
			if len(r) > 64<<10 {
				t.Errorf("an answer of %d bytes, over the 64 KB cap", len(r))
			}
		}
	})
}

// The corpus's mails are what they are meant to be: each is read, and each
// of a player reaches the order parser with its token accepted, so that the
// fuzzer starts from mails that go all the way in.
func TestFuzzCorpus(t *testing.T) {
	w, h, now := fuzzWorld(t)
	files, err := filepath.Glob("testdata/fuzz/FuzzIncoming/*")
	if err != nil || len(files) < 9 {
		t.Fatalf("the corpus: %d files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw := corpusBytes(t, f)
			outcome, _, err := handleOnce(w, h, raw, now)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(filepath.Base(f), "crash-") {
				return // a regression seed needs only to be handled
			}
			in, perr := mail.ParseIncoming(raw)
			if perr != nil {
				t.Fatalf("ParseIncoming: %v", perr)
			}
			if filepath.Base(f) == "dsn" {
				if len(in.Bounce) == 0 || len(in.Quoted) == 0 {
					t.Errorf("the report: bounce %q, quoted %q", in.Bounce, in.Quoted)
				}
				return
			}
			if strings.Contains(outcome, "token") || strings.Contains(outcome, "refused: unreadable") || strings.Contains(in.Text, "not-mine") && !strings.Contains(in.Text, "From: titm referee") {
				t.Errorf("outcome %q; text:\n%s", outcome, in.Text)
			}
			if !strings.Contains(in.Text, "TOKEN "+fuzzToken) || !strings.Contains(in.Text, "212/423") {
				t.Errorf("the text lacks the token or the orders:\n%s", in.Text)
			}
		})
	}
}

// corpusBytes reads a file of the fuzz corpus: "go test fuzz v1" and one
// []byte literal.
func corpusBytes(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, lit, ok := strings.Cut(strings.TrimSpace(string(data)), "\n")
	lit, ok2 := strings.CutPrefix(lit, "[]byte(")
	lit, ok3 := strings.CutSuffix(lit, ")")
	if !ok || !ok2 || !ok3 {
		t.Fatalf("%s is not a []byte corpus file", file)
	}
	s, err := strconv.Unquote(lit)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return []byte(s)
}
