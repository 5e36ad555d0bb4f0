package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"titm/adjudicator/lang"
	ref "titm/adjudicator/referee"
	"titm/internal/daemon"
	"titm/internal/playtest"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

var demoCmd = &command{
	name:    "demo",
	summary: "a game by mail on this machine alone: built-in IMAP and SMTP servers, a demo game, and optionally players that play it",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		d := &demo{c: c, out: &lockedWriter{w: c.out}} // the players and the mail list write from their goroutines
		fs.StringVar(&d.imapAddr, "imap", "127.0.0.1:1143", "where the built-in IMAP server listens (loopback)")
		fs.StringVar(&d.smtpAddr, "smtp", "127.0.0.1:1025", "where the built-in SMTP server listens (loopback)")
		fs.StringVar(&d.german, "german", "german@demo.test", "the German player's address")
		fs.StringVar(&d.allied, "allied", "allied@demo.test", "the Allied player's address")
		fs.StringVar(&d.password, "password", "demo", "the players' mailbox password")
		fs.StringVar(&d.referee, "referee", "referee@demo.test", "the referee's address")
		fs.StringVar(&d.scenario, "scenario", "intro", "the demo game's scenario")
		fs.StringVar(&d.db, "db", "titm-demo.db", "the store, with the built-in servers' mailboxes beside it in FILE.mail and the log in FILE without its extension plus .log, all kept: a later demo with the same file makes a new game beside the earlier ones")
		fs.BoolVar(&d.temporary, "temporary", false, "keep the store and the mailboxes in a temporary directory, removed at the end, instead of --db (the log goes to the mail directory)")
		fs.BoolVar(&d.autoplay, "autoplay", false, "let scripted players join and play some impulses, so that reports arrive")
		fs.IntVar(&d.impulses, "impulses", 6, "with --autoplay, how many impulses each scripted player plays")
		fs.BoolVar(&d.quiet, "quiet", false, "log only warnings and errors")
		fs.StringVar(&d.webAddr, "web", "127.0.0.1:8080", "where the web journal of the games listens (loopback); another free loopback port when it is taken")
		fs.StringVar(&d.mailDir, "mail-dir", "", "where each mail the players receive is written as a .eml file (default: a new directory in the system's temporary directory, kept at the end)")
		fs.StringVar(&d.language, "language", "en", "the language of the referee's mails to both players, and of the scripted players' own words: en (English) or ja (Japanese)")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			dbSet := false
			fs.Visit(func(f *flag.Flag) { dbSet = dbSet || f.Name == "db" })
			return d.run(dbSet)
		}
	},
}

// demo is a run of titm demo: its flags, then what it made.
type demo struct {
	c   *cli
	out io.Writer

	imapAddr, smtpAddr       string
	german, allied, password string
	referee, scenario        string
	db, webAddr, mailDir     string
	temporary, autoplay      bool
	quiet                    bool
	impulses                 int
	language                 string // the flag as given; code once checked
	path, web, dir, logPath  string // the store, the journal, the mails and the log, as used
	logFile                  *os.File
	cfg                      *daemon.Config
}

