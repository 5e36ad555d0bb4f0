package daemon

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"titm/adjudicator"
	"titm/mail"
)

// check checks what no setting can check on its own: the keys that are
// required, and the settings that depend on others. It runs once the file
// is decoded and the secrets read.
func (l *loader) check() {
	l.checkStore()
	l.checkReferee()
	l.checkServer("imap", "143", l.cfg.IMAP.Address, l.cfg.IMAP.Security)
	l.checkPort("imap", l.cfg.IMAP.Address, l.cfg.IMAP.Security)
	l.checkIMAP()
	l.checkCAFile("imap", l.cfg.IMAP.CAFile, l.cfg.IMAP.Security)
	l.checkServer("smtp", "587", l.cfg.SMTP.Address, l.cfg.SMTP.Security)
	l.checkPort("smtp", l.cfg.SMTP.Address, l.cfg.SMTP.Security)
	l.checkSMTP()
	l.checkOAuth2()
	l.checkCAFile("smtp", l.cfg.SMTP.CAFile, l.cfg.SMTP.Security)
	if l.cfg.Embedded.Enabled {
		l.checkEmbedded()
	}
	l.checkWeb()
}

// checkWeb checks that show_addresses comes with a listener to show them
// on: set alone, it would tell of a choice that changes nothing.
func (l *loader) checkWeb() {
	if l.cfg.Web.ShowAddresses && !l.defined("web", "listen") {
		l.add(toml.Key{"web", "show_addresses"}, "set, but web.listen is not; the journal that would show the addresses is served on web.listen")
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

// The ports with a meaning of their own (RFC 8314, RFC 6409): on each a
// server speaks TLS from the start, or in the clear until STARTTLS, and a
// client set the other way waits or fails at its first word.
var (
	implicitTLSPorts = map[string]map[string]string{"imap": {"993": "IMAP over TLS"}, "smtp": {"465": "mail submission over TLS"}}
	plainPorts       = map[string]map[string]string{"imap": {"143": "IMAP"}, "smtp": {"587": "mail submission", "25": "SMTP"}}
)

// submissionPorts are the ports of mail submission, where a server takes
// mail for others only from a user who has logged in (RFC 6409, 4.3).
var submissionPorts = map[string]bool{"587": true, "465": true}

// checkPort checks that the security of the IMAP or SMTP server, table,
// fits a well-known port: "tls" on a port of plain IMAP or SMTP, or
// "starttls" (the default) on one of implicit TLS, never connects.
func (l *loader) checkPort(table, addr, security string) {
	key := toml.Key{table, "security"}
	_, port, err := net.SplitHostPort(addr)
	if err != nil || l.reported(key) {
		return // no address, or a security already reported wrong
	}
	var want string
	if what, ok := implicitTLSPorts[table][port]; ok && security == "starttls" {
		want = fmt.Sprintf("port %s is %s, where the connection is encrypted from the start: set security = \"tls\"", port, what)
	} else if what, ok := plainPorts[table][port]; ok && security == "tls" {
		want = fmt.Sprintf("port %s is %s, where the connection starts unencrypted: set security = \"starttls\"", port, what)
	}
	if want == "" {
		return
	}
	if l.defined(table, "security") {
		l.add(key, "%q does not fit the address %s: %s", security, addr, want)
	} else {
		l.add(key, "the default \"starttls\" does not fit the address %s: %s", addr, want)
	}
}

// reported reports whether a problem of key was found already.
func (l *loader) reported(key toml.Key) bool {
	for _, p := range l.problems {
		if p.key.String() == key.String() {
			return true
		}
	}
	return false
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
	if err := mail.CheckCAFile(path); err != nil {
		l.add(key, "%v", err)
	}
}

func (l *loader) checkIMAP() {
	im := &l.cfg.IMAP
	if !l.defined("imap", "username") {
		l.add(toml.Key{"imap", "username"}, "required: the referee's login name on the IMAP server")
	}
	switch pass := l.imapPassword; {
	case im.Auth == "oauth2":
		im.OAuth2 = l.oauth2Table("imap")
		if pass.from != nil {
			l.add(pass.from, "set, but imap.auth is \"oauth2\", which logs in with an access token; remove the password")
		}
	case pass.from == nil:
		l.add(pass.key, "required; give it here or name an environment variable with imap.password_env")
	}
	if im.ProcessedFolder == im.Folder {
		l.add(toml.Key{"imap", "processed_folder"}, "%q is also imap.folder; read mails must go to another folder", im.ProcessedFolder)
	}
}

func (l *loader) checkSMTP() {
	sm := &l.cfg.SMTP
	switch username, pass := l.defined("smtp", "username"), l.smtpPassword; {
	case sm.Auth == "oauth2":
		sm.OAuth2 = l.oauth2Table("smtp")
		if !username {
			l.add(toml.Key{"smtp", "username"}, "required when smtp.auth is \"oauth2\": the referee's login name on the SMTP server, usually its address")
		}
		if pass.from != nil {
			l.add(pass.from, "set, but smtp.auth is \"oauth2\", which logs in with an access token; remove the password")
		}
	case username && pass.from == nil:
		l.add(pass.key, "required when smtp.username is set; give it here or name an environment variable with smtp.password_env")
	case !username && pass.from != nil:
		l.add(toml.Key{"smtp", "username"}, "required when a password is set: the referee's login name on the SMTP server")
	case !username:
		// A submission server refuses mail to others before AUTH: serve
		// would start and every mail would fail. A server on this machine
		// may take it from there without a login.
		if host, port, err := net.SplitHostPort(sm.Address); err == nil && submissionPorts[port] && !isLoopback(host) {
			l.add(toml.Key{"smtp", "username"}, "required for %s: port %s is mail submission, where the server takes mail only from a user who logs in (AUTH); give the referee's login name, and smtp.password or smtp.password_env",
				sm.Address, port)
		}
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

// oauth2Table returns the [oauth2] table for the server table, whose auth
// is "oauth2", or reports that it is missing.
func (l *loader) oauth2Table(table string) *mail.OAuth2Config {
	if l.cfg.OAuth2 == nil {
		l.add(toml.Key{table, "auth"}, "\"oauth2\" needs an [oauth2] table with the provider's token_url, client_id, scopes and the refresh token")
	}
	return l.cfg.OAuth2
}

// checkOAuth2 checks the [oauth2] table: what it requires, and that its
// endpoints are reached over TLS, as the client secret and the tokens cross
// the network.
func (l *loader) checkOAuth2() {
	o := l.cfg.OAuth2
	if o == nil {
		if l.login {
			l.add(toml.Key{"oauth2"}, "titm oauth2 login needs an [oauth2] table with token_url, device_auth_url, client_id and scopes")
		}
		return
	}
	required := []struct {
		key, msg string
		ok       bool
	}{
		{"token_url", "required: the provider's token endpoint, as \"https://oauth2.googleapis.com/token\"", l.defined("oauth2", "token_url")},
		{"client_id", "required: the identifier of the OAuth2 client registered with the provider", l.defined("oauth2", "client_id")},
		{"scopes", "required: the scopes the tokens are asked for, as [\"https://mail.google.com/\"]", l.defined("oauth2", "scopes")},
		{"device_auth_url", "required by titm oauth2 login: the provider's device authorization endpoint", !l.login || l.defined("oauth2", "device_auth_url")},
	}
	for _, r := range required {
		if !r.ok {
			l.add(toml.Key{"oauth2", r.key}, "%s", r.msg)
		}
	}
	if l.refreshToken.from == nil && !l.login {
		l.add(toml.Key{"oauth2", "refresh_token_file"}, "required (or refresh_token_env): the refresh token titm oauth2 login prints")
	}
	for _, e := range [][2]string{{"token_url", o.TokenURL}, {"device_auth_url", o.DeviceAuthURL}} {
		key, u := e[0], e[1]
		pu, err := url.Parse(u)
		if u == "" || err != nil || pu.Scheme == "https" || isLoopback(pu.Hostname()) {
			continue
		}
		l.add(toml.Key{"oauth2", key}, "%q is not https; plain http is allowed only for a server on this machine, as the tokens would cross the network unencrypted", u)
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
	if samePath(cfg.Embedded.Path, cfg.Store.Path) {
		l.add(toml.Key{"embedded", "path"}, "%q is the store itself (store.path); the embedded servers keep their mail in a file of their own, by default the store's path with \".mail\"", cfg.Embedded.Path)
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

// samePath reports whether the paths a and b name one file, as far as can
// be told without the files: the same path once cleaned and made absolute.
func samePath(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && a == b
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
