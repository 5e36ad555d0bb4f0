package referee_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/referee"
	"titm/rules"
	"titm/store"
)

var start = time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)

// game makes a store under the test's directory with an intro game and an
// observer, and returns the store, the game's id and the tokens.
func game(t testing.TB, ref *referee.Referee) (*store.Store, string, map[rules.Side]string) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var c *referee.Created
	err = st.Update(func(tx *store.Tx) error {
		c, err = ref.New(tx, referee.NewGame{Scenario: "intro", German: "Hasso@Example.org", Allied: "troy@example.org",
			Observers: []string{"Umpire@Example.org"}, Deadline: 48 * time.Hour}, start)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, c.Game.ID, c.Tokens
}

// act runs an act in one transaction.
func act(t testing.TB, st *store.Store, fn func(tx *store.Tx) (*referee.Result, error)) *referee.Result {
	t.Helper()
	var res *referee.Result
	err := st.Update(func(tx *store.Tx) error {
		var err error
		res, err = fn(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// recipients lists a result's mails as kind:address.
func recipients(res *referee.Result) string {
	var out []string
	for _, m := range res.Mails {
		out = append(out, m.Kind+":"+strings.Join(m.To, ","))
	}
	return strings.Join(out, " ")
}

// A game's life through the acts, and who each act tells (B8, B10).
func TestActs(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", MaxExtensions: 1, MaxExtension: 48 * time.Hour, Reminder: 12 * time.Hour})
	st, id, tokens := game(t, ref)
	german, allied := rules.German, rules.Allied
	steps := []struct {
		name    string
		at      time.Duration // after start
		fn      func(tx *store.Tx, now time.Time) (*referee.Result, error)
		to      string // the mails' kinds and recipients
		reply   string // in the reply to the caller
		refused bool
		records int
	}{
		{name: "B10: the first JOIN is answered, and tells nobody else", at: time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Join(tx, id, german, "hasso's seed", now)
			},
			reply: `You have joined game intro-1 with the seed "hasso's seed".`, records: 1},
		{name: "B10: a second JOIN of the same side is refused", at: time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Join(tx, id, german, "again", now)
			},
			reply: "JOIN: the German player has already joined game intro-1.", refused: true},
		{name: "B10: the other JOIN begins the game, for everyone", at: 2 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Orders(tx, id, allied, "GAME intro-1\nTOKEN "+tokens[allied]+"\nJOIN SEED troy's seed\n", now)
			},
			to:    "report:hasso@example.org report:troy@example.org report:umpire@example.org",
			reply: `You have joined game intro-1 with the seed "troy's seed".`, records: 2},
		{name: "orders with an error are refused whole, with every error", at: 3 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Orders(tx, id, german, "IMPULSE 16-1\nMOVE nobody 1 2\nMARCH on\n", now)
			},
			reply: "Your orders have 2 error(s)", refused: true},
		{name: "a player's EXTEND within the limits tells everyone", at: 4 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Orders(tx, id, german, "EXTEND 24h", now)
			},
			to:    "report:hasso@example.org report:troy@example.org report:umpire@example.org",
			reply: "", records: 1},
		{name: "beyond them it is refused", at: 5 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Orders(tx, id, german, "EXTEND 24h", now)
			},
			reply: "EXTEND: you have had the 1 extensions a player may have in a game.", refused: true},
		{name: "the director pauses, and everyone is told", at: 6 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Pause(tx, id, "a player is ill", now)
			},
			to:    "report:hasso@example.org report:troy@example.org report:umpire@example.org",
			reply: "done; log head", records: 1},
		{name: "and resumes", at: 7 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Resume(tx, id, "he is well", now)
			},
			to:    "report:hasso@example.org report:troy@example.org report:umpire@example.org",
			reply: "done; log head", records: 1},
		{name: "a reminder goes to the player to move alone", at: 64 * time.Hour, // due at 75h: 2h + 48h + 24h extended + 1h paused
			fn:      func(tx *store.Tx, now time.Time) (*referee.Result, error) { return ref.Deadline(tx, id, now) },
			to:      "reminder:hasso@example.org",
			records: 0},
		{name: "B8: past the deadline the impulse is passed, and reported to everyone", at: 75*time.Hour + time.Minute,
			fn:      func(tx *store.Tx, now time.Time) (*referee.Result, error) { return ref.Deadline(tx, id, now) },
			to:      "report:hasso@example.org report:troy@example.org report:umpire@example.org",
			records: 1},
	}
	for _, s := range steps {
		var before int
		st.View(func(tx *store.Tx) error { g, _ := tx.Summary(id); before = g.Log; return nil })
		res := act(t, st, func(tx *store.Tx) (*referee.Result, error) { return s.fn(tx, start.Add(s.at)) })
		var after int
		st.View(func(tx *store.Tx) error { g, _ := tx.Summary(id); after = g.Log; return nil })
		if got := recipients(res); got != s.to {
			t.Errorf("%s: mails %q, want %q", s.name, got, s.to)
		}
		if !strings.Contains(res.Reply, s.reply) {
			t.Errorf("%s: reply %q, want %q in it", s.name, res.Reply, s.reply)
		}
		if res.Refused != s.refused || after-before != s.records || len(res.Records) != s.records {
			t.Errorf("%s: refused %v, %d records (%d in the log); want %v, %d", s.name, res.Refused, len(res.Records), after-before, s.refused, s.records)
		}
	}
}

