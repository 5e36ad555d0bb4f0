package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"titm/adjudicator"
	"titm/adjudicator/lang"
	"titm/adjudicator/referee"
	"titm/internal/daemon"
	"titm/internal/playtest"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

// The addresses of the doors tests.
const (
	dRef      = "referee@doors.test"
	dDirector = "director@doors.test"
	dDirToken = "director-secret-4711-abcd"
	dGerman   = "german@doors.test"
	dAllied   = "allied@doors.test"
)

// doorsConfig is the mail door's part of the daemon's configuration of the
// doors tests, on a store.
func doorsConfig(t *testing.T, db, extra string) *mail.Config {
	t.Helper()
	text := fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
name = "The Referee"
director = %q
director_token = %q
map_picture = true
reminder = "12h"
%s
[imap]
address = "127.0.0.1:1"
security = "none"
username = %q
password = "x"
[smtp]
address = "127.0.0.1:1"
security = "none"
`, db, dRef, dDirector, dDirToken, extra, dRef)
	cfg, err := daemon.ParseConfig("doors", []byte(text), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return &cfg.Config
}

// A door is one way in to the referee's acts: a mail, a command that opens
// the store, or a command served by a running daemon through its socket.
type door interface {
	// act does a step at a time, on the door's store.
	act(t *testing.T, s step, now time.Time)
	// store is the door's store, to read what the step changed.
	store() *store.Store
}

// A step is one act, as each door takes it: a mail's sender and text, and
// the command line.
type step struct {
	name string
	from string // the mail's sender
	mail string // the mail's text
	cmd  []string
}

// mailDoor hands mails to the daemon's handler.
type mailDoor struct {
	st  *store.Store
	h   *mail.Handler
	uid uint32
}

func (d *mailDoor) store() *store.Store { return d.st }

func (d *mailDoor) act(t *testing.T, s step, now time.Time) {
	t.Helper()
	d.uid++
	raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%d.%s@doors.test>\r\nContent-Type: text/plain\r\n\r\n%s\r\n",
		s.from, dRef, s.name, d.uid, strings.ReplaceAll(s.name, " ", "-"), strings.ReplaceAll(s.mail, "\n", "\r\n"))
	err := d.st.Update(func(tx *store.Tx) error {
		outcome, err := d.h.Handle(tx, mail.MessageKey{Mailbox: "INBOX", UIDValidity: 1, UID: d.uid}, raw, int64(len(raw)), now)
		if err == nil && strings.HasPrefix(outcome, "refused") {
			t.Errorf("%s by mail: %s", s.name, outcome)
		}
		return err
	})
	if err != nil {
		t.Fatalf("%s by mail: %v", s.name, err)
	}
}

// cliDoor runs the command in this process; with a daemon's socket open on
// the store, the command is served through it.
type cliDoor struct {
	st  *store.Store // the daemon's store, or nil: the command opens it
	db  string
	now *time.Time
	dir string
}

func (d *cliDoor) store() *store.Store { return d.st }

func (d *cliDoor) act(t *testing.T, s step, now time.Time) {
	t.Helper()
	*d.now = now
	args := append([]string(nil), s.cmd...)
	for i, a := range args {
		if a == "@orders" {
			// The orders as a file, as a player would give them.
			f := filepath.Join(d.dir, "orders.txt")
			os.WriteFile(f, []byte(s.mail), 0o600)
			args[i] = f
		}
	}
	args = append(args, "--db", d.db)
	var out, errs bytes.Buffer
	c := &cli{out: &out, errOut: &errs, stdin: strings.NewReader(""), now: func() time.Time { return *d.now }}
	if code := c.run(args); code != exitOK {
		t.Fatalf("titm %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errs.String())
	}
}

// seen is what a door told after a step: the log's new records and the
// mails queued to the players and observers (not the reply to the caller).
type seen struct {
	Records []adjudicator.Record
	Mails   []string
}

// observe reads what the store holds after the records and mails already
// seen.
func observe(t *testing.T, st *store.Store, game string, recs, mails *int) seen {
	t.Helper()
	var s seen
	err := st.View(func(tx *store.Tx) error {
		if game != "" {
			log, err := tx.Log(game)
			if err != nil {
				return err
			}
			s.Records = log[*recs:]
			*recs = len(log)
		}
		box, err := tx.Outbox("")
		if err != nil {
			return err
		}
		for _, m := range box[*mails:] {
			if m.Kind != referee.KindReply {
				s.Mails = append(s.Mails, fmt.Sprintf("%s to %s from %s\nSubject: %s\n%s", m.Kind, strings.Join(m.To, ","), m.From, m.Subject, mailText(t, tx, m)))
			}
		}
		*mails = len(box)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(s.Mails)
	return s
}

// mailText is a queued mail's text and, for a mail composed when sent, the
// picture it will carry.
func mailText(t *testing.T, tx *store.Tx, m *store.Mail) string {
	t.Helper()
	data := tx.MailData(m.ID)
	if m.Deferred {
		var d struct {
			Out struct {
				Text string
				Map  *referee.MapRef `json:"map"`
			} `json:"out"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s[map %s, snapshot %s: %x]", d.Out.Text, d.Out.Map.Name, d.Out.Map.Snapshot, tx.Snapshot(d.Out.Map.Snapshot))
	}
	in, err := mail.ParseIncoming(data)
	if err != nil {
		t.Fatal(err)
	}
	return in.Text
}

