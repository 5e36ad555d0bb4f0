package referee_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"titm/adjudicator"
	"titm/adjudicator/lang"
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
				return ref.Orders(tx, id, german, "IMPULSE 16-1\nMOVE nobody 1 2\nMARCH on 12\n", now)
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
			reply: "done\nlog head ", records: 1},
		{name: "and resumes", at: 7 * time.Hour,
			fn: func(tx *store.Tx, now time.Time) (*referee.Result, error) {
				return ref.Resume(tx, id, "he is well", now)
			},
			to:    "report:hasso@example.org report:troy@example.org report:umpire@example.org",
			reply: "done\nlog head ", records: 1},
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
// orders or asks to CHECK them; nothing is applied. A CHECK says "CHECK:"
// whatever kind its errors are, and is answered, not refused: a CHECK is
// never applied, so it is kept as checked, as one the position refuses.
func TestEveryErrorInOneAnswer(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	const (
		parse = "line 4: ATACK 24\n  unknown order \"ATACK\""
		pos   = "line 5: MOVE 212/316 18 10\n  the move would make a German stack"
	)
	head := "GAME " + id + "\nIMPULSE 16-1\nMOVE 352/914 23 24\n"
	for _, c := range []struct {
		name, mail string
		check      bool
		want       []string // in this order
		errs       int      // the order errors of a refusal
	}{
		{"orders", head + "ATACK 24\nMOVE 212/316 18 10\n", false, []string{"Your orders have 2 error(s)", parse, pos, "Nothing in your mail was applied."}, 2},
		{"CHECK, both kinds", head + "ATACK 24\nMOVE 212/316 18 10\nCHECK\n", true, []string{"CHECK: Your orders have 2 error(s)", parse, pos, "Nothing was applied."}, 0},
		{"CHECK, a line that does not read", head + "ATACK 24\nCHECK\n", true, []string{"CHECK: Your orders have 1 error(s)", parse, "Nothing was applied."}, 0},
		{"CHECK, the position refuses", head + "ENTRENCH 276/986\nMOVE 212/316 18 10\nCHECK\n", true, []string{"CHECK: Your orders have 1 error(s)", pos, "Nothing was applied."}, 0},
		{"CHECK first, with a request", "GAME " + id + "\nCHECK\nUNITS\nIMPULSE 16-1\nATACK 24\n", true, []string{"Your units", "CHECK: Your orders have 1 error(s)", "line 5: ATACK 24"}, 0},
		// An act that changes the game is never done by a mail that
		// asks only to try: the mail is refused whole.
		{"CHECK with CONCEDE", head + "CHECK\nCONCEDE\n", false, []string{"CONCEDE: a mail with CHECK applies nothing, so it cannot concede the game", "Nothing in your mail was applied."}, 0},
		{"CHECK with EXTEND", "GAME " + id + "\nCHECK\nEXTEND 24\n", false, []string{"EXTEND: a mail with CHECK applies nothing", "Nothing in your mail was applied."}, 0},
		{"CHECK with an error and DRAW", head + "ATACK 24\nCHECK\nDRAW\n", false, []string{"DRAW: a mail with CHECK applies nothing", "Nothing in your mail was applied."}, 0},
	} {
		res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, rules.German, c.mail, start.Add(time.Hour))
		})
		at := 0
		for _, w := range c.want {
			i := strings.Index(res.Reply[at:], w)
			if i < 0 {
				t.Errorf("%s: the reply lacks %q after byte %d:\n%s", c.name, w, at, res.Reply)
				break
			}
			at += i + len(w)
		}
		if len(res.Records) != 0 {
			t.Errorf("%s: %d records kept", c.name, len(res.Records))
		}
		if c.check {
			if res.Refused || len(res.Errors) != 0 || !strings.Contains(res.Outcome, "checked") || strings.Contains(res.Reply, "Nothing in your mail was applied") {
				t.Errorf("%s: refused %v, %d errors, outcome %q, reply:\n%s", c.name, res.Refused, len(res.Errors), res.Outcome, res.Reply)
			}
		} else if !res.Refused || len(res.Errors) != c.errs {
			t.Errorf("%s: refused %v, %d errors", c.name, res.Refused, len(res.Errors))
		}
	}
}