// A mail with a line that does not read and a line the position refuses
// gets one answer with both errors, in line order, whether it gives the
// orders or asks to CHECK them; nothing is applied.
func TestEveryErrorInOneAnswer(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	orders := "GAME " + id + "\nIMPULSE 16-1\nMOVE 352/914 23 24\nATACK 24\nMOVE 212/316 18 10\n"
	for _, mail := range []string{orders, orders + "CHECK\n"} {
		res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, rules.German, mail, start.Add(time.Hour))
		})
		parse := strings.Index(res.Reply, "line 4: ATACK 24\n  unknown order \"ATACK\"")
		pos := strings.Index(res.Reply, "line 5: MOVE 212/316 18 10\n  the move would make a German stack")
		if !res.Refused || len(res.Errors) != 2 || parse < 0 || pos < parse || !strings.Contains(res.Reply, "Your orders have 2 error(s)") || len(res.Records) != 0 {
			t.Errorf("%q: refused %v, %d records, reply:\n%s", mail, res.Refused, len(res.Records), res.Reply)
		}
	}
}

// A director's act without a reason is refused and keeps nothing.
func TestDirectorNeedsReason(t *testing.T) {
	ref := referee.New(nil)
	st, id, _ := game(t, ref)
	err := st.Update(func(tx *store.Tx) error {
		_, err := ref.Pause(tx, id, " ", start)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "reason") {
		t.Errorf("a pause without a reason: %v", err)
	}
}

// The welcome mails carry each player's token, which authenticates him.
func TestNewWelcomes(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var c *referee.Created
	st.Update(func(tx *store.Tx) error {
		c, err = ref.New(tx, referee.NewGame{Scenario: "intro", German: "a@example.org", Allied: "b@example.org", Deadline: time.Hour}, start)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := recipients(c.Result); got != "welcome:a@example.org welcome:b@example.org" {
		t.Fatalf("welcomes %q", got)
	}
	for i, side := range []rules.Side{rules.German, rules.Allied} {
		m := c.Mails[i]
		if !m.Secret || !strings.Contains(m.Text, "TOKEN "+c.Tokens[side]) || !strings.Contains(m.Text, "(to referee@example.org)") {
			t.Errorf("the %s welcome: secret %v\n%s", side, m.Secret, m.Text)
		}
		if !c.Game.Authentic(side, c.Tokens[side]) || c.Game.Authentic(side.Enemy(), c.Tokens[side]) {
			t.Errorf("the %s token does not authenticate its player alone", side)
		}
	}
	for _, bad := range []referee.NewGame{
		{Scenario: "intro", German: "a@example.org", Allied: "A@Example.org", Deadline: time.Hour},
		{Scenario: "intro", German: "not an address", Allied: "b@example.org", Deadline: time.Hour},
		{Scenario: "no-such-scenario", German: "a@example.org", Allied: "b@example.org", Deadline: time.Hour},
	} {
		st.Update(func(tx *store.Tx) error { _, err = ref.New(tx, bad, start); return nil })
		if err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// The requests parse as the referee reads them, and print back as they
// were read.
func TestRequests(t *testing.T) {
	for _, c := range []struct {
		in   string
		want rules.Order
	}{
		{"HELP", referee.HelpRequest{}},
		{"status", referee.StatusRequest{}},
		{"draw accept", referee.DrawRequest{Accept: true}},
		{"join seed  Lucky,   Seven >> 7", referee.JoinRequest{Seed: "Lucky, Seven >> 7"}},
		{"EXTEND 24H", referee.ExtendRequest{Hours: 24}},
		{"GAME bulge-7", adjudicator.GameLine{ID: "bulge-7"}},
	} {
		o, err := referee.ParseOrders(c.in, nil, "")
		if err != nil || len(o.List) != 1 || o.List[0] != c.want {
			t.Errorf("%q: %v, %v; want %v", c.in, o, err, c.want)
			continue
		}
		if rules.ClassOf(o.List[0]) == rules.ImpulseOrder {
			t.Errorf("%q is classed as an impulse's order", c.in)
		}
	}
	for in, want := range map[string]string{
		"EXTEND 0h":  "0h is not a time",
		"JOIN SEED":  "SEED needs your text",
		"HELP me":    `"me" is more than HELP takes`,
		"GAME":       "the game's id is missing",
		"STATUS now": `"now" is more than STATUS takes`,
	} {
		_, err := referee.ParseOrders(in, nil, "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want %q", in, err, want)
		}
	}
}

// The acts need no mail: a game is made, joined and its first impulse
// passed at its deadline, each in one transaction.
func Example() {
	dir, _ := os.MkdirTemp("", "referee-example")
	defer os.RemoveAll(dir)
	st, _ := store.Open(filepath.Join(dir, "titm.db"), nil)
	defer st.Close()
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	var id string
	st.Update(func(tx *store.Tx) error {
		c, _ := ref.New(tx, referee.NewGame{Scenario: "intro", German: "g@example.org", Allied: "a@example.org", Deadline: 48 * time.Hour}, start)
		id = c.Game.ID
		fmt.Println(c.Outcome, "-", len(c.Mails), "welcome mails")
		return nil
	})
	st.Update(func(tx *store.Tx) error {
		ref.Join(tx, id, rules.German, "one", start)
		res, _ := ref.Join(tx, id, rules.Allied, "two", start)
		fmt.Println(res.Outcome, "-", len(res.Mails), "mails:", res.Mails[0].Subject)
		return nil
	})
	st.Update(func(tx *store.Tx) error {
		res, _ := ref.Deadline(tx, id, start.Add(49*time.Hour))
		fmt.Println(res.Outcome)
		return nil
	})
	// Output:
	// made game intro-1 - 2 welcome mails
	// joined, started - 2 mails: [intro-1] Game intro-1 (intro) begins: both players have joined
	// deadline passed: played G16-1
}

// B1, B3: a side's standing orders are its own. Given with an impulse's
// orders, they are kept and echoed to their author alone; the report the
// opponent and the observers read lists the impulse's orders without them.
func TestStandingOrdersPrivate(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, tokens := game(t, ref)
	act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, rules.German, "one", start) })
	act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, rules.Allied, "two", start) })
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Orders(tx, id, rules.German, "GAME "+id+"\nTOKEN "+tokens[rules.German]+
			"\nIMPULSE 16-1\nBLOW NONE\nENTRENCH 212/423\nDEFEND PREFER ARMOR\n", start.Add(time.Hour))
	})
	if res.Outcome != "played G16-1" || len(res.Mails) != 3 {
		t.Fatalf("outcome %q, %d mails", res.Outcome, len(res.Mails))
	}
	for _, m := range res.Mails {
		accepted, _, _ := strings.Cut(m.Text[strings.Index(m.Text, "Orders as accepted"):], "\n\n")
		if !strings.Contains(accepted, "ENTRENCH 212/423") {
			t.Errorf("the report to %s lacks the impulse's orders:\n%s", m.To[0], accepted)
		}
		own := m.To[0] == "hasso@example.org"
		for _, s := range []string{"BLOW NONE", "DEFEND PREFER ARMOR"} {
			if strings.Contains(accepted, s) {
				t.Errorf("the report to %s lists the German standing order %s among the orders accepted:\n%s", m.To[0], s, accepted)
			}
			if strings.Contains(m.Text, s) != own {
				t.Errorf("the report to %s shows %s: %v", m.To[0], s, !own)
			}
		}
	}
}

