package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
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
		out := c.out
		imapAddr := fs.String("imap", "127.0.0.1:1143", "where the built-in IMAP server listens (loopback)")
		smtpAddr := fs.String("smtp", "127.0.0.1:1025", "where the built-in SMTP server listens (loopback)")
		german := fs.String("german", "german@demo.test", "the German player's address")
		allied := fs.String("allied", "allied@demo.test", "the Allied player's address")
		password := fs.String("password", "demo", "the players' mailbox password")
		referee := fs.String("referee", "referee@demo.test", "the referee's address")
		scenario := fs.String("scenario", "intro", "the demo game's scenario")
		db := fs.String("db", "", "the store (default: a new file in a temporary directory, removed at the end)")
		autoplay := fs.Bool("autoplay", false, "let scripted players join and play some impulses, so that reports arrive")
		impulses := fs.Int("impulses", 6, "with --autoplay, how many impulses the scripted players play")
		quiet := fs.Bool("quiet", false, "log only warnings and errors")
		return func(args []string) error {
			if len(args) > 0 {
				return usageError{"no arguments expected"}
			}
			path := *db
			if path == "" {
				dir, err := os.MkdirTemp("", "titm-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(dir)
				path = filepath.Join(dir, "demo.db")
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
`, path, *referee, *imapAddr, *referee, *smtpAddr, *imapAddr, *smtpAddr, *referee, *german, *password, *allied, *password, map[bool]string{true: "warn", false: "info"}[*quiet])
			cfg, err := mail.ParseConfig("demo", []byte(toml), os.Getenv)
			if err != nil {
				return fmt.Errorf("the demo's settings: %w", err)
			}
			var id string
			err = withStore(path, func(tx *store.Tx) error {
				var err error
				id, _, err = mail.NewGame(tx, gomail.Address{Name: cfg.Referee.Name, Address: cfg.Referee.Address},
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

Game %s (%s) is made: each player's mailbox holds a welcome mail with his
token. Answer it with JOIN to begin, then send orders (HELP explains them).
Stop with Ctrl-C.
`, *imapAddr, *smtpAddr, *german, *password, *allied, *password, *referee, id, *scenario)
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			log := logger(cfg, os.Stderr)
			if *autoplay {
				scen, err := loadScenario(*scenario)
				if err != nil {
					return err
				}
				for _, p := range []struct {
					side rules.Side
					addr string
				}{{rules.German, *german}, {rules.Allied, *allied}} {
					b := &bot{side: p.side, addr: p.addr, password: *password, referee: *referee, game: id,
						imap: *imapAddr, smtp: *smtpAddr, impulses: *impulses, socket: cfg.Store.ControlSocket, scenario: scen, log: log.With("player", p.side), out: out}
					go b.play(ctx)
				}
			}
			return serve(ctx, cfg, log, io.Discard)
		}
	},
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

// bot is a scripted player of the demo: it reads its mailbox, joins, and
// when a report says it is to move, sends orders that move every unit it
// may, attacking where it can.
type bot struct {
	side           rules.Side
	addr, password string
	referee, game  string
	imap, smtp     string
	socket         string          // the daemon's control socket
	scenario       *rules.Scenario // the game's
	impulses       int
	log            *slog.Logger
	out            io.Writer
	token          string
	seen           map[imap.UID]bool
	played         int
	lastSent       string
}

// welcomeToken finds the token in a welcome mail.
var welcomeToken = regexp.MustCompile(`(?m)^\s+TOKEN (\S+)`)

func (b *bot) play(ctx context.Context) {
	b.seen = map[imap.UID]bool{}
	for ctx.Err() == nil && b.played < b.impulses {
		if err := b.round(); err != nil {
			b.log.Debug("demo player", "err", err)
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
		in, err := mail.ParseIncoming(msgs[0].FindBodySection(section))
		if err != nil {
			continue
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
	if b.token == "" {
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
