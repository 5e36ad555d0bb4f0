package mail_test

import (
	"context"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"titm/mail"
)

// checkSteps runs CheckConnections and returns its steps as printed.
func checkSteps(t *testing.T, cfg *mail.Config) (bool, []string) {
	t.Helper()
	var steps []string
	ok := mail.CheckConnections(context.Background(), cfg, func(s mail.CheckStep) { steps = append(steps, s.String()) })
	return ok, steps
}

// The connection check logs in to both servers as serve would, reports each
// step, and stops a server's check at its first failure, naming the step.
func TestCheckConnections(t *testing.T) {
	t.Parallel()
	plain := newWorld(t, &worldOptions{noStart: true})
	secure := newWorld(t, &worldOptions{noStart: true, tls: true})
	cases := []struct {
		name  string
		w     *world
		edit  func(*mail.Config)
		ok    bool
		want  []string // steps printed, in order, as their beginnings
		never []string
	}{
		{name: "good, in the clear on loopback", w: plain, ok: true, want: []string{
			"imap: connect to 127.0.0.1:", "imap: log in as referee@test.example: ok", "imap: select the folder INBOX: ok (0 message(s); IDLE)",
			"imap: find the folder processed: ok", "smtp: connect to 127.0.0.1:", "smtp: EHLO: ok", "smtp: log in: ok (skipped: no smtp.username"}},
		{name: "good, STARTTLS and AUTH", w: secure, ok: true, edit: func(c *mail.Config) {
			c.SMTP.Username, c.SMTP.Password = referee, "ref-pass"
		}, want: []string{"imap: STARTTLS: ok", "imap: log in as referee@test.example: ok", "imap: select the folder INBOX: ok",
			"smtp: EHLO and STARTTLS: ok", "smtp: EHLO: ok", "smtp: log in as referee@test.example: ok"}},
		{name: "a wrong IMAP password", w: plain, edit: func(c *mail.Config) { c.IMAP.Password = "wrong" },
			want:  []string{"imap: log in as referee@test.example: FAILED", "smtp: EHLO: ok"},
			never: []string{"imap: select", "wrong"}},
		{name: "a wrong folder", w: plain, edit: func(c *mail.Config) { c.IMAP.Folder = "Orders" },
			want: []string{"imap: log in as referee@test.example: ok", "imap: select the folder Orders: FAILED"}, never: []string{"imap: find"}},
		{name: "a wrong SMTP password", w: secure, edit: func(c *mail.Config) {
			c.SMTP.Username, c.SMTP.Password = referee, "wrong"
		}, want: []string{"imap: find the folder processed: ok", "smtp: log in as referee@test.example: FAILED"}},
		{name: "a certificate not trusted", w: secure, edit: func(c *mail.Config) {
			c.IMAP.InsecureSkipVerify, c.SMTP.InsecureSkipVerify = false, false
		}, want: []string{"imap: STARTTLS: FAILED", "certificate", "smtp: EHLO: FAILED", "certificate"}, never: []string{"log in"}},
		{name: "STARTTLS asked of a server without it", w: plain, edit: func(c *mail.Config) {
			c.IMAP.Security, c.SMTP.Security = "starttls", "starttls"
		}, want: []string{"imap: STARTTLS: FAILED", "smtp: EHLO and STARTTLS: FAILED"}},
		{name: "TLS asked of a server in the clear", w: plain, edit: func(c *mail.Config) {
			c.IMAP.Security, c.SMTP.Security = "tls", "tls"
		}, want: []string{"imap: TLS: FAILED", "smtp: TLS: FAILED"}},
		{name: "nobody listening", w: plain, edit: func(c *mail.Config) { c.IMAP.Address = "127.0.0.1:1" },
			want: []string{"imap: connect to 127.0.0.1:1: FAILED", "smtp: log in: ok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.w.config("")
			if c.edit != nil {
				c.edit(cfg)
			}
			ok, steps := checkSteps(t, cfg)
			text := strings.Join(steps, "\n")
			if ok != c.ok {
				t.Errorf("ok %v, want %v:\n%s", ok, c.ok, text)
			}
			if testing.Verbose() {
				t.Log(text)
			}
			if fails := strings.Count(text, "FAILED"); c.ok != (fails == 0) {
				t.Errorf("%d step(s) failed, and the check says ok %v:\n%s", fails, ok, text)
			}
			rest := text
			for _, s := range c.want {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Errorf("no step %q after the ones before:\n%s", s, text)
					break
				}
				rest = rest[i+len(s):]
			}
			for _, s := range c.never {
				if strings.Contains(text, s) {
					t.Errorf("the steps hold %q:\n%s", s, text)
				}
			}
		})
	}
}

// The check sends nothing and changes nothing: a mail in the folder stays
// there unread, and nobody gets a mail.
func TestCheckConnectionsChangesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t, &worldOptions{noStart: true})
	raw, _ := message(german, "orders", "GAME x\n")
	if err := w.srv.Deliver(referee, raw); err != nil {
		t.Fatal(err)
	}
	cfg := w.config("")
	cfg.SMTP.Username, cfg.SMTP.Password = referee, "ref-pass"
	if ok, steps := checkSteps(t, cfg); !ok {
		t.Fatalf("the check failed:\n%s", strings.Join(steps, "\n"))
	}
	c, err := imapclient.DialInsecure(w.srv.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(referee, "ref-pass").Wait(); err != nil {
		t.Fatal(err)
	}
	for folder, want := range map[string][2]uint32{"INBOX": {1, 1}, "processed": {0, 0}} {
		st, err := c.Status(folder, &imap.StatusOptions{NumMessages: true, NumUnseen: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]uint32{*st.NumMessages, *st.NumUnseen}; got != want {
			t.Errorf("%s after the check: %d message(s), %d unseen; want %d, %d", folder, got[0], got[1], want[0], want[1])
		}
	}
	for _, addr := range []string{german, allied, observer} {
		if n := len(w.inbox(addr)); n != 0 {
			t.Errorf("%s got %d mail(s) from the check", addr, n)
		}
	}
}