// An error's explanation reaches the player whole, never cut within a
// sentence; what it echoes of the mail is cut short with "...", so that a
// hostile line is not sent back whole, and its lines read in 78 columns.
func TestErrorMessagesWhole(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	const keywords = "A line starts with one of GAME, TOKEN, IMPULSE, END, MOVE, FOOT, ENTRENCH, ATTACK, FIRE, ARTY, BATTLES, REPAIR, SF, REMOVE, BLOW, DEFEND, HELP, STATUS, BRIEF, UNITS, CHECK, DICE, JOIN, ORDERS, PICTURE, LANGUAGE, EXTEND, CONCEDE, DRAW; put END after your orders so that the rest of the mail is ignored\n"
	head := "GAME " + id + "\nIMPULSE 16-1\n"
	for _, c := range []struct {
		name, line string
		want       []string
	}{
		{"a keyword written wrong", "ATACK 24", []string{`unknown order "ATACK": did you mean ATTACK? ` + keywords}},
		{"a first word of 3,000 bytes", strings.Repeat("X", 3000) + " 24", []string{`unknown order "` + strings.Repeat("X", 39) + `...": the line names a unit`, keywords}},
		{"a unit of 3,000 bytes", "MOVE " + strings.Repeat("x", 3000) + " 1 2", []string{"unknown unit " + strings.Repeat("x", 40) + "...\n"}},
		{"300 words too many", "DRAW ACCEPT" + strings.Repeat(" foo", 300), []string{`"foo foo foo foo foo foo foo foo foo foo foo foo foo foo foo..." is more than DRAW takes: DRAW | DRAW ACCEPT` + "\n"}},
	} {
		res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, rules.German, head+c.line+"\n", start.Add(time.Hour))
		})
		// The message as one line, unwrapped: the line of the error
		// after the quoted line, to the blank line.
		_, msg, _ := strings.Cut(res.Reply, "\nline 3: ")
		_, msg, _ = strings.Cut(msg, "\n")
		msg, _, _ = strings.Cut(msg, "\n\n")
		for _, l := range strings.Split(msg, "\n") {
			if utf8.RuneCountInString(l) > 78 {
				t.Errorf("%s: a line of %d columns: %s", c.name, utf8.RuneCountInString(l), l)
			}
		}
		msg = strings.Join(strings.Fields(msg), " ") + "\n"
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the message lacks %q:\n%s", c.name, w, res.Reply)
			}
		}
		if len(res.Reply) > 2000 {
			t.Errorf("%s: an answer of %d bytes echoes the mail:\n%s", c.name, len(res.Reply), res.Reply)
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

// A text a player or an observer reads: a reply, or a mail's subject or
// text, named by the step of the scripted game that made it.
type text struct{ step, body string }

// A transcript is every text of a scripted game, in order.
type transcript []text

// add keeps the texts of a step: its reply, and each mail's subject and
// text.
func (tr *transcript) add(step string, res *referee.Result) {
	if res.Reply != "" {
		*tr = append(*tr, text{step + ": the reply", res.Reply})
	}
	for _, m := range res.Mails {
		*tr = append(*tr, text{step + ": the subject to " + m.To[0], m.Subject}, text{step + ": the mail to " + m.To[0], m.Text})
	}
}

// scriptedStart makes the scripted games' intro game, Hasso German and
// Troy Allied with an umpire watching, in a store of its own, and returns
// the store, the game's id, its tokens and what making it sent.
func scriptedStart(t *testing.T, ref *referee.Referee) (*store.Store, string, map[rules.Side]string, *referee.Result) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "titm.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var id string
	var tokens map[rules.Side]string
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		c, err := ref.New(tx, referee.NewGame{Scenario: "intro", German: "hasso@example.org", Allied: "troy@example.org",
			Observers: []string{"umpire@example.org"}, Deadline: 48 * time.Hour}, start)
		if err != nil {
			return nil, err
		}
		id, tokens = c.Game.ID, c.Tokens
		return c.Result, nil
	})
	return st, id, tokens, res
}

