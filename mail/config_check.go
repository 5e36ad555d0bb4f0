package mail

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"titm/adjudicator"
)

// check checks what no setting can check on its own: the keys that are
// required, and the settings that depend on others. It runs once the file
// is decoded and the secrets read.
func (l *loader) check() {
	l.checkStore()
	l.checkReferee()
	l.checkServer("imap", "143", l.cfg.IMAP.Address, l.cfg.IMAP.Security)
	l.checkIMAP()
	l.checkCAFile("imap", l.cfg.IMAP.CAFile, l.cfg.IMAP.Security)
	l.checkServer("smtp", "587", l.cfg.SMTP.Address, l.cfg.SMTP.Security)
	l.checkSMTP()
	l.checkCAFile("smtp", l.cfg.SMTP.CAFile, l.cfg.SMTP.Security)
	if l.cfg.Embedded.Enabled {
		l.checkEmbedded()
	}
}

func (l *loader) checkStore() {
	if s := l.cfg.Store.ControlSocket; len(s) > maxSocketPath {
		l.add(toml.Key{"store", "control_socket"}, "%q is %d bytes long; a Unix socket path may have at most %d (set a shorter one)",
			s, len(s), maxSocketPath)
	}
}

func (l *loader) checkReferee() {
	rf := &l.cfg.Referee
	if !l.defined("referee", "address") {
		l.add(toml.Key{"referee", "address"}, "required: a mail address, as \"referee@example.org\"")
	}
	director := l.defined("referee", "director")
	switch tok := l.token; {
	case director && tok.from == nil:
		l.add(tok.key, "required when referee.director is set; give it here or name an environment variable with referee.director_token_env")
	case !director && tok.from != nil:
		l.add(tok.from, "set, but referee.director is not; give the director's address too, or remove the token")
	}
	if n := utf8.RuneCountInString(rf.DirectorToken); rf.DirectorToken != "" && n < 16 {
		// Say the length, never the token.
		l.add(l.token.from, "the token is %d characters long; a director's token must have at least 16", n)
	}
	if rf.Reminder >= rf.Deadline {
		l.add(toml.Key{"referee", "reminder"}, "%s is not shorter than referee.deadline (%s); the reminder must come before the deadline (0 for none)",
			adjudicator.FormatDuration(rf.Reminder), adjudicator.FormatDuration(rf.Deadline))
	}
}

// checkServer checks that the IMAP or SMTP server, table, is given, and
// that it is on this machine if the connection is not encrypted.
func (l *loader) checkServer(table, examplePort, addr, security string) {
	if !l.defined(table, "address") {
		l.add(toml.Key{table, "address"}, "required: the %s server as host:port, as \"mail.example.org:%s\"", strings.ToUpper(table), examplePort)
	}
	// addr is empty unless it was given and good.
	if host, _, err := net.SplitHostPort(addr); err == nil && security == "none" && !isLoopback(host) {
		// Without TLS the password crosses the network in the clear.
		l.add(toml.Key{table, "security"}, "\"none\" sends the password unencrypted, so it is allowed only for a server on this machine (127.0.0.1, ::1 or localhost), not %s", host)
	}
}

// checkCAFile reads table's ca_file, so that a file that is missing or holds
// no certificate stops titm at start, naming the key, rather than failing
// every connection later.
func (l *loader) checkCAFile(table, path, security string) {
	if path == "" {
		return
	}
	key := toml.Key{table, "ca_file"}
	if security == "none" {
		l.add(key, "set, but %s.security is \"none\", so no certificate is checked; use \"tls\" or \"starttls\", or remove ca_file", table)
		return
	}
	if _, err := loadCAFile(path); err != nil {
		l.add(key, "%v", err)
	}
}

func (l *loader) checkIMAP() {
	im := &l.cfg.IMAP
	if !l.defined("imap", "username") {
		l.add(toml.Key{"imap", "username"}, "required: the referee's login name on the IMAP server")
	}
	if l.imapPassword.from == nil {
		l.add(l.imapPassword.key, "required; give it here or name an environment variable with imap.password_env")
	}
	if im.ProcessedFolder == im.Folder {
		l.add(toml.Key{"imap", "processed_folder"}, "%q is also imap.folder; read mails must go to another folder", im.ProcessedFolder)
	}
}

func (l *loader) checkSMTP() {
	sm := &l.cfg.SMTP
	switch username, pass := l.defined("smtp", "username"), l.smtpPassword; {
	case username && pass.from == nil:
		l.add(pass.key, "required when smtp.username is set; give it here or name an environment variable with smtp.password_env")
	case !username && pass.from != nil:
		l.add(toml.Key{"smtp", "username"}, "required when a password is set: the referee's login name on the SMTP server")
	}
	if sm.RetryMax < sm.RetryMin {
		l.add(toml.Key{"smtp", "retry_max"}, "%s is shorter than smtp.retry_min (%s); it caps the wait, so it must be at least that",
			adjudicator.FormatDuration(sm.RetryMax), adjudicator.FormatDuration(sm.RetryMin))
	}
	if sm.GiveUp < sm.RetryMin {
		l.add(toml.Key{"smtp", "give_up"}, "%s is shorter than smtp.retry_min (%s); a mail would be marked failed before its first retry",
			adjudicator.FormatDuration(sm.GiveUp), adjudicator.FormatDuration(sm.RetryMin))
	}
}

// checkEmbedded checks that the embedded server has the mailboxes serve
// will use: the referee's, and the IMAP login when serve reads from the
// embedded server.
func (l *loader) checkEmbedded() {
	cfg := l.cfg
	find := func(addr string) (string, bool) {
		for u := range cfg.Embedded.Users {
			if strings.EqualFold(u, addr) {
				return u, true
			}
		}
		return "", false
	}
	if ref := cfg.Referee.Address; ref != "" {
		if _, ok := find(ref); !ok {
			l.add(usersKey, "must include the referee's mailbox %s (referee.address), as the embedded server is enabled", ref)
		}
	}
	im := cfg.IMAP
	if im.Username == "" || !sameHostPort(im.Address, cfg.Embedded.IMAPAddress) {
		return
	}
	u, ok := find(im.Username)
	switch {
	case !ok && !strings.EqualFold(im.Username, cfg.Referee.Address):
		l.add(usersKey, "must include %s (imap.username), as imap.address is the embedded IMAP server", im.Username)
	case ok && im.Password != "" && im.Password != cfg.Embedded.Users[u]:
		l.add(l.imapPassword.from, "is not the password of %s in [embedded.users], so serve could not log in to the embedded IMAP server", u)
	}
}

// splitHostPort returns the host of a, which must be host:port with a
// host and a numeric port, or what is wrong with a.
func splitHostPort(a string) (string, error) {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return "", fmt.Errorf("%q is not host:port, as \"mail.example.org:993\"", a)
	}
	if host == "" {
		return "", fmt.Errorf("%q has no host; expected host:port, as \"mail.example.org:993\"", a)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("%q: the port must be a number from 1 to 65535", a)
	}
	return host, nil
}

// isLoopback reports whether host is this machine: a loopback IP address
// or "localhost".
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameHostPort reports whether two host:port addresses are written alike.
func sameHostPort(a, b string) bool {
	ah, ap, err1 := net.SplitHostPort(a)
	bh, bp, err2 := net.SplitHostPort(b)
	return err1 == nil && err2 == nil && strings.EqualFold(ah, bh) && ap == bp
}
