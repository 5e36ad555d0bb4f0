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

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	ref "titm/adjudicator/referee"
	"titm/internal/playtest"
	"titm/mail"
	"titm/rules"
	"titm/store"
)

var demoCmd = &command{
	name:    "demo",
	summary: "a game by mail on this machine alone: built-in IMAP and SMTP servers, a demo game, and optionally players that play it",
	setup: func(fs *flag.FlagSet, c *cli) func([]string) error {
		out := &lockedWriter{w: c.out} // the players and the mail list write from their goroutines
		imapAddr := fs.String("imap", "127.0.0.1:1143", "where the built-in IMAP server listens (loopback)")
		smtpAddr := fs.String("smtp", "127.0.0.1:1025", "where the built-in SMTP server listens (loopback)")
		german := fs.String("german", "german@demo.test", "the German player's address")
		allied := fs.String("allied", "allied@demo.test", "the Allied player's address")
		password := fs.String("password", "demo", "the players' mailbox password")
		referee := fs.String("referee", "referee@demo.test", "the referee's address")
		scenario := fs.String("scenario", "intro", "the demo game's scenario")
		db := fs.String("db", "titm-demo.db", "the store, with the built-in servers' mailboxes beside it in FILE.mail and the log in FILE without its extension plus .log, all kept: a later demo with the same file makes a new game beside the earlier ones")
		temporary := fs.Bool("temporary", false, "keep the store and the mailboxes in a temporary directory, removed at the end, instead of --db (the log goes to the mail directory)")
		autoplay := fs.Bool("autoplay", false, "let scripted players join and play some impulses, so that reports arrive")
		impulses := fs.Int("impulses", 6, "with --autoplay, how many impulses each scripted player plays")
		quiet := fs.Bool("quiet", false, "log only warnings and errors")
		webAddr := fs.String("web", "127.0.0.1:8080", "where the web journal of the games listens (loopback); another free loopback port when it is taken")
		mailDir := fs.String("mail-dir", "", "where each mail the players receive is written as a .eml file (default: a new directory in the system's temporary directory, kept at the end)")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			dbSet := false
			fs.Visit(func(f *flag.Flag) { dbSet = dbSet || f.Name == "db" })
			if *temporary && dbSet {
				return usageError{"--temporary and --db: give one"}
			}
			path := *db
			if path == "" {
				return usageError{"--db: the store's file name is empty"}
			}
			if *temporary {
				dir, err := os.MkdirTemp("", "titm-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				path = filepath.Join(dir, "demo.db")
			}
			web, err := loopbackPort(*webAddr)
			if err != nil {
				return err
			}
			toml := fmt.Sprintf(`[store]
path = %q
[referee]
address = %q
deadline = "72h"
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
`, path, *referee, *imapAddr, *referee, *smtpAddr, *imapAddr, *smtpAddr, *referee, *german, *password, *allied, *password, map[bool]string{true: "warn", false: "info"}[*quiet], web)
			cfg, err := mail.ParseConfig("demo", []byte(toml), os.Getenv)
			if err != nil {
				return fmt.Errorf("the demo's settings: %w", err)
			}
			dir := *mailDir
			if dir == "" {
				if dir, err = os.MkdirTemp("", "titm-demo-mail-"); err != nil {
					return err
				}
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("the mail directory: %w", err)
			}
			// The daemon's log goes to a file, so that the console lists the
			// mails alone.
			logPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".log"
			if *temporary {
				logPath = filepath.Join(dir, "titm-demo.log")
			}
			logFile, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				return fmt.Errorf("the demo's log: %w", err)
			}
			defer logFile.Close()
			var id string
			err = withStore(path, func(tx *store.Tx) error {
				var err error
				id, _, err = mail.NewGame(tx, gomail.Address{Name: cfg.Referee.Name, Address: cfg.Referee.Address}, cfg.RefereeOptions(),
					ref.NewGame{Scenario: *scenario, German: *german, Allied: *allied, Deadline: cfg.Referee.Deadline}, c.now())
				return err
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(out, `titm demo: a game of Tigers in the Mist by mail, on this machine alone.

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

`, *imapAddr, *smtpAddr, *german, *password, *allied, *password, *referee, web, kept(path, *temporary), logPath, id, *scenario, dir)
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			log := logger(cfg, logFile)
			scen, err := loadScenario(*scenario)
			if err != nil {
				return err
			}
			mails := &mailList{dir: dir, out: out, log: log}
			var wg sync.WaitGroup
			for _, p := range []struct {
				side rules.Side
				addr string
			}{{rules.German, *german}, {rules.Allied, *allied}} {
				b := &bot{side: p.side, addr: p.addr, password: *password, referee: *referee, game: id,
					imap: *imapAddr, smtp: *smtpAddr, socket: cfg.Store.ControlSocket, scenario: scen, log: log.With("player", p.side), out: out, mails: mails}
				if *autoplay {
					b.impulses, b.last = *impulses, lastImpulse(scen, *impulses)
					wg.Add(1)
				}
				go b.play(ctx, wg.Done)
			}
			if *autoplay {
				go func() {
					wg.Wait()
					fmt.Fprintf(out, doneText, *impulses, dir, web, id, *imapAddr, *smtpAddr, *german, *allied, *password, *referee, id)
				}()
			}
			return serve(ctx, cfg, log, io.Discard)
		}
	},
}

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

// unsafeName is what a file name leaves out of a subject.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9]+`)

// add writes one mail to the directory and lists it: its subject,
// recipient and size.
func (l *mailList) add(to, subject, messageID string, raw []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	slug := strings.Trim(unsafeName.ReplaceAllString(subject, "-"), "-")
	if len(slug) > 60 {
		slug = strings.TrimRight(slug[:60], "-")
	}
	user, _, _ := strings.Cut(to, "@")
	name := fmt.Sprintf("%03d-%s-%s.eml", l.n, unsafeName.ReplaceAllString(user, "-"), slug)
	if err := os.WriteFile(filepath.Join(l.dir, name), raw, 0o644); err != nil {
		return err
	}
	l.log.Info("demo: mail listed", "n", l.n, "to", to, "message_id", messageID, "file", name)
	fmt.Fprintf(l.out, "mail %3d  to %s  %8s  %s\n", l.n, to, size(len(raw)), subject)
	return nil
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
		if strings.Contains(in.Subject, "] "+b.last+" played") {
			b.sawLast = true
		}
		if m := welcomeToken.FindStringSubmatch(in.Text); m != nil && b.token == "" {
			b.token = m[1]
			fmt.Fprintf(b.out, "demo: the %s player joins game %s\n", b.side.Title(), b.game)
			b.send(fmt.Sprintf("GAME %s\nTOKEN %s\nJOIN SEED the %s player's demo seed\n", b.game, b.token, b.side))
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
	return b.send(fmt.Sprintf("GAME %s\nTOKEN %s\nIMPULSE %d-%d\n%s\n", b.game, b.token, g.Next.Day, g.Next.N, orders))
}

// send mails a text to the referee over SMTP, as a mail program would.
func (b *bot) send(text string) error {
	var buf bytes.Buffer
	var h gomail.Header
	h.SetAddressList("From", []*gomail.Address{{Address: b.addr}})
	h.SetAddressList("To", []*gomail.Address{{Address: b.referee}})
	h.SetSubject("[" + b.game + "] " + firstWords(text))
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

func firstWords(text string) string {
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] != "GAME" && f[0] != "TOKEN" {
			return strings.Join(f, " ")
		}
	}
	return "orders"
}