// scriptedGame plays an intro game through every kind of act a player or
// the director makes, each checked for what its reply must say, to the
// concession that ends it, and returns every text it made: the welcomes,
// the replies, the refusals, the notices and the reports.
func scriptedGame(t *testing.T) (texts []text, log []adjudicator.Record) {
	t.Helper()
	ref := referee.New(&referee.Options{Address: "referee@example.org", MaxExtensions: 1, MaxExtension: 48 * time.Hour, Reminder: 12 * time.Hour})
	st, id, tokens, created := scriptedStart(t, ref)
	var tr transcript
	tr.add("new", created)
	german, allied := rules.German, rules.Allied
	at := start
	mail := func(side rules.Side, text string) func(tx *store.Tx) (*referee.Result, error) {
		return func(tx *store.Tx) (*referee.Result, error) {
			return ref.Orders(tx, id, side, "GAME "+id+"\nTOKEN "+tokens[side]+"\n"+text, at)
		}
	}
	director := func(fn func(tx *store.Tx) (*referee.Result, error)) func(tx *store.Tx) (*referee.Result, error) {
		return fn
	}
	for _, s := range []struct {
		name  string
		after time.Duration // after the step before
		fn    func(tx *store.Tx) (*referee.Result, error)
		want  string // in the reply, or the first mail when there is none
	}{
		{"STATUS before JOIN", time.Minute, mail(german, "STATUS"), "Waiting for the German player to JOIN"},
		{"DICE before JOIN", time.Minute, mail(allied, "DICE"), "Allied seed: not yet given"},
		{"JOIN", time.Minute, mail(german, "JOIN SEED one"), "You have joined"},
		{"JOIN again", time.Minute, mail(german, "JOIN SEED again"), "the German player has already joined"},
		// The seed of the one who joined is kept from the other until he
		// has joined too (B10): he might otherwise choose his by it.
		{"DICE of the one still to join", time.Minute, mail(allied, "DICE"), "German seed: given; shown when the game begins"},
		{"DICE of the one who joined", time.Minute, mail(german, "DICE"), `German seed "one"`},
		{"the other JOIN", time.Minute, mail(allied, "JOIN SEED two"), "You have joined"},
		{"HELP", time.Minute, mail(german, "HELP"), "CONCEDE"},
		{"orders out of turn", time.Minute, mail(allied, "IMPULSE 16-1"), "it is the German impulse G16-1"},
		{"a draw accepted that was never offered", time.Minute, mail(allied, "DRAW ACCEPT"), "the German player has not offered a draw"},
		{"orders with errors", time.Minute, mail(german, "IMPULSE 16-1\nMOVE 212/423 99\nENTRENCH nosuch\nATTACK 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35"), "error(s)"},
		{"EXTEND", time.Minute, mail(german, "EXTEND 24h"), ""},
		{"STATUS", time.Minute, mail(german, "STATUS"), "Impulse G16-1: the German player is to move"},
		{"UNITS", time.Minute, mail(german, "UNITS"), "Your units"},
		{"DICE", time.Minute, mail(german, "DICE"), "German seed"},
		{"ORDERS before any", time.Minute, mail(german, "ORDERS"), "no orders"},
		{"CHECK", time.Minute, mail(german, "CHECK\nIMPULSE 16-1\nENTRENCH 212/423"), "CHECK: the orders are legal"},
		{"orders", time.Minute, mail(german, "IMPULSE 16-1\nENTRENCH 212/423\nDEFEND PREFER ARMOR"), ""},
		{"ORDERS", time.Minute, mail(german, "ORDERS"), "ENTRENCH 212/423"},
		{"CHECK out of turn", time.Minute, mail(german, "CHECK\nIMPULSE 16-2"), "it is the Allied impulse A16-1"},
		{"the deadline passes", 72 * time.Hour, func(tx *store.Tx) (*referee.Result, error) { return ref.Deadline(tx, id, at) }, ""},
		{"the director pauses", time.Minute, director(func(tx *store.Tx) (*referee.Result, error) { return ref.Pause(tx, id, "a question of the rules", at) }), ""},
		{"STATUS paused", time.Minute, mail(allied, "STATUS"), "Paused by the director"},
		{"the director extends", time.Minute, director(func(tx *store.Tx) (*referee.Result, error) {
			return ref.Extend(tx, id, 24*time.Hour, "the answer took long", at)
		}), ""},
		{"the director resumes", time.Minute, director(func(tx *store.Tx) (*referee.Result, error) { return ref.Resume(tx, id, "the question is answered", at) }), ""},
		{"a draw offered", time.Minute, mail(german, "DRAW"), ""},
		{"CONCEDE", time.Minute, mail(allied, "CONCEDE"), ""},
		{"STATUS at the end", time.Minute, mail(allied, "STATUS"), "Result: the Allied player conceded: German victory"},
		{"DICE at the end", time.Minute, mail(allied, "DICE"), "revealed"},
	} {
		at = at.Add(s.after)
		res := act(t, st, s.fn)
		got := res.Reply
		if got == "" && len(res.Mails) > 0 {
			got = res.Mails[0].Text
		}
		if !strings.Contains(got, s.want) {
			t.Errorf("%s: the reply lacks %q:\n%s", s.name, s.want, got)
		}
		tr.add(s.name, res)
	}
	if err := st.View(func(tx *store.Tx) (err error) { log, err = tx.Log(id); return err }); err != nil {
		t.Fatal(err)
	}
	return tr, log
}