// run runs the demo until it is stopped; dbSet says whether --db was
// given.
func (d *demo) run(dbSet bool) error {
	if d.temporary && dbSet {
		return usageError{"--temporary and --db: give one"}
	}
	code, err := languageCode(d.language)
	if err != nil {
		return err
	}
	d.language, d.path = code, d.db
	if d.path == "" {
		return usageError{"--db: the store's file name is empty"}
	}
	if d.temporary {
		dir, err := os.MkdirTemp("", "titm-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		d.path = filepath.Join(dir, "demo.db")
	}
	if d.web, err = loopbackPort(d.webAddr); err != nil {
		return err
	}
	if err := d.configure(); err != nil {
		return err
	}
	defer d.logFile.Close()
	var id string
	err = withStore(d.path, func(tx *store.Tx) error {
		var err error
		id, _, err = mail.NewGame(tx, gomail.Address{Name: d.cfg.Referee.Name, Address: d.cfg.Referee.Address}, d.cfg.RefereeOptions(),
			ref.NewGame{Scenario: d.scenario, German: d.german, Allied: d.allied, Deadline: d.cfg.Referee.Deadline,
				Languages: map[rules.Side]string{rules.German: d.language, rules.Allied: d.language}}, d.c.now())
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, demoText, d.imapAddr, d.smtpAddr, d.german, d.password, d.allied, d.password, d.referee, d.web,
		kept(d.path, d.temporary), d.logPath, id, d.scenario, d.dir)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := daemon.Logger(d.cfg, d.logFile)
	if err := d.players(ctx, log, id); err != nil {
		return err
	}
	return serve(ctx, d.cfg, log, io.Discard)
}

// configure makes the demo's settings, its mail directory and its log.
func (d *demo) configure() error {
	toml := fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
deadline = "72h"
language = %q
[imap]
address = %q
security = "none"
username = %q
password = "referee"
poll_interval = "5s"
[smtp]
address = %q
security = "none"
retry_min = "1s"
retry_max = "10s"
[embedded]
enabled = true
imap_address = %q
smtp_address = %q
[embedded.users]
%q = "referee"
%q = %q
%q = %q
[log]
level = %q
[web]
listen = %q
`, d.path, d.referee, d.language, d.imapAddr, d.referee, d.smtpAddr, d.imapAddr, d.smtpAddr, d.referee, d.german, d.password, d.allied, d.password, map[bool]string{true: "warn", false: "info"}[d.quiet], d.web)
	var err error
	if d.cfg, err = daemon.ParseConfig("demo", []byte(toml), os.Getenv); err != nil {
		return fmt.Errorf("the demo's settings: %w", err)
	}
	d.dir = d.mailDir
	if d.dir == "" {
		if d.dir, err = os.MkdirTemp("", "titm-demo-mail-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return fmt.Errorf("the mail directory: %w", err)
	}
	// The daemon's log goes to a file, so that the console lists the
	// mails alone.
	d.logPath = strings.TrimSuffix(d.path, filepath.Ext(d.path)) + ".log"
	if d.temporary {
		d.logPath = filepath.Join(d.dir, "titm-demo.log")
	}
	if d.logFile, err = os.OpenFile(d.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err != nil {
		return fmt.Errorf("the demo's log: %w", err)
	}
	return nil
}

// players starts a reader of each player's mailbox, scripted players with
// --autoplay, which say so when they are done.
func (d *demo) players(ctx context.Context, log *slog.Logger, id string) error {
	scen, err := loadScenario(d.scenario)
	if err != nil {
		return err
	}
	mails := &mailList{dir: d.dir, out: d.out, log: log}
	var wg sync.WaitGroup
	for _, p := range []struct {
		side rules.Side
		addr string
	}{{rules.German, d.german}, {rules.Allied, d.allied}} {
		b := &bot{side: p.side, addr: p.addr, password: d.password, referee: d.referee, game: id, language: d.language,
			imap: d.imapAddr, smtp: d.smtpAddr, socket: d.cfg.Store.ControlSocket, scenario: scen, log: log.With("player", p.side), out: d.out, mails: mails}
		if d.autoplay {
			b.impulses, b.last = d.impulses, lastImpulse(scen, d.impulses)
			wg.Add(1)
		}
		go b.play(ctx, wg.Done)
	}
	if d.autoplay {
		go func() {
			wg.Wait()
			fmt.Fprintf(d.out, doneText, d.impulses, d.dir, d.web, id, d.imapAddr, d.smtpAddr, d.german, d.allied, d.password, d.referee, id)
		}()
	}
	return nil
}

// demoText is what the demo says when it begins.
const demoText = `titm demo: a game of Tigers in the Mist by mail, on this machine alone.

  IMAP  %s  no TLS, plain login
  SMTP  %s  no TLS, no login
  German player  %s  password %s
  Allied player  %s  password %s
  The referee    %s
  The journal    http://%s/  the games on the web: reports, dice, map, replay
  The game       %s
  The log        %s

Game %s (%s) is made: each player's mailbox holds a welcome mail with his
token. Answer it with JOIN to begin, then send orders (HELP explains them).
Every mail the players receive is also written to
  %s
as a .eml file (any mail program opens one; mail 5 is the file 005-...) and
listed here as it arrives.
Stop with Ctrl-C.

`

// kept says on the console where the demo keeps its game and mailboxes.
func kept(path string, temporary bool) string {
	if temporary {
		return path + "  and " + path + ".mail, removed at the end (--temporary)"
	}
	return path + "  kept, with the mailboxes in " + path + ".mail"
}

// loopbackPort returns addr when it is free to listen on, or else a free
// port of the loopback address: the demo's journal should not keep the
// demo from starting because another program holds the usual port.
func loopbackPort(addr string) (string, error) {
	if ln, err := net.Listen("tcp", addr); err == nil {
		ln.Close()
		return addr, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("the journal's port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// withStore runs fn in a transaction on a store that no daemon holds.
func withStore(path string, fn func(*store.Tx) error) error {
	st, err := store.Open(path, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Update(fn)
}

// doneText is what the demo says when its scripted players are done.
const doneText = `
demo: the scripted players are done: each played %d impulse(s), and the
reports of them are listed above. The mails are in
  %s
and the game, its reports, dice and map are on the web at
  http://%s/games/%s
They play no more. To read the mails in a mail program and play on by hand,
add an account there for each player:
  IMAP  %s  no TLS, plain login (password in the clear)
  SMTP  %s  no TLS, no login
  user  %s or %s, password %s
and answer the report that says whose impulse is next, to
  %s
with the lines GAME %s and TOKEN (from the player's welcome mail), then
the orders; HELP lists them and BRIEF tells the scenario. Stop with Ctrl-C.
`

// lastImpulse is the impulse whose report ends the scripted play: the
// players play n impulses each from the scenario's start, the game ending
// sooner if the scenario does.
func lastImpulse(s *rules.Scenario, n int) string {
	i := s.StartImpulse
	for k := 1; k < 2*n && i.Before(s.EndImpulse); k++ {
		i = rules.NextImpulse(i)
	}
	return i.String()
}

// mailList writes each mail the players receive to a directory as a .eml
// file and lists it, so that the demo shows its mails without a mail
// program. The log gets a line for each with its number and Message-ID,
// which the daemon's "mail sent" line has too: the list's mail 5 is the
// log's mail of that Message-ID, whatever number the store gave it.
type mailList struct {
	mu  sync.Mutex
	dir string
	out io.Writer
	log *slog.Logger
	n   int
}

// add writes one mail to the directory and lists it: its subject,
// recipient and size.
func (l *mailList) add(to, subject, messageID string, raw []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	user, _, _ := strings.Cut(to, "@")
	name := fmt.Sprintf("%03d-%s-%s.eml", l.n, nameOf(user, 40), nameOf(subject, 120))
	if err := os.WriteFile(filepath.Join(l.dir, name), raw, 0o644); err != nil {
		return err
	}
	l.log.Info("demo: mail listed", "n", l.n, "to", to, "message_id", messageID, "file", name)
	fmt.Fprintf(l.out, "mail %3d  to %s  %8s  %s\n", l.n, to, size(len(raw)), subject)
	return nil
}

// nameOf is s as a part of a file name of at most max bytes: its letters
// and digits of any script and its other characters kept, but for what a
// file system or a shell cannot take as it is (a slash, a control
// character, a space, ASCII punctuation a shell reads), each run of which
// becomes one hyphen, and a leading dot or hyphen, which would hide the
// file or read as an option. It is cut at a character's boundary.
func nameOf(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if unsafeInName(r) {
			if !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
			continue
		}
		b.WriteRune(r)
	}
	name := strings.TrimLeft(b.String(), ".-")
	if len(name) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	return strings.TrimRight(name, "-")
}

// unsafeInName reports whether a file name leaves r out: a character that
// is not a letter, digit or mark and that a file system or a shell
// cannot take as it is. Non-ASCII punctuation (、。「」) is kept.
func unsafeInName(r rune) bool {
	switch {
	case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.IsSpace(r):
		return true
	case r >= utf8.RuneSelf:
		return false
	case unicode.IsLetter(r), unicode.IsDigit(r):
		return false
	}
	return !strings.ContainsRune("_.+=@", r)
}

// size writes a mail's size as a person reads it: 812 B, 14.2 KB.
func size(n int) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1000)
}

// lockedWriter is a writer for several goroutines, a line each.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// bot reads a player's mailbox for the demo: it writes each mail to the
// mail list and, when it is a scripted player (impulses > 0), joins, and
// when a report says it is to move, sends orders that move every unit it
// may, attacking where it can.
type bot struct {
	side           rules.Side
	addr, password string
	referee, game  string
	language       string // the code of the language of his own words
	imap, smtp     string
	socket         string          // the daemon's control socket
	scenario       *rules.Scenario // the game's
	impulses       int             // to play; 0 for a mailbox only listed
	last           string          // the impulse whose report ends the scripted play
	mails          *mailList
	log            *slog.Logger
	out            io.Writer
	token          string
	seen           map[imap.UID]bool
	played         int
	lastSent       string
	sawLast        bool // the report of the last impulse has come
}

// gameTag finds the game a mail's subject names, as [intro-1].
var gameTag = regexp.MustCompile(`\[([a-z0-9-]+-[0-9]+)\]`)

// welcomeToken finds the token in a welcome mail.
var welcomeToken = regexp.MustCompile(`(?m)^\s+TOKEN (\S+)`)

// play reads the mailbox every second until ctx is done; done is called
// once when a scripted player has played his impulses and the report of
// the last one has come.
func (b *bot) play(ctx context.Context, done func()) {
	b.seen = map[imap.UID]bool{}
	told := false
	for ctx.Err() == nil {
		if err := b.round(); err != nil {
			b.log.Debug("demo player", "err", err)
		}
		if b.impulses > 0 && !told && b.played >= b.impulses && b.sawLast {
			told = true
			done()
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// round reads the new mails once and answers what needs an answer.
func (b *bot) round() error {
	c, err := imapclient.DialInsecure(b.imap, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Login(b.addr, b.password).Wait(); err != nil {
		return err
	}
	if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		return err
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		return err
	}
	for _, uid := range data.AllUIDs() {
		if b.seen[uid] {
			continue
		}
		b.seen[uid] = true
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil || len(msgs) == 0 {
			return err
		}
		raw := msgs[0].FindBodySection(section)
		in, err := mail.ParseIncoming(raw)
		if err != nil {
			continue
		}
		if m := gameTag.FindStringSubmatch(in.Subject); m != nil && m[1] != b.game {
			continue // a game of an earlier demo kept in the same store
		}
		if err := b.mails.add(b.addr, in.Subject, in.MessageID, raw); err != nil {
			return err
		}
		if b.impulses == 0 {
			continue
		}
		// The report of the last impulse, in any language: "[intro-1]
		// A16-1 played; ..." or "[intro-1] A16-1 実行、...".
		if strings.Contains(in.Subject, "] "+b.last+" ") {
			b.sawLast = true
		}
		if m := welcomeToken.FindStringSubmatch(in.Text); m != nil && b.token == "" {
			b.token = m[1]
			fmt.Fprintf(b.out, "demo: the %s player joins game %s\n", b.side.Title(), b.game)
			w := demoWords[b.language]
			b.send(fmt.Sprintf(w.join, b.game), fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN SEED "+w.seed+"\n", b.game, b.token, lang.For(b.language).Side(b.side)))
		}
	}
	return b.move()
}

// move sends orders when the game waits for this side's impulse.
func (b *bot) move() error {
	if b.token == "" || b.played >= b.impulses {
		return nil
	}
	// The position, asked of the daemon as titm show asks it.
	resp, err := forward(b.socket, request{Version: protocol, Act: "show", Game: b.game})
	if err != nil {
		return err
	}
	if err := resp.err(); err != nil {
		return err
	}
	g := resp.Game
	if g.ToMove() != b.side || g.Next.String() == b.lastSent {
		return nil
	}
	orders, err := playtest.EveryAttack(b.scenario, g.State)
	if err != nil {
		return err
	}
	b.lastSent = g.Next.String()
	b.played++
	fmt.Fprintf(b.out, "demo: the %s player sends orders for %s\n", b.side.Title(), g.Next)
	return b.send(fmt.Sprintf(demoWords[b.language].orders, b.game, g.Next.String()), fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE %d-%d\n%s\n", b.game, b.token, g.Next.Day, g.Next.N, orders))
}

// demoWords are the scripted players' own words, by language: the
// subjects of their mails and their seed, which are theirs and not the
// referee's texts.
var demoWords = map[string]struct{ join, orders, seed string }{
	lang.English:  {join: "[%s] JOIN", orders: "[%s] orders for %s", seed: "the %s player's demo seed"},
	lang.Japanese: {join: "[%s] 参加します", orders: "[%s] %s の命令", seed: "%sプレイヤーのデモ用のシード"},
}

// send mails a text to the referee over SMTP, as a mail program would.
func (b *bot) send(subject, text string) error {
	var buf bytes.Buffer
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Address: b.addr}})
	h.SetAddressList("To", []*gomail.Address{{Address: b.referee}})
	h.SetSubject(subject)
	h.SetDate(time.Now())
	h.GenerateMessageID()
	w, err := gomail.CreateSingleInlineWriter(&buf, h)
	if err != nil {
		return err
	}
	io.WriteString(w, text)
	w.Close()
	c, err := smtp.Dial(b.smtp)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(b.addr, []string{b.referee}, &buf); err != nil {
		return err
	}
	return c.Quit()
}
