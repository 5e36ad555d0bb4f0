package mail

import (
	"bytes"
	"context"
	"net"

	"github.com/emersion/go-imap/v2/imapclient"
)

// DialIMAP connects and logs in as the inbox does, then logs out.
func DialIMAP(cfg *IMAPConfig) error {
	c, err := (&Inbox{cfg: cfg}).dial(&imapclient.Options{})
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
		return err
	}
	return c.Logout().Wait()
}

// DialSMTP connects (and logs in, if configured) as the sender does, then
// quits.
func DialSMTP(cfg *SMTPConfig) error {
	c, err := (&Sender{cfg: cfg}).dial(context.Background())
	if err != nil {
		return err
	}
	return c.Quit()
}

// LanesOf parts mails into the lanes Flush sends at once.
var LanesOf = lanesOf

// SendConns is how many connections the sender sends over at once: as many
// mails may be in flight when the daemon is killed.
const SendConns = sendConns

// SendOver sends a mail as the sender does, over conn, a connection the
// caller made to cfg's server: it encrypts as configured, logs in, sends
// and quits.
func SendOver(cfg *SMTPConfig, conn net.Conn, from string, to []string, msg []byte) error {
	tc, err := clientTLS(cfg.Address, cfg.CAFile, cfg.InsecureSkipVerify)
	if err != nil {
		return err
	}
	c, err := (&Sender{cfg: cfg}).client(context.Background(), conn, tc)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return err
	}
	return c.Quit()
}

// ScribbleFreedPictures makes the daemon overwrite the buffers of the
// pictures no one holds any more when they are freed: a mail composed with
// a picture freed too early then carries no PNG. It is a setup of
// world.start, called before the daemon runs.
func ScribbleFreedPictures(d *Daemon) {
	d.Sender.recent.scribble = true
}