// The sides are named German and Allied in every text a player reads:
// answers, refusals, notices, reports and the result of a conceded game.
// Only the order language's keywords and quoted orders may name them in
// lower case.
func TestSideNamesCapitalised(t *testing.T) {
	texts, log := scriptedGame(t)
	lower := regexp.MustCompile(`\b(german|allied)\b`)
	for _, x := range texts {
		if l := lower.FindString(x.body); l != "" {
			t.Errorf("%s names the side %q:\n%s", x.step, l, x.body)
		}
	}
	var extended, finished bool
	for _, r := range log {
		switch r.Kind {
		case adjudicator.KindExtended:
			extended = true
			if r.Side != "" && r.Reason != "asked by the German player" {
				t.Errorf("the extension's reason: %q", r.Reason)
			}
		case adjudicator.KindFinished:
			finished = true
			if r.Result != "the Allied player conceded: German victory" {
				t.Errorf("the conceded game's result: %q", r.Result)
			}
		}
	}
	if !extended || !finished {
		t.Errorf("the log has an extension %v, an end %v", extended, finished)
	}
}

// Every line of every reply and mail of a game reads in 78 columns, but
// those that must stay whole: quoted order lines, and a hash.
func TestRepliesWrap(t *testing.T) {
	texts, _ := scriptedGame(t)
	for _, x := range texts {
		if !strings.Contains(x.step, "subject") {
			checkWidth(t, x)
		}
	}
}

// checkWidth checks that every line of a text keeps to 78 columns of
// display width (lang.Width), but those that must stay whole: a quoted
// order line ("line 3: ", "3行目: ") and a hash.
func checkWidth(t *testing.T, x text) {
	t.Helper()
	for _, l := range strings.Split(x.body, "\n") {
		if lang.Width(l) > 78 && !wholeLine.MatchString(l) {
			t.Errorf("%s: a line of %d columns:\n%s", x.step, lang.Width(l), l)
		}
	}
}

var wholeLine = regexp.MustCompile(`^(line \d+|\d+行目): |[0-9a-f]{64}`)

// The director's extension of a paused game tells the time left on the
// stopped clock, not a deadline the pause has put off.
func TestExtendWhilePaused(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org", Deadline: 48 * time.Hour})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Pause(tx, id, "a player is ill", start.Add(time.Hour))
	})
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Extend(tx, id, 24*time.Hour, "he is still ill", start.Add(2*time.Hour))
	})
	if len(res.Mails) == 0 {
		t.Fatal("no notice")
	}
	text := res.Mails[0].Text
	if strings.Contains(text, "0001") || !strings.Contains(text, "The game is paused, with") {
		t.Errorf("notice:\n%s", text)
	}
}

// CHECK carries the orders out on a copy of the game to just before the
// first die and tells what they would do, step by step; the game keeps
// nothing of it.
func TestCheckDryRun(t *testing.T) {
	ref := referee.New(&referee.Options{Address: "referee@example.org"})
	st, id, _ := game(t, ref)
	for _, side := range []rules.Side{rules.German, rules.Allied} {
		act(t, st, func(tx *store.Tx) (*referee.Result, error) { return ref.Join(tx, id, side, "seed", start) })
	}
	mail := "GAME " + id + "\nCHECK\nIMPULSE 16-1\nMOVE 352/914 23 24\nENTRENCH 276/986\n"
	res := act(t, st, func(tx *store.Tx) (*referee.Result, error) {
		return ref.Orders(tx, id, rules.German, mail, start.Add(time.Hour))
	})
	for _, want := range []string{
		"CHECK: the orders are legal for G16-1",
		"352/914 moves 23 Körperich - 24 Sinspelt: 3 MP.",
		"23 Körperich → 24 Sinspelt: 2 secondary +1 entering an occupied area",
		"352/914 moves (8.25).",
		"276/986 entrenches (8.5).",
		"After the moves no die is needed\n",
		"The impulse G16-1 would end; the next is A16-1.",
		"Nothing was applied.",
	} {
		if !strings.Contains(res.Reply, want) {
			t.Errorf("the reply lacks %q:\n%s", want, res.Reply)
		}
	}
	if len(res.Records) != 0 || res.Refused {
		t.Errorf("a CHECK kept %d records, refused %v", len(res.Records), res.Refused)
	}
}
