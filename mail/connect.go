package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// A CheckStep is one step of CheckConnections: what was tried on which
// server, and how it went.
type CheckStep struct {
	Server string // "imap" or "smtp"
	Name   string // what was tried, as "log in as referee@example.org"
	Note   string // what a step that went well found worth saying; may be empty
	Err    error  // nil: the step went well
}

// String returns the step as a line of titm serve --check --connect.
func (s CheckStep) String() string {
	switch {
	case s.Err != nil:
		return fmt.Sprintf("%s: %s: FAILED: %v", s.Server, s.Name, s.Err)
	case s.Note != "":
		return fmt.Sprintf("%s: %s: ok (%s)", s.Server, s.Name, s.Note)
	}
	return fmt.Sprintf("%s: %s: ok", s.Server, s.Name)
}

// checkTimeout bounds each server's check, so that a server that does not
// answer (as one spoken to in the clear on a TLS port) fails the check
// instead of holding it.
const checkTimeout = 30 * time.Second

// CheckConnections does with the configured servers what serve does before
// it reads or sends a mail, and stops there: on the IMAP server it connects,
// encrypts as configured, logs in and examines the folder read-only; on the
// SMTP server it connects, says EHLO, encrypts as configured and logs in.
// It sends no mail, moves, flags and creates nothing. Each step is given to
// step as it ends; a server's check stops at its first failure. It returns
// whether every step went well.
func CheckConnections(ctx context.Context, cfg *Config, step func(CheckStep)) bool {
	imapOK := checkIMAP(ctx, &cfg.IMAP, func(s CheckStep) { s.Server = "imap"; step(s) })
	smtpOK := checkSMTP(ctx, &cfg.SMTP, func(s CheckStep) { s.Server = "smtp"; step(s) })
	return imapOK && smtpOK
}

// dialCheck connects to addr for a check, the connection closed when ctx
// ends and failing once the check's time is up.
func dialCheck(ctx context.Context, addr string) (net.Conn, func(), error) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	d := &net.Dialer{Timeout: checkTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	return conn, func() { stop(); cancel(); conn.Close() }, nil
}

// loginHow names a login that is not by password.
func loginHow(auth string) string {
	if auth == "oauth2" {
		return " with an OAuth2 token"
	}
	return ""
}

// handshake encrypts conn from the start, as security = "tls" does.
func handshake(conn net.Conn, tc *tls.Config) (net.Conn, error) {
	tconn := tls.Client(conn, tc)
	if err := tconn.Handshake(); err != nil {
		return nil, err
	}
	return tconn, nil
}

func checkIMAP(ctx context.Context, cfg *IMAPConfig, step func(CheckStep)) bool {
	ok := func(name, note string) { step(CheckStep{Name: name, Note: note}) }
	fail := func(name string, err error) bool { step(CheckStep{Name: name, Err: err}); return false }
	conn, done, err := dialCheck(ctx, cfg.Address)
	if err != nil {
		return fail("connect to "+cfg.Address, err)
	}
	defer done()
	ok("connect to "+cfg.Address, "")
	// The daemon's own TLS settings, ca_file included.
	tc, err := clientTLS(cfg.Address, cfg.CAFile, cfg.InsecureSkipVerify)
	if err != nil {
		return fail("TLS", err)
	}
	tc.NextProtos = []string{"imap"}
	var c *imapclient.Client
	switch cfg.Security {
	case "tls":
		if conn, err = handshake(conn, tc); err != nil {
			return fail("TLS", certHint(err, "imap"))
		}
		ok("TLS", "")
		c = imapclient.New(conn, nil)
	case "none":
		c = imapclient.New(conn, nil)
	default:
		tc.NextProtos = nil
		if c, err = imapclient.NewStartTLS(conn, &imapclient.Options{TLSConfig: tc}); err != nil {
			return fail("STARTTLS", certHint(err, "imap"))
		}
		ok("STARTTLS", "")
	}
	defer c.Close()
	if err := c.WaitGreeting(); err != nil {
		return fail("greeting", err)
	}
	// The inbox's own login: the password, or an OAuth2 token.
	if err := (&Inbox{cfg: cfg}).login(c); err != nil {
		return fail("log in as "+cfg.Username+loginHow(cfg.Auth), err)
	}
	ok("log in as "+cfg.Username+loginHow(cfg.Auth), "")
	// EXAMINE, not SELECT: the check leaves even the \Recent flags alone.
	sel, err := c.Select(cfg.Folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return fail("select the folder "+cfg.Folder, err)
	}
	idle := "no IDLE: polled every " + cfg.PollInterval.String()
	if c.Caps().Has(imap.CapIdle) || c.Caps().Has(imap.CapIMAP4rev2) {
		idle = "IDLE"
	}
	ok("select the folder "+cfg.Folder, fmt.Sprintf("%d message(s); %s", sel.NumMessages, idle))
	// serve creates the processed folder; the check only looks for it.
	list, err := c.List("", cfg.ProcessedFolder, nil).Collect()
	switch {
	case err != nil:
		return fail("find the folder "+cfg.ProcessedFolder, err)
	case len(list) == 0:
		ok("find the folder "+cfg.ProcessedFolder, "missing: serve creates it")
	default:
		ok("find the folder "+cfg.ProcessedFolder, "")
	}
	c.Logout().Wait()
	return true
}

func checkSMTP(ctx context.Context, cfg *SMTPConfig, step func(CheckStep)) bool {
	ok := func(name, note string) { step(CheckStep{Name: name, Note: note}) }
	fail := func(name string, err error) bool { step(CheckStep{Name: name, Err: err}); return false }
	conn, done, err := dialCheck(ctx, cfg.Address)
	if err != nil {
		return fail("connect to "+cfg.Address, err)
	}
	defer done()
	ok("connect to "+cfg.Address, "")
	tc, err := clientTLS(cfg.Address, cfg.CAFile, cfg.InsecureSkipVerify)
	if err != nil {
		return fail("TLS", err)
	}
	var c *smtp.Client
	switch cfg.Security {
	case "tls":
		if conn, err = handshake(conn, tc); err != nil {
			return fail("TLS", certHint(err, "smtp"))
		}
		ok("TLS", "")
		c = smtp.NewClient(conn)
	case "none":
		c = smtp.NewClient(conn)
	default:
		// Greeting, EHLO and STARTTLS are one call of the client; the
		// handshake happens at the EHLO that follows.
		if c, err = smtp.NewClientStartTLS(conn, tc); err != nil {
			return fail("EHLO and STARTTLS", certHint(err, "smtp"))
		}
		ok("EHLO and STARTTLS", "")
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fail("EHLO", err)
	}
	ok("EHLO", "")
	if cfg.Username == "" {
		ok("log in", "skipped: no smtp.username, so serve sends without logging in")
	} else {
		// The sender's own login: the password, or an OAuth2 token.
		if err := (&Sender{cfg: cfg}).login(c); err != nil {
			return fail("log in as "+cfg.Username+loginHow(cfg.Auth), err)
		}
		ok("log in as "+cfg.Username+loginHow(cfg.Auth), "")
	}
	c.Quit()
	return true
}