// The sides are named German and Allied in every text a player reads:
// answers, refusals, notices and reports.
func TestSideNamesCapitalised(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", MaxExtensions: 1, MaxExtension: 48 * time.Hour})
	st, id, tokens := game(t, ref)
	german, allied := rules.German, rules.Allied
	mail := func(side rules.Side, text string) func(tx *store.Tx) (*referee.Result, error) {
		return func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, start.Add(time.Hour))
		}
	}
	lower := regexp.MustCompile(`\b(german|allied)\b`)
	for _, s := range []struct {
		name string
		fn   func(tx *store.Tx) (*referee.Result, error)
		want string // in the reply
	}{
		{"JOIN", mail(german, "JOIN SEED one"), "You have joined"},
		{"JOIN again", mail(german, "JOIN SEED again"), "the German player has already joined"},
		{"the other JOIN", mail(allied, "JOIN SEED two"), "You have joined"},
		{"orders out of turn", mail(allied, "IMPULSE 16-1"), "it is the German impulse G16-1"},
		{"a draw accepted that was never offered", mail(allied, "DRAW ACCEPT"), "the German player has not offered a draw"},
		{"EXTEND", mail(german, "EXTEND 24h"), ""},
		{"STATUS", mail(german, "STATUS"), "Impulse G16-1: the German player is to move"},
		{"orders", mail(german, "IMPULSE 16-1\nENTRENCH 212/423"), ""},
		{"CHECK out of turn", mail(german, "CHECK\nIMPULSE 16-2"), "it is the Allied impulse A16-1"},
	} {
		res := act(t, st, s.fn)
		if !strings.Contains(res.Reply, s.want) {
			t.Errorf("%s: the reply lacks %q:\n%s", s.name, s.want, res.Reply)
		}
		texts := []string{res.Reply}
		for _, m := range res.Mails {
			texts = append(texts, m.Subject, m.Text)
		}
		for _, x := range texts {
			if l := lower.FindString(x); l != "" {
				t.Errorf("%s: a text names the side %q:\n%s", s.name, l, x)
			}
		}
	}
	log := func() []adjudicator.Record {
		var log []adjudicator.Record
		st.View(func(tx *store.Tx) error { log, _ = tx.Log(id); return nil })
		return log
	}()
	for _, r := range log {
		if r.Kind == adjudicator.KindExtended && r.Reason != "asked by the German player" {
			t.Errorf("the extension's reason: %q", r.Reason)
		}
	}
}
