package mail_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	acts "titm/adjudicator/referee"
	"titm/adjudicator/tournament"
	"titm/internal/daemon"
	"titm/internal/golden"
	"titm/internal/waitfor"
	"titm/mail"
	"titm/mail/embedded"
	"titm/store"
)

// cup is a tournament played by mail against the embedded servers, with a
// clock the test moves on.
type cup struct {
	t      *testing.T
	srv    *embedded.Servers
	st     *store.Store
	d      *mail.Daemon
	offset atomic.Int64 // added to the clock
	id     string
	tokens map[string]string       // tournament tokens, by address
	seen   map[string]map[int]bool // mails read, by address
}

const (
	td      = "td@test.example"
	tdToken = "director-token-0123456789"
)

func player(n int) string { return fmt.Sprintf("p%d@test.example", n) }

func newCup(t *testing.T) *cup {
	users := map[string]string{referee: "ref-pass", td: "td-pass"}
	for n := 1; n <= 9; n++ {
		users[player(n)] = "pass"
	}
	srv, err := embedded.Start(&embedded.Options{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Users: users,
		Folders: []string{"processed"}, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c := &cup{t: t, srv: srv, tokens: map[string]string{}, seen: map[string]map[int]bool{}}
	cfg, err := daemon.ParseConfig("test", []byte(fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
director = %q
director_token = %q
[imap]
address = %q
security = "none"
username = %q
password = "ref-pass"
poll_interval = "5s"
[smtp]
address = %q
security = "none"
retry_min = "1s"
retry_max = "2s"
`, filepath.Join(t.TempDir(), "titm.db"), referee, td, tdToken, srv.IMAPAddr(), referee, srv.SMTPAddr())), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if c.st, err = store.Open(cfg.Store.Path, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.st.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	c.d = mail.NewDaemon(&cfg.Config, c.st, quiet(), c.now)
	done := make(chan struct{})
	go func() { defer close(done); c.d.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return c
}

func (c *cup) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// later moves the clock on and has the daemon look at the deadlines.
func (c *cup) later(d time.Duration) {
	c.t.Helper()
	c.offset.Add(int64(d))
	if _, err := c.d.Tick(); err != nil {
		c.t.Fatal(err)
	}
	c.d.Wake()
}

func (c *cup) send(from, text string) { c.sendAs(from, "tournament", text) }

func (c *cup) sendAs(from, subject, text string) {
	c.t.Helper()
	raw, _ := message(from, subject, text)
	s, err := smtp.Dial(c.srv.SMTPAddr())
	if err != nil {
		c.t.Fatal(err)
	}
	defer s.Close()
	if err := s.SendMail(from, []string{referee}, bytes.NewReader(raw)); err != nil {
		c.t.Fatal(err)
	}
}

// inbox reads an address's mails.
func (c *cup) inbox(addr string) []*mail.Incoming {
	c.t.Helper()
	cl, err := imapclient.DialInsecure(c.srv.IMAPAddr(), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	defer cl.Close()
	pass := "pass"
	if addr == td {
		pass = "td-pass"
	}
	if err := cl.Login(addr, pass).Wait(); err != nil {
		c.t.Fatal(err)
	}
	sel, err := cl.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		c.t.Fatal(err)
	}
	if sel.NumMessages == 0 {
		return nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	var all imap.SeqSet
	all.AddRange(1, sel.NumMessages)
	msgs, err := cl.Fetch(all, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		c.t.Fatal(err)
	}
	var out []*mail.Incoming
	for _, m := range msgs {
		in, err := mail.ParseIncoming(m.FindBodySection(section))
		if err != nil {
			c.t.Fatal(err)
		}
		out = append(out, in)
	}
	return out
}

// await waits for a mail to addr, not read before, whose subject and text
// hold want, and returns it.
func (c *cup) await(addr, want string) *mail.Incoming {
	c.t.Helper()
	if c.seen[addr] == nil {
		c.seen[addr] = map[int]bool{}
	}
	var got []*mail.Incoming
	var found *mail.Incoming
	if !waitfor.Within(20*time.Second, func() bool {
		got = c.inbox(addr)
		for i := range got {
			if !c.seen[addr][i] && strings.Contains(got[i].Subject+"\n"+got[i].Text, want) {
				c.seen[addr][i], found = true, got[i]
				return true
			}
		}
		return false
	}) {
		var s []string
		for i, m := range got {
			if !c.seen[addr][i] {
				s = append(s, m.Subject)
			}
		}
		c.t.Fatalf("%s has no mail with %q after 20 s; its unread mails: %q", addr, want, s)
	}
	return found
}

// tour reads the tournament from the store, as the test's view of where it
// stands (the players know it from their mails).
func (c *cup) tour() *tournament.Tournament {
	c.t.Helper()
	var tr *tournament.Tournament
	if err := c.st.View(func(tx *store.Tx) error {
		var err error
		tr, err = tx.Tournament(c.id)
		return err
	}); err != nil {
		c.t.Fatal(err)
	}
	return tr
}

var tokenLine = regexp.MustCompile(`Your secret token:\s+(\S+)`)

// game is one pairing's game as its players know it from their mails.
type game struct {
	id     string
	german string // addresses
	allied string
	tokens map[string]string
}

// joinGame has the players of a pairing read their game's welcome and
// JOIN; it returns the game.
func (c *cup) joinGame(p *tournament.Pairing, tr *tournament.Tournament) *game {
	c.t.Helper()
	g := &game{id: p.Game, german: tr.Entrants[p.German].Address, allied: tr.Entrants[p.Opponent(p.German)].Address, tokens: map[string]string{}}
	for _, a := range []string{g.german, g.allied} {
		w := c.await(a, "["+g.id+"] welcome")
		m := tokenLine.FindStringSubmatch(w.Text)
		if m == nil {
			c.t.Fatalf("the welcome to game %s holds no token:\n%s", g.id, w.Text)
		}
		g.tokens[a] = m[1]
	}
	for _, a := range []string{g.german, g.allied} {
		c.send(a, fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN SEED %s\n", g.id, g.tokens[a], a))
		c.await(a, "You have joined game "+g.id)
	}
	return g
}

// standings waits for the standings after round n in a player's mail and
// returns them without the log head, which changes with the clock.
func (c *cup) standings(addr string, n int) string {
	c.t.Helper()
	m := c.await(addr, fmt.Sprintf("standings after round %d", n))
	text := regexp.MustCompile(`Log head \S+`).ReplaceAllString(m.Text, "Log head (hash)")
	return strings.ReplaceAll(text, c.id, "ID")
}

// An 8-player Swiss of 3 rounds with sealed bids, played by mail from the
// director's NEW TOURNAMENT to the final standings: bad bids refused, a
// concession, an agreed draw, a replaced player, a player who withdraws and
// so the byes, a pairing without bids decided by the dice when the bids
// close, a late bid, and a forfeit by missed deadlines.
func TestSwissByMail(t *testing.T) {
	c := newCup(t)
	file := "name = \"Bastogne Cup\"\ndirector = \"td@test.example\"\nscenario = \"intro\"\nformat = \"swiss\"\nrounds = 3\n" +
		"sides = \"bids\"\nbid_deadline = \"30m\"\ndeadline = \"1h\"\nforfeit_after = 2\ntiebreaks = [\"buchholz\", \"margin\", \"head-to-head\"]\n"
	for n := 1; n <= 8; n++ {
		file += fmt.Sprintf("\n[[player]]\nname = \"Player %d\"\naddress = %q\n", n, player(n))
	}
	c.send(td, "TOKEN "+tdToken+"\nNEW TOURNAMENT\n"+file+"END\n")
	ack := c.await(td, "NEW TOURNAMENT")
	m := regexp.MustCompile(`tournament (\S+) made`).FindStringSubmatch(ack.Text)
	if m == nil {
		t.Fatalf("the director's answer:\n%s", ack.Text)
	}
	c.id = m[1]
	for n := 1; n <= 8; n++ {
		w := c.await(player(n), "welcome to Bastogne Cup")
		k := regexp.MustCompile(`tournament token:\s+(\S+)`).FindStringSubmatch(w.Text)
		if k == nil || !strings.Contains(w.Text, "Format: swiss, 3 rounds") || !strings.Contains(w.Text, "Schedule:") {
			t.Fatalf("the welcome of %s:\n%s", player(n), w.Text)
		}
		c.tokens[player(n)] = k[1]
	}
	bid := func(addr, text string) {
		c.send(addr, fmt.Sprintf("TOURNAMENT %s\nTOKEN %s\n%s\n", c.id, c.tokens[addr], text))
	}

	// Round 1: all on 0 points, the top half against the bottom half:
	// 1-5, 2-6, 3-7, 4-8. Bad bids first: each refused, nothing changed.
	head := c.tour().Head
	for _, b := range []struct{ from, text, want string }{
		{player(1), "BID german -1", "a bid cannot be negative"},
		{player(2), "BID german 1\nBID allied 2", "one side only"},
		{player(3), "BID german lots", `"lots" is not a whole number`},
	} {
		bid(b.from, b.text)
		if r := c.await(b.from, "BID: "); !strings.Contains(r.Text, b.want) || !strings.Contains(r.Text, "Nothing was changed") {
			t.Errorf("%s from %s: the answer\n%s\nwant %q", b.text, b.from, r.Text, b.want)
		}
	}
	if c.tour().Head != head {
		t.Error("a refused bid changed the tournament")
	}
	// The bids: the higher-seeded player of each pairing bids 2 for the
	// German side, the other 1 for it, except in 4-8 where each asks for
	// his own side.
	for _, b := range [][2]string{{"1", "german 2"}, {"5", "german 1"}, {"2", "german 2"}, {"6", "german 1"}, {"3", "german 2"}, {"7", "german 1"}, {"4", "allied 0"}, {"8", "german 0"}} {
		var n int
		fmt.Sscan(b[0], &n)
		bid(player(n), "BID "+b[1])
		c.await(player(n), "is in and sealed")
	}
	for n := 1; n <= 8; n++ {
		if r := c.await(player(n), "round 1: game"); !strings.Contains(r.Text, "The bids, revealed:") {
			t.Errorf("%s's pairing mail does not reveal the bids:\n%s", player(n), r.Text)
		}
	}
	tr := c.tour()
	var games []*game
	for _, p := range tr.Current().Pairings {
		games = append(games, c.joinGame(p, tr))
	}
	// 1 beats 5 by 5's concession; 2 and 6 agree a draw; 7 concedes to 3.
	c.send(player(5), fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", games[0].id, games[0].tokens[player(5)]))
	c.send(player(2), fmt.Sprintf("GAME %s\nTOKEN %s\nDRAW\n", games[1].id, games[1].tokens[player(2)]))
	c.await(player(6), "offers a draw")
	c.send(player(6), fmt.Sprintf("GAME %s\nTOKEN %s\nDRAW ACCEPT\n", games[1].id, games[1].tokens[player(6)]))
	c.send(player(7), fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", games[2].id, games[2].tokens[player(7)]))
	// Player 4 drops out: the director gives his place to p9, who takes
	// over his game with a new token and plays it from there.
	c.send(td, fmt.Sprintf("TOKEN %s\nTOURNAMENT REPLACE %s %s %s moved abroad\n", tdToken, c.id, player(4), player(9)))
	w9 := c.await(player(9), "you take a player's place")
	k := regexp.MustCompile(`tournament token:\s+(\S+)`).FindStringSubmatch(w9.Text)
	g4 := regexp.MustCompile(`game (\S+), where it stands. Your token for that game:\s+(\S+)`).FindStringSubmatch(w9.Text)
	if k == nil || g4 == nil || g4[1] != games[3].id {
		t.Fatalf("p9's welcome:\n%s", w9.Text)
	}
	c.tokens[player(9)] = k[1]
	c.await(player(8), "your opponent is replaced")
	c.send(player(9), fmt.Sprintf("GAME %s\nTOKEN %s\nSTATUS\n", g4[1], g4[2]))
	c.await(player(9), "Game "+g4[1]+" (intro): playing.")
	// The old address is no player any more.
	c.send(player(4), fmt.Sprintf("TOURNAMENT %s\nTOKEN %s\nSTANDINGS\n", c.id, c.tokens[player(4)]))
	// Player 6 withdraws after his game: from round 2 on, 7 players, so a
	// bye.
	c.await(player(6), "drawn by agreement")
	c.send(td, fmt.Sprintf("TOKEN %s\nTOURNAMENT WITHDRAW %s %s ill\n", tdToken, c.id, player(6)))
	c.await(player(6), "has withdrawn")
	// 8 concedes to p9, which ends round 1.
	c.send(player(8), fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", games[3].id, games[3].tokens[player(8)]))
	var gold strings.Builder
	gold.WriteString(c.standings(player(1), 1))

	// Round 2: the lowest-ranked without a bye has it. One pairing sends
	// no bids: when the bids close, the dice decide, and a bid after it is
	// refused.
	tr = c.tour()
	r2 := tr.Current()
	var bye, silent *tournament.Pairing
	for _, p := range r2.Pairings {
		switch {
		case p.Bye():
			bye = p
		case silent == nil:
			silent = p
		default:
			bid(tr.Entrants[p.A].Address, "BID german 1")
			bid(tr.Entrants[p.B].Address, "BID allied 1")
			c.await(tr.Entrants[p.A].Address, "is in and sealed")
			c.await(tr.Entrants[p.B].Address, "is in and sealed")
		}
	}
	if bye == nil {
		t.Fatal("round 2 of 7 players has no bye")
	}
	c.await(tr.Entrants[bye.A].Address, "round 2: a bye")
	c.later(31 * time.Minute)
	late := tr.Entrants[silent.A].Address
	bid(late, "BID german 5")
	if r := c.await(late, "BID: "); !strings.Contains(r.Text, "are decided already") {
		t.Errorf("a bid after the bids closed:\n%s", r.Text)
	}
	tr = c.tour()
	var timed *game
	for _, p := range tr.Current().Pairings {
		if p.Bye() {
			continue
		}
		g := c.joinGame(p, tr)
		loser := g.allied
		switch {
		case p.A == silent.A:
			// Its sides came from the dice: the player paired second
			// concedes, whichever side he has.
			loser = tr.Entrants[p.B].Address
		case timed == nil:
			// The German player (by the bids) of the first other game
			// never sends orders.
			timed = g
			continue
		}
		c.send(loser, fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", g.id, g.tokens[loser]))
		c.await(loser, "player concedes")
	}
	// The deadlines pass: German, Allied, German again: the German
	// player has missed 2 and loses by forfeit.
	for range 3 {
		c.later(61 * time.Minute)
	}
	if r := c.await(timed.allied, "wins by forfeit"); !strings.Contains(r.Text, "missed 2 deadlines") {
		t.Errorf("the forfeit:\n%s", r.Text)
	}
	gold.WriteString("\n" + c.standings(player(1), 2))

	// Round 3: everyone bids 0 for his own side; the higher-ranked player
	// of each game wins by his opponent's concession.
	tr = c.tour()
	for _, p := range tr.Current().Pairings {
		if !p.Bye() {
			bid(tr.Entrants[p.A].Address, "BID german 0")
			bid(tr.Entrants[p.B].Address, "BID allied 0")
		}
	}
	for _, p := range tr.Current().Pairings {
		if p.Bye() {
			continue
		}
		c.await(tr.Entrants[p.A].Address, "round 3: game")
		tr = c.tour()
		p := tr.Current().Pairings[indexOf(tr.Current().Pairings, p.A)]
		g := c.joinGame(p, tr)
		loser := tr.Entrants[p.B].Address
		c.send(loser, fmt.Sprintf("GAME %s\nTOKEN %s\nCONCEDE\n", g.id, g.tokens[loser]))
	}
	gold.WriteString("\n" + c.standings(player(1), 3))
	golden.Check(t, "testdata/tournament-standings.txt", gold.String())

	// STANDINGS on request, and the whole tournament verified from its
	// export.
	c.sendAs(player(2), "where do I stand", fmt.Sprintf("TOURNAMENT %s\nTOKEN %s\nSTANDINGS\n", c.id, c.tokens[player(2)]))
	if r := c.await(player(2), "Re: where do I stand"); !strings.Contains(r.Text, "Standings of Bastogne Cup (bastogne-cup-1) after 3 of 3 rounds: final") {
		t.Errorf("STANDINGS:\n%s", r.Text)
	}
	if r := c.inbox(player(4)); containsMail(r, "Standings of Bastogne Cup") {
		t.Error("the replaced player's STANDINGS was answered")
	}
	var x *tournament.Export
	c.st.View(func(tx *store.Tx) error {
		var err error
		x, err = acts.TournamentExport(tx, c.id)
		return err
	})
	v, err := tournament.Verify(x)
	if err != nil {
		t.Fatal(err)
	}
	if !v.DiceChecked || v.Games != 10 || v.Sides != 10 {
		t.Errorf("verified %+v: want the dice checked, 10 games and 10 side decisions", v)
	}
}

func indexOf(ps []*tournament.Pairing, a int) int {
	for i, p := range ps {
		if p.A == a {
			return i
		}
	}
	return -1
}
