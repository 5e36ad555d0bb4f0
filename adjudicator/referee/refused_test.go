package referee_test

import (
	"strings"
	"testing"
	"time"

	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

// A mail whose orders are refused still has its requests answered: the
// errors first, as they read without the requests, then the answers, each
// the text the request gives in a mail that is not refused, with STATUS's
// and BRIEF's picture; nothing of the game changes and no record is kept.
// A setting asked for is not kept, and the answer says so; CHECK answers
// the errors itself, once.
func TestRequestsAnsweredWhenRefused(t *testing.T) {
	texts := map[string]struct{ heading, standing, unkept string }{
		lang.English: {"The answers to your requests:", "\nYour standing orders on file:\n", "not kept, as nothing in your mail was applied"},
		"ja":         {"問い合わせへの回答:", "\n登録済みの常時命令:\n", "このメールの内容は何も適用されていないため、保持されていません"},
	}
	// The orders refused: a line that does not read, a move the position
	// refuses, and orders out of turn.
	bad := []struct {
		name string
		side rules.Side
		mail string
	}{
		{"a line that does not read", rules.German, "IMPULSE 16-1\nMOVE 352/914 23 24\nATACK 24\n"},
		{"a move the position refuses", rules.German, "IMPULSE 16-1\nMOVE 352/914 23 24\nMOVE 212/316 18 10\n"},
		{"out of turn", rules.Allied, "IMPULSE 16-1\n"},
	}
	for _, code := range []string{lang.English, "ja"} {
		tx := texts[code]
		opt := &referee.Options{Address: "referee@example.org", MapPicture: true}
		if code != lang.English {
			opt.Languages = map[string]string{"hasso@example.org": code, "troy@example.org": code}
		}
		ref := referee.New(opt)
		st, id, tokens := newGame(t, ref, "intro")
		begin(t, ref, st, id)
		mail := func(side rules.Side, text string) *referee.Result {
			return act(t, st, func(tx *store.Tx) (*referee.Result, error) {
				return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, start.Add(time.Hour))
			})
		}
		// stored is the game's record count and the side's settings.
		stored := func(side rules.Side) (records int, settings string) {
			err := st.View(func(tx *store.Tx) error {
				g, err := tx.Game(id)
				if err != nil {
					return err
				}
				p := g.Players[side]
				records, settings = g.Log, p.Language+" pictures:"+map[bool]string{true: "on", false: "off"}[p.Pictures()]
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return records, settings
		}
		for _, b := range bad {
			alone := mail(b.side, b.mail)
			if !alone.Refused || alone.ReplyMap != nil {
				t.Fatalf("%s %s: the bad mail alone: refused %v, a picture %v:\n%s", code, b.name, alone.Refused, alone.ReplyMap != nil, alone.Reply)
			}
			errs := alone.Reply[:strings.LastIndex(alone.Reply, tx.standing)]
			for _, q := range []string{"HELP", "STATUS", "UNITS", "BRIEF", "DICE", "ORDERS"} {
				name := code + " " + b.name + " " + q
				records, settings := stored(b.side)
				res := mail(b.side, b.mail+q+"\n")
				if r, s := stored(b.side); r != records || s != settings || len(res.Records) != 0 || len(res.Mails) != 0 {
					t.Errorf("%s: records %d -> %d (%d in the result, %d mails), settings %q -> %q", name, records, r, len(res.Records), len(res.Mails), settings, s)
				}
				// The same request in a mail of its own, accepted.
				ok := mail(b.side, q+"\n")
				if ok.Refused {
					t.Fatalf("%s alone refused:\n%s", q, ok.Reply)
				}
				answer := strings.TrimRight(ok.Reply[:strings.LastIndex(ok.Reply, tx.standing)], "\n")
				if !res.Refused || len(res.Errors) != len(alone.Errors) || res.Outcome != alone.Outcome+", answered "+q {
					t.Errorf("%s: refused %v with %d errors, outcome %q; want %d, %q", name, res.Refused, len(res.Errors), res.Outcome, len(alone.Errors), alone.Outcome+", answered "+q)
				}
				if !strings.HasPrefix(res.Reply, errs) {
					t.Errorf("%s: the reply does not begin with the errors\n%s\nit is:\n%s", name, errs, res.Reply)
					continue
				}
				rest := res.Reply[len(errs):]
				h := strings.Index(rest, tx.heading)
				if h < 0 || !strings.Contains(rest[h:], answer) || !strings.HasSuffix(rest, tx.standing+ok.Reply[strings.LastIndex(ok.Reply, tx.standing)+len(tx.standing):]) {
					t.Errorf("%s: below the errors, not %q then the answer\n%s\nbut:\n%s", name, tx.heading, answer, rest)
				}
				if (res.ReplyMap != nil) != (ok.ReplyMap != nil) {
					t.Errorf("%s: a picture %v; the request alone brings one %v", name, res.ReplyMap != nil, ok.ReplyMap != nil)
				}
			}
			// A setting is not kept by a refused mail.
			other := map[string]string{lang.English: "ja", "ja": "en"}[code]
			for _, q := range []string{"PICTURE OFF", "LANGUAGE " + other} {
				name := code + " " + b.name + " " + q
				records, settings := stored(b.side)
				res := mail(b.side, b.mail+q+"\nUNITS\n")
				if r, s := stored(b.side); r != records || s != settings || len(res.Records) != 0 {
					t.Errorf("%s: records %d -> %d, settings %q -> %q", name, records, r, settings, s)
				}
				if !res.Refused || !strings.HasPrefix(res.Reply, errs) || !inOrder(res.Reply[len(errs):], []string{tx.heading, q + ": " + tx.unkept}) {
					t.Errorf("%s: refused %v, the reply:\n%s", name, res.Refused, res.Reply)
				}
				if strings.Contains(res.Reply, "is kept for game") || strings.Contains(res.Reply, "を保持します") {
					t.Errorf("%s: the reply says the setting is kept:\n%s", name, res.Reply)
				}
			}
		}
		// A request before the orders is answered below the errors all the
		// same; so are the requests of a mail refused for one of them.
		for _, c := range []struct{ name, mail, err string }{
			{"UNITS first", "UNITS\nIMPULSE 16-1\nATACK 24\n", "ATACK 24"},
			{"CONCEDE with CHECK", "CHECK\nCONCEDE\nUNITS\n", "CONCEDE: "},
		} {
			records, _ := stored(rules.German)
			res := mail(rules.German, c.mail)
			units := strings.TrimRight(mail(rules.German, "UNITS\n").Reply, "\n")
			units = units[:strings.LastIndex(units, strings.TrimRight(tx.standing, "\n"))]
			if r, _ := stored(rules.German); !res.Refused || r != records || len(res.Records) != 0 {
				t.Errorf("%s %s: refused %v, records %d -> %d", code, c.name, res.Refused, records, r)
			}
			e, h := strings.Index(res.Reply, c.err), strings.Index(res.Reply, tx.heading)
			if e < 0 || h < e || !strings.Contains(res.Reply[h:], strings.TrimRight(units, "\n")) {
				t.Errorf("%s %s: not the error, then %q and the units:\n%s", code, c.name, tx.heading, res.Reply)
			}
		}
		// CHECK is a dry run, not a refusal: its answer is the errors, once,
		// and the mail's other requests are answered beside it.
		records, _ := stored(rules.German)
		res := mail(rules.German, bad[0].mail+"CHECK\nUNITS\n")
		if r, _ := stored(rules.German); res.Refused || r != records || len(res.Records) != 0 {
			t.Errorf("%s CHECK: refused %v, records %d -> %d", code, res.Refused, records, r)
		}
		if n := strings.Count(res.Reply, "ATACK 24"); n != 1 || strings.Contains(res.Reply, tx.heading) {
			t.Errorf("%s CHECK: the error told %d times, or under a heading:\n%s", code, n, res.Reply)
		}
	}
}