// Every door tells the players the same: each act, done once by mail, once
// by a command on the store and once by a command through a running
// daemon's control socket, appends the same records to the log and queues
// the same mails to the same recipients, bar the reply to the one who
// acted. The doors start from copies of one store, so that the game's
// secret seed, and so every die and hash, is the same.
func TestEveryDoorAlike(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	cfg := doorsConfig(t, base, "")
	var id string
	tokens := map[rules.Side]string{}
	start := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	func() {
		st, err := store.Open(base, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		err = st.Update(func(tx *store.Tx) error {
			if err := mail.StoreReferee(tx, cfg); err != nil {
				return err
			}
			c, err := referee.New(cfg.RefereeOptions()).New(tx, referee.NewGame{Scenario: "intro", German: dGerman, Allied: dAllied}, start)
			if err != nil {
				return err
			}
			id, tokens = c.Game.ID, c.Tokens
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}()
	// The German player's heading is typed as a Japanese input method
	// types it, in full-width letters and spaces; the Allied player's in
	// ASCII. Both read the same at every door.
	player := func(side rules.Side, body string) string {
		if side == rules.German {
			return fmt.Sprintf("ＧＡＭＥ　%s\nＴＯＫＥＮ　%s\n%s", id, tokens[side], body)
		}
		return fmt.Sprintf("GAME %s\nTOKEN %s\n%s", id, tokens[side], body)
	}
	steps := []step{
		{name: "german joins", from: dGerman, mail: player(rules.German, "JOIN SEED the German seed"), cmd: []string{"join", id, "--side", "german", "--seed", "the German seed"}},
		{name: "allied joins", from: dAllied, mail: player(rules.Allied, "JOIN SEED the Allied seed"), cmd: []string{"join", id, "--side", "allied", "--seed", "the Allied seed"}},
		{name: "german plays", from: dGerman, cmd: []string{"play", id, "--side", "german", "--orders", "@orders"}},
		{name: "pause", from: dDirector, mail: "ＴＯＫＥＮ　" + dDirToken + "\nＰＡＵＳＥ　" + id + "　a player is ill", cmd: []string{"pause", id, "--reason", "a player is ill"}},
		{name: "resume", from: dDirector, mail: "TOKEN " + dDirToken + "\nRESUME " + id + " he is well", cmd: []string{"resume", id, "--reason", "he is well"}},
		{name: "extend", from: dDirector, mail: "TOKEN " + dDirToken + "\nEXTEND " + id + " 24h the holidays", cmd: []string{"extend", id, "--by", "24h", "--reason", "the holidays"}},
		{name: "rollback", from: dDirector, mail: "TOKEN " + dDirToken + "\nROLLBACK " + id + " G16-1 a proven error", cmd: []string{"rollback", id, "--to", "G16-1", "--reason", "a proven error"}},
	}
	// The German orders: every attack the position allows.
	func() {
		st, err := store.Open(base, &store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.View(func(tx *store.Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := g.Rules()
			orders, err := playtest.EveryAttack(s, g.State)
			if err != nil {
				t.Fatal(err)
			}
			steps[2].mail = player(rules.German, fmt.Sprintf("IMPULSE %d-%d\n%s", g.Next.Day, g.Next.N, orders))
			return nil
		})
	}()

	copyStore := func(name string) string {
		data, err := os.ReadFile(base)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".db")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	open := func(p string) *store.Store {
		st, err := store.Open(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	// By mail.
	mdb := copyStore("mail")
	mcfg := doorsConfig(t, mdb, "")
	md := &mailDoor{st: open(mdb), h: mail.NewHandler(mcfg, quiet)}

	// By the command line, with no daemon: the command opens the store.
	cdb := copyStore("cli")
	var cnow time.Time
	cd := &cliDoor{db: cdb, now: &cnow, dir: t.TempDir()}

	// Through the control socket of a daemon that holds the store.
	sdb := copyStore("socket")
	scfg := doorsConfig(t, sdb, "")
	sst := open(sdb)
	var snow time.Time
	ctl, err := listenControl(socketFor(sdb), &host{st: sst, ref: referee.New(scfg.RefereeOptions()), from: scfg.From(),
		now: func() time.Time { return snow }}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	sd := &cliDoor{st: sst, db: sdb, now: &snow, dir: t.TempDir()}

	type state struct {
		name      string
		d         door
		st        func() *store.Store
		recs, box int
	}
	withStore := func(p string) func() *store.Store {
		return func() *store.Store {
			st, err := store.Open(p, &store.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
	}
	doors := []*state{
		{name: "mail", d: md, st: md.store},
		{name: "command", d: cd},
		{name: "socket", d: sd, st: sd.store},
	}
	// The records and mails the base store already holds.
	for _, ds := range doors {
		var st *store.Store
		if ds.st != nil {
			st = ds.st()
		} else {
			st = withStore(cdb)()
		}
		observe(t, st, id, &ds.recs, &ds.box)
		if ds.st == nil {
			st.Close()
		}
	}
	now := start
	for _, s := range steps {
		now = now.Add(time.Hour)
		var first seen
		for i, ds := range doors {
			if ds.name == "mail" && s.mail == "" {
				t.Fatalf("step %s has no mail", s.name)
			}
			ds.d.act(t, s, now)
			var st *store.Store
			if ds.st != nil {
				st = ds.st()
			} else {
				st = withStore(cdb)()
			}
			got := observe(t, st, id, &ds.recs, &ds.box)
			if ds.st == nil {
				st.Close()
			}
			// The first JOIN is told to its player alone; every other act
			// to everyone.
			if len(got.Records) == 0 || len(got.Mails) == 0 && s.name != "german joins" {
				t.Errorf("%s by %s: %d records, %d mails; want some of each", s.name, ds.name, len(got.Records), len(got.Mails))
			}
			if i == 0 {
				first = got
				continue
			}
			if !reflect.DeepEqual(got.Records, first.Records) {
				t.Errorf("%s: the records by %s differ from those by mail:\n%+v\nby mail:\n%+v", s.name, ds.name, got.Records, first.Records)
			}
			if !reflect.DeepEqual(got.Mails, first.Mails) {
				t.Errorf("%s: the mails by %s differ from those by mail:\n%s\nby mail:\n%s", s.name, ds.name, strings.Join(got.Mails, "\n----\n"), strings.Join(first.Mails, "\n----\n"))
			}
		}
		if s.name == "allied joins" && !strings.Contains(strings.Join(first.Mails, "\n"), "begins: both players have joined") {
			t.Errorf("the second JOIN told nobody that the game begins:\n%s", strings.Join(first.Mails, "\n----\n"))
		}
	}
}

// A new game made by each door welcomes the same players with the same
// mail, bar its token, its commitment and its log head.
func TestEveryDoorAlikeNew(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	prepare := func(name string) (string, *mail.Config) {
		p := filepath.Join(dir, name+".db")
		cfg := doorsConfig(t, p, `deadline = "48h"`)
		st, err := store.Open(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.Update(func(tx *store.Tx) error { return mail.StoreReferee(tx, cfg) })
		st.Close()
		return p, cfg
	}
	hexes := regexp.MustCompile(`[0-9a-f]{64}`)
	token := regexp.MustCompile(`[a-z0-9]{4}(-[a-z0-9]{4}){4}`)
	welcomes := func(p string, st *store.Store) string {
		if st == nil {
			var err error
			if st, err = store.Open(p, &store.Options{ReadOnly: true}); err != nil {
				t.Fatal(err)
			}
			defer st.Close()
		}
		var r, b int
		s := observe(t, st, "", &r, &b)
		out := strings.Join(s.Mails, "\n----\n")
		return token.ReplaceAllString(hexes.ReplaceAllString(out, "<hash>"), "<token>")
	}

	mp, mcfg := prepare("mail")
	mst, err := store.Open(mp, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mst.Close()
	md := &mailDoor{st: mst, h: mail.NewHandler(mcfg, quiet)}
	md.act(t, step{name: "new", from: dDirector, mail: "TOKEN " + dDirToken + "\nNEW intro " + dGerman + " " + dAllied}, now)
	byMail := welcomes(mp, mst)
	if !strings.Contains(byMail, "welcome to "+dGerman) || !strings.Contains(byMail, "welcome to "+dAllied) {
		t.Fatalf("no welcome to the German player by mail:\n%s", byMail)
	}

	cp, _ := prepare("cli")
	var cnow time.Time
	cd := &cliDoor{db: cp, now: &cnow, dir: dir}
	cd.act(t, step{cmd: []string{"new", "--scenario", "intro", "--german", dGerman, "--allied", dAllied, "--deadline", "48h"}}, now)
	if got := welcomes(cp, nil); got != byMail {
		t.Errorf("the welcome mails of titm new differ from those of NEW by mail:\n%s\nby mail:\n%s", got, byMail)
	}

	sp, scfg := prepare("socket")
	sst, err := store.Open(sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sst.Close()
	var snow time.Time
	ctl, err := listenControl(socketFor(sp), &host{st: sst, ref: referee.New(scfg.RefereeOptions()), from: scfg.From(),
		now: func() time.Time { return snow }}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	sd := &cliDoor{st: sst, db: sp, now: &snow, dir: dir}
	sd.act(t, step{cmd: []string{"new", "--scenario", "intro", "--german", dGerman, "--allied", dAllied, "--deadline", "48h"}}, now)
	if got := welcomes(sp, sst); got != byMail {
		t.Errorf("the welcome mails of titm new through the socket differ from those of NEW by mail:\n%s\nby mail:\n%s", got, byMail)
	}
}

// outboxSince returns the mails queued after the first n, as kind, recipient,
// subject and text, and the outbox's length.
func outboxSince(t *testing.T, st *store.Store, n int) ([]string, int) {
	t.Helper()
	var out []string
	var total int
	err := st.View(func(tx *store.Tx) error {
		box, err := tx.Outbox("")
		if err != nil {
			return err
		}
		for _, m := range box[min(n, len(box)):] {
			out = append(out, fmt.Sprintf("%s to %s\nSubject: %s\n%s", m.Kind, strings.Join(m.To, ","), m.Subject, mailText(t, tx, m)))
		}
		total = len(box)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, total
}

// logLength is the number of records in a game's log.
func logLength(t *testing.T, st *store.Store, id string) int {
	t.Helper()
	var n int
	if err := st.View(func(tx *store.Tx) error { log, err := tx.Log(id); n = len(log); return err }); err != nil {
		t.Fatal(err)
	}
	return n
}

// flat is a text without its spaces and line breaks, which wrapping moves.
func flat(s string) string { return strings.Join(strings.Fields(s), "") }

// within78 reports the lines of a text wider than 78 columns.
func within78(t *testing.T, what, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if w := lang.Width(l); w > 78 {
			t.Errorf("%s: a line of %d columns: %q", what, w, l)
		}
	}
}

// The heading of a mail, as each door reads it: the same text by mail, by
// titm play on the store and through the daemon's socket. A mail always
// needs the player's token; a command is the operator's and needs none,
// but a TOKEN line it is given must be right, and is refused with the
// words of the mail's warning (docs/players.md). The warnings are in the
// reader's language, within 78 columns; the director's and a tournament
// player's lines are answered in theirs.
func TestEveryDoorHeadings(t *testing.T) {
	for _, code := range []string{"en", "ja"} {
		t.Run(code, func(t *testing.T) { doorHeadings(t, code) })
	}
}

func doorHeadings(t *testing.T, code string) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	extra := fmt.Sprintf("languages = { %q = %q, %q = %q }", dGerman, code, dDirector, code)
	start := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	var id string
	var tokens map[rules.Side]string
	st, err := store.Open(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(func(tx *store.Tx) error {
		cfg := doorsConfig(t, base, extra)
		if err := mail.StoreReferee(tx, cfg); err != nil {
			return err
		}
		c, err := referee.New(cfg.RefereeOptions()).New(tx, referee.NewGame{Scenario: "intro", German: dGerman, Allied: dAllied}, start)
		id, tokens = c.Game.ID, c.Tokens
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cases := []struct {
		name, from, text string
		// byMail is the mail's outcome; applied whether a command
		// applies the text (an empty refused: it does), and refused the
		// words of the command's refusal and of the mail's warning.
		byMail  string
		applied bool
		refused string
		answer  string // in the reply or warning by mail
	}{
		{name: "full-width heading", from: dGerman, text: "ＧＡＭＥ　" + id + "\nＴＯＫＥＮ　" + tokens[rules.German] + "\nＪＯＩＮ　SEED 「種」。",
			byMail: "joined", applied: true},
		{name: "no TOKEN", from: dGerman, text: "GAME " + id + "\nJOIN SEED my seed\n",
			byMail: "refused: no TOKEN line", applied: true, answer: map[string]string{"en": "had no TOKEN line", "ja": "TOKEN 行がなかったため"}[code]},
		{name: "wrong TOKEN", from: dGerman, text: "ＧＡＭＥ　" + id + "\nＴＯＫＥＮ　" + tokens[rules.Allied] + "\nJOIN SEED my seed\n",
			byMail:  "refused: wrong token",
			refused: map[string]string{"en": "is not your token for this game", "ja": "このゲームでのあなたのトークンではなかった"}[code]},
		{name: "no GAME, no TOKEN", from: dGerman, text: "JOIN SEED my seed\n", byMail: "refused: no TOKEN line",
			answer: map[string]string{"en": "needs the TOKEN line of your welcome mail, and the GAME line", "ja": "TOKEN 行と、対象のゲームの GAME 行が必要"}[code]},
		{name: "director without token", from: dDirector, text: "ＰＡＵＳＥ　" + id + " a player is ill\n",
			byMail: "refused: the director's token is missing or wrong", answer: map[string]string{"en": "with the director's token", "ja": "運営者のトークンの TOKEN 行がない"}[code]},
		{name: "director's HELP", from: dDirector, text: "TOKEN " + dDirToken + "\nＨＥＬＰ\n",
			byMail: "director: nothing done", answer: map[string]string{"en": "ROLLBACK game G17-2 reason", "ja": "ROLLBACK ゲーム G17-2 理由"}[code]},
		{name: "director's act", from: dDirector, text: "ＴＯＫＥＮ　" + dDirToken + "\nＮＥＷ　intro g3@doors.test a3@doors.test\n",
			byMail: "director: NEW", answer: map[string]string{"en": "made; its players are welcomed", "ja": "を作成しました。両プレイヤーに案内メール"}[code]},
		{name: "director's act refused", from: dDirector, text: "ＴＯＫＥＮ　" + dDirToken + "\nＰＡＵＳＥ　" + id + "　a player is ill\n",
			byMail: "director: nothing done", answer: map[string]string{"en": "is forming: no clock runs", "ja": "は参加待ちです: 両プレイヤーが参加するまで時計は動きません"}[code]},
		{name: "director's wrong line", from: dDirector, text: "TOKEN " + dDirToken + "\nEXTEND " + id + " soon the holidays\n",
			byMail: "director: nothing done", answer: map[string]string{"en": `EXTEND takes a game, a time as 24h, and a reason, not "soon"`, "ja": `"soon" は時間ではありません`}[code]},
	}
	for i, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			copyOf := func(name string) string {
				p := filepath.Join(dir, fmt.Sprintf("%d-%s.db", i, name))
				if err := os.WriteFile(p, data, 0o600); err != nil {
					t.Fatal(err)
				}
				return p
			}
			// By mail.
			mdb := copyOf("mail")
			mst, err := store.Open(mdb, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer mst.Close()
			h := mail.NewHandler(doorsConfig(t, mdb, extra), quiet)
			recs := logLength(t, mst, id)
			_, n := outboxSince(t, mst, 0)
			raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: heading\r\nMessage-ID: <%d@doors.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
				c.from, dRef, i, strings.ReplaceAll(c.text, "\n", "\r\n"))
			var outcome string
			err = mst.Update(func(tx *store.Tx) error {
				outcome, err = h.Handle(tx, mail.MessageKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1}, raw, int64(len(raw)), start.Add(time.Hour))
				return err
			})
			mails, _ := outboxSince(t, mst, n)
			if err != nil || !strings.HasPrefix(outcome, c.byMail) {
				t.Fatalf("by mail: outcome %q, %v; want %q\n%s", outcome, err, c.byMail, strings.Join(mails, "\n----\n"))
			}
			if len(mails) == 0 {
				t.Fatal("by mail: no mail queued")
			}
			all := strings.Join(mails, "\n----\n")
			for _, m := range mails {
				within78(t, "by mail", m)
			}
			if c.answer != "" && !strings.Contains(flat(all), flat(c.answer)) {
				t.Errorf("by mail: no %q in\n%s", c.answer, all)
			}
			if c.refused != "" && !strings.Contains(flat(all), flat(c.refused)) {
				t.Errorf("by mail: the warning lacks %q:\n%s", c.refused, all)
			}
			if grew := logLength(t, mst, id) > recs; grew != (c.byMail == "joined") {
				t.Errorf("by mail: the log grew %v, outcome %q", grew, outcome)
			}
			if c.from != dGerman {
				return // the director's lines have commands of their own
			}
			// By titm play, on the store and through the socket.
			for _, via := range []string{"command", "socket"} {
				p := copyOf(via)
				f := filepath.Join(dir, fmt.Sprintf("%d-%s.txt", i, via))
				os.WriteFile(f, []byte(c.text), 0o600)
				now := start.Add(time.Hour)
				clock := func() time.Time { return now }
				if via == "socket" {
					sst, err := store.Open(p, nil)
					if err != nil {
						t.Fatal(err)
					}
					cfg := doorsConfig(t, p, extra)
					ctl, err := listenControl(socketFor(p), &host{st: sst, ref: referee.New(cfg.RefereeOptions()), from: cfg.From(), now: clock}, quiet)
					if err != nil {
						t.Fatal(err)
					}
					defer sst.Close()
					defer ctl.Close()
				}
				var out, errs bytes.Buffer
				cl := &cli{out: &out, errOut: &errs, stdin: strings.NewReader(""), now: clock}
				code := cl.run([]string{"play", id, "--side", "german", "--orders", f, "--db", p})
				said := out.String() + errs.String()
				wantApplied := c.refused == "" && (c.applied || c.byMail == "joined")
				switch {
				case c.byMail == "refused: no TOKEN line" && !c.applied:
					// No GAME line names no game: the command names it.
					if code != exitOK {
						t.Errorf("%s: exit %d\n%s", via, code, said)
					}
				case wantApplied && code != exitOK:
					t.Errorf("%s: exit %d, want the text applied\n%s", via, code, said)
				case c.refused != "" && (code == exitOK || !strings.Contains(flat(said), flat(c.refused))):
					t.Errorf("%s: exit %d, want the refusal %q\n%s", via, code, c.refused, said)
				}
			}
		})
	}
}

// The tournament lines through every door: the director's TOURNAMENT
// PAUSE and RESUME, typed in full-width letters, tell the players what
// titm tournament pause and resume tell them, on the store and through the
// socket; a player's STANDINGS and HELP by mail are answered with the
// standings and his lines.
func TestEveryDoorAlikeTournament(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	start := time.Date(2026, 12, 16, 6, 0, 0, 0, time.UTC)
	var id string
	st, err := store.Open(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(func(tx *store.Tx) error {
		cfg := doorsConfig(t, base, "")
		if err := mail.StoreReferee(tx, cfg); err != nil {
			return err
		}
		res, err := referee.New(cfg.RefereeOptions()).NewTournament(tx, "cup.toml", []byte(cupFile), start)
		if err != nil {
			return err
		}
		id = res.Tournament.ID
		return mail.Queue(tx, cfg.From(), res.Mails, start)
	})
	welcomes, _ := outboxSince(t, st, 0)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	var annaToken string
	for _, m := range welcomes {
		if strings.Contains(m, "to anna@example.test\nSubject: ["+id+"] welcome") {
			if f := regexp.MustCompile(`(?m)^\s+([a-z0-9]{4}(?:-[a-z0-9]{4}){4})$`).FindStringSubmatch(m); f != nil {
				annaToken = f[1]
			}
		}
	}
	if annaToken == "" {
		t.Fatalf("no tournament token in Anna's welcome among %d mails", len(welcomes))
	}
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	copyOf := func(name string) string {
		p := filepath.Join(dir, name+".db")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	mdb := copyOf("mail")
	mst, err := store.Open(mdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer mst.Close()
	md := &mailDoor{st: mst, h: mail.NewHandler(doorsConfig(t, mdb, ""), quiet)}
	cdb := copyOf("cli")
	var cnow time.Time
	cd := &cliDoor{db: cdb, now: &cnow, dir: t.TempDir()}
	sdb := copyOf("socket")
	sst, err := store.Open(sdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sst.Close()
	scfg := doorsConfig(t, sdb, "")
	var snow time.Time
	ctl, err := listenControl(socketFor(sdb), &host{st: sst, ref: referee.New(scfg.RefereeOptions()), from: scfg.From(),
		now: func() time.Time { return snow }}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	sd := &cliDoor{st: sst, db: sdb, now: &snow, dir: t.TempDir()}
	cliStore := func() *store.Store {
		st, err := store.Open(cdb, &store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	steps := []step{
		{name: "tournament pause", from: dDirector, mail: "ＴＯＫＥＮ　" + dDirToken + "\nＴＯＵＲＮＡＭＥＮＴ　ＰＡＵＳＥ　" + id + "　the venue is closed",
			cmd: []string{"tournament", "pause", id, "--reason", "the venue is closed"}},
		{name: "tournament resume", from: dDirector, mail: "TOKEN " + dDirToken + "\nTOURNAMENT RESUME " + id + " it is open again",
			cmd: []string{"tournament", "resume", id, "--reason", "it is open again"}},
	}
	boxes := map[string]int{"mail": len(welcomes), "command": len(welcomes), "socket": len(welcomes)}
	now := start
	for _, s := range steps {
		now = now.Add(time.Hour)
		got := map[string][]string{}
		for name, d := range map[string]door{"mail": md, "command": cd, "socket": sd} {
			d.act(t, s, now)
			st := d.store()
			if st == nil {
				st = cliStore()
			}
			var mails []string
			mails, boxes[name] = outboxSince(t, st, boxes[name])
			if d == cd {
				st.Close()
			}
			for _, m := range mails {
				if !strings.HasPrefix(m, referee.KindReply+" ") {
					got[name] = append(got[name], m)
				}
			}
			sort.Strings(got[name])
		}
		if len(got["mail"]) == 0 {
			t.Errorf("%s by mail told nobody", s.name)
		}
		for _, name := range []string{"command", "socket"} {
			if !reflect.DeepEqual(got[name], got["mail"]) {
				t.Errorf("%s: the mails by %s differ from those by mail:\n%s\nby mail:\n%s", s.name, name,
					strings.Join(got[name], "\n----\n"), strings.Join(got["mail"], "\n----\n"))
			}
		}
	}
	// A player's lines by mail, typed in full-width letters.
	md.act(t, step{name: "standings", from: "anna@example.test",
		mail: "ＴＯＵＲＮＡＭＥＮＴ　" + id + "\nＴＯＫＥＮ　" + annaToken + "\nＳＴＡＮＤＩＮＧＳ\nHELP"}, now.Add(time.Hour))
	replies, _ := outboxSince(t, mst, boxes["mail"])
	if len(replies) != 1 || !strings.Contains(replies[0], "rank") || !strings.Contains(replies[0], "BID side VP") || !strings.Contains(replies[0], "STANDINGS") {
		t.Errorf("the answer to STANDINGS and HELP: %q", replies)
	}
}
