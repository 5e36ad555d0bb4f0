// Package embedded runs a small, self-contained mail system on loopback: an
// IMAP server and an SMTP server that delivers every accepted message
// straight into its mailboxes.
//
// The mailboxes are kept in a bbolt file of their own (Options.Path), so
// that they, their UIDVALIDITY and their UIDs survive a restart, as an IMAP
// client that remembers what it has read requires; without a file they
// live in memory alone.
//
// It exists so that `titm demo`, `titm serve` with the example configuration
// and the end-to-end tests need no outside mail server. It is not meant to
// face a network: logins travel in plain text.
package embedded

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

const (
	defaultDomain          = "localhost"
	defaultMaxMessageBytes = 10 << 20

	// An abandoned SMTP client would otherwise hold its goroutine until
	// Close; these bound that without troubling any real client.
	smtpReadTimeout  = 10 * time.Minute
	smtpWriteTimeout = time.Minute

	// closeWait bounds how long Close waits for the IMAP connections'
	// sessions to end (see Close).
	closeWait = 5 * time.Second

	// idleRecheck bounds how late an IDLE client hears of a message that
	// arrived while its IDLE was starting (see imapSession.Idle).
	idleRecheck = 250 * time.Millisecond
)

// Options configure Start. A nil *Options is not allowed (Users is
// required). Start copies what it needs, so the Options may be reused or
// changed afterwards.
type Options struct {
	// IMAPAddr is the IMAP listen address, e.g. "127.0.0.1:1143";
	// "127.0.0.1:0" picks a free port (see Servers.IMAPAddr). Required.
	IMAPAddr string
	// Path is the bbolt file the mailboxes are kept in, made when missing;
	// "" keeps them in memory, lost at Close. Only one Servers may have a
	// file open: Start fails when another process holds it.
	Path string
	// SMTPAddr is the SMTP listen address, e.g. "127.0.0.1:1025". Required.
	SMTPAddr string
	// Users maps a mail address to its password. Each user gets the
	// mailboxes INBOX and Folders; the IMAP login name is the address.
	// Addresses are compared case-insensitively. At least one user is
	// required, and every password must be non-empty.
	Users map[string]string
	// Folders are extra mailboxes made for every user, e.g. "processed".
	Folders []string
	// Domain is the SMTP greeting domain; "" means "localhost".
	Domain string
	// MaxMessageBytes is the largest message SMTP accepts; 0 means 10 MiB.
	// Because of how go-smtp counts, a message must be strictly smaller
	// than the limit.
	MaxMessageBytes int64
	// Fault, when set, is called once for each recipient of each message,
	// with to holding that one recipient, after DATA has been read and
	// before anything is delivered. The first non-nil error is returned to
	// the SMTP client and the message is delivered to no one. An
	// *smtp.SMTPError is passed on as is (tests return
	// &smtp.SMTPError{Code: 451, ...} or 550 to simulate failures); any
	// other error becomes a 554. Fault is called from the SMTP connection's
	// goroutine, so it must be safe for concurrent use, and Close waits for
	// calls in progress.
	Fault func(from string, to []string) error
	// Discard, when set, is called for each recipient of each message
	// accepted by SMTP, after Fault: a recipient for whom it returns true
	// is not given the message, which is accepted and dropped, as by a
	// server that keeps nothing for the address. A benchmark that counts
	// the mails but reads none of them sets it, so that its process does
	// not hold them all. It must be safe for concurrent use.
	Discard func(to string) bool
	// TLSConfig, when set, lets clients switch both servers to TLS with
	// STARTTLS, as mail servers on the network do; plain connections are
	// still accepted.
	TLSConfig *tls.Config
	// TokenCheck, when set, lets clients log in to both servers with an
	// OAuth2 access token, by the SASL mechanisms XOAUTH2 and OAUTHBEARER,
	// as well as with their password: it is called with the login name and
	// the token, and a login is refused when it returns an error. The user
	// must be among Users. It is called from the connections' goroutines,
	// so it must be safe for concurrent use.
	TokenCheck func(user, token string) error
	// Logger receives the servers' logs; nil means slog.Default().
	// Passwords and tokens are never logged.
	Logger *slog.Logger
}

// Servers are the running servers, started by Start. All methods are safe
// for concurrent use.
type Servers struct {
	log        *slog.Logger
	fault      func(from string, to []string) error
	discard    func(to string) bool
	tokenCheck func(user, token string) error
	mail       *backend
	users      map[string]*user // by lowercased address; read-only after Start
	// passwords are the users' passwords, by lowercased address, with which
	// a login by token opens the mailbox.
	passwords map[string]string

	imapSrv    *imapserver.Server
	smtpSrv    *smtp.Server
	imapLn     *trackingListener
	smtpLn     *trackingListener
	imapServed chan struct{}
	smtpServed chan struct{}

	// imapActive counts IMAP connections from Accept until their session
	// closes, plus one held by the Servers until Close; imapserver does not
	// wait for its connections, so Close waits on this instead.
	imapActive sync.WaitGroup

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

// Start listens on both addresses, starts serving and returns once both
// listeners are open; it does not block beyond that. If either address
// cannot be listened on, nothing is left running and the error names the
// address. Start is safe for concurrent use.
func Start(opt *Options) (*Servers, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	folders, err := folderList(opt.Folders)
	if err != nil {
		return nil, err
	}
	passwords, err := checkUsers(opt.Users)
	if err != nil {
		return nil, err
	}

	logger := opt.Logger
	if logger == nil {
		logger = slog.Default()
	}
	logger = logger.With("component", "embedded-mail")

	s := &Servers{
		log:        logger,
		fault:      opt.Fault,
		discard:    opt.Discard,
		tokenCheck: opt.TokenCheck,
		passwords:  passwords,
		imapServed: make(chan struct{}),
		smtpServed: make(chan struct{}),
	}

	imapLn, err := net.Listen("tcp", opt.IMAPAddr)
	if err != nil {
		return nil, fmt.Errorf("embedded: listening for IMAP on %s: %w", opt.IMAPAddr, err)
	}
	smtpLn, err := net.Listen("tcp", opt.SMTPAddr)
	if err != nil {
		imapLn.Close()
		return nil, fmt.Errorf("embedded: listening for SMTP on %s: %w", opt.SMTPAddr, err)
	}
	if testHookListen != nil {
		smtpLn = testHookListen(smtpLn)
	}
	// The file is opened once the ports are ours: a serve already running
	// is then named by its ports, as before there was a file.
	if s.mail, err = openBackend(opt.Path, passwords, folders, time.Now); err != nil {
		imapLn.Close()
		smtpLn.Close()
		return nil, err
	}
	s.users = s.mail.users
	s.imapActive.Add(1) // released by Close
	s.imapLn = newTrackingListener(imapLn, func() { s.imapActive.Add(1) }, 0)
	s.smtpLn = newTrackingListener(smtpLn, nil, smtpReadBuffer)
	s.newIMAP(opt)
	s.newSMTP(opt)
	s.serve()

	for _, a := range []net.Addr{imapLn.Addr(), smtpLn.Addr()} {
		if ta, ok := a.(*net.TCPAddr); ok && !ta.IP.IsLoopback() {
			s.log.Warn("listening beyond loopback; logins travel in plain text", "addr", a.String())
		}
	}
	s.log.Info("embedded mail servers started",
		"imap", s.IMAPAddr(), "smtp", s.SMTPAddr(), "users", len(s.users), "mail_file", opt.Path)
	return s, nil
}

// checkOptions checks what Start needs of its options.
func checkOptions(opt *Options) error {
	switch {
	case opt == nil:
		return errors.New("embedded: no options (Users is required)")
	case opt.IMAPAddr == "":
		return errors.New("embedded: no IMAP listen address")
	case opt.SMTPAddr == "":
		return errors.New("embedded: no SMTP listen address")
	case opt.MaxMessageBytes < 0:
		return fmt.Errorf("embedded: negative message size limit %d", opt.MaxMessageBytes)
	}
	return nil
}

// newIMAP makes the IMAP server.
func (s *Servers) newIMAP(opt *Options) {
	s.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			inner := &session{b: s.mail}
			return &imapSession{SessionIMAP4rev2: inner, srv: s, remote: c.NetConn().RemoteAddr().String()}, nil, nil
		},
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {},
			imap.CapIMAP4rev2: {},
		},
		Logger:       printfLogger{s.log.With("protocol", "imap"), &s.closed},
		InsecureAuth: true,
		TLSConfig:    opt.TLSConfig,
	})
}

// newSMTP makes the SMTP server.
func (s *Servers) newSMTP(opt *Options) {
	domain := opt.Domain
	if domain == "" {
		domain = defaultDomain
	}
	maxBytes := opt.MaxMessageBytes
	if maxBytes == 0 {
		maxBytes = defaultMaxMessageBytes
	}
	s.smtpSrv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s, remote: c.Conn().RemoteAddr().String()}, nil
	}))
	s.smtpSrv.Domain = domain
	s.smtpSrv.MaxMessageBytes = maxBytes
	s.smtpSrv.AllowInsecureAuth = true
	s.smtpSrv.TLSConfig = opt.TLSConfig
	s.smtpSrv.ReadTimeout = smtpReadTimeout
	s.smtpSrv.WriteTimeout = smtpWriteTimeout
	s.smtpSrv.ErrorLog = printfLogger{s.log.With("protocol", "smtp"), &s.closed}
}

// serve serves both servers on their listeners until Close.
func (s *Servers) serve() {
	go func() {
		defer close(s.imapServed)
		if err := s.imapSrv.Serve(s.imapLn); err != nil && !s.closed.Load() {
			s.log.Error("IMAP server stopped", "addr", s.IMAPAddr(), "err", err)
		}
	}()
	go func() {
		defer close(s.smtpServed)
		if err := s.smtpSrv.Serve(s.smtpLn); err != nil && !s.closed.Load() {
			s.log.Error("SMTP server stopped", "addr", s.SMTPAddr(), "err", err)
		}
	}()
}

// folderList checks the extra mailbox names and drops INBOX and repeats,
// which every user has or gets once anyway.
func folderList(names []string) ([]string, error) {
	seen := map[string]bool{"INBOX": true}
	var out []string
	for _, f := range names {
		f = strings.TrimRight(f, "/")
		if f == "" {
			return nil, errors.New("embedded: empty folder name")
		}
		if strings.EqualFold(f, "INBOX") || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out, nil
}

// checkUsers checks the users and returns their passwords by lowercased
// address, as logins are compared.
func checkUsers(list map[string]string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, errors.New("embedded: no users")
	}
	out := make(map[string]string, len(list))
	for addr, password := range list {
		key := canonical(addr)
		if key == "" {
			return nil, errors.New("embedded: empty user address")
		}
		if password == "" {
			return nil, fmt.Errorf("embedded: user %s has no password", addr)
		}
		if _, ok := out[key]; ok {
			return nil, fmt.Errorf("embedded: user %s is listed twice (addresses ignore case)", key)
		}
		out[key] = password
	}
	return out, nil
}

func canonical(addr string) string {
	return strings.ToLower(strings.TrimSpace(addr))
}

// IMAPAddr returns the address the IMAP server listens on, with the port
// actually chosen when Options.IMAPAddr asked for port 0. It does not block
// and is safe for concurrent use.
func (s *Servers) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr returns the address the SMTP server listens on, with the port
// actually chosen when Options.SMTPAddr asked for port 0. It does not block
// and is safe for concurrent use.
func (s *Servers) SMTPAddr() string { return s.smtpLn.Addr().String() }

// Deliver appends msg, byte for byte, to the INBOX of the user with address
// to (compared case-insensitively), bypassing SMTP and Options.Fault. IMAP
// clients idling on that INBOX are told at once. It is meant for tests and
// the demo's autoplay. Deliver does not block on the network and is safe
// for concurrent use; it fails for an unknown user or after Close.
func (s *Servers) Deliver(to string, msg []byte) error {
	if s.closed.Load() {
		return fmt.Errorf("embedded: delivering to %s: servers are closed", to)
	}
	return s.deliver(canonical(to), msg)
}

func (s *Servers) deliver(key string, msg []byte) error {
	u := s.users[key]
	if u == nil {
		return fmt.Errorf("embedded: delivering to %s: no such user", key)
	}
	// A copy, so that callers may reuse msg.
	data, err := s.mail.append(u, "INBOX", bytes.Clone(msg), &imap.AppendOptions{Time: time.Now()})
	if err != nil {
		return fmt.Errorf("embedded: delivering to %s: %w", key, err)
	}
	s.log.Debug("message delivered", "to", key, "uid", data.UID, "bytes", len(msg))
	return nil
}

// Close stops both servers: it closes the listeners and every open
// connection, then blocks until the servers' goroutines have finished
// (including any Options.Fault call in progress), and closes the mail
// file. Without a file, the messages delivered are dropped with the
// servers. Close is safe for concurrent use;
// calls after the first return the first call's result.
func (s *Servers) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		var errs []error

		// IMAP. The listener is closed, and Serve awaited, before
		// imapserver.Close: that Close may otherwise run before Serve has
		// registered the listener (and close nothing), or wait on a
		// WaitGroup that Serve is about to add to.
		if err := s.imapLn.Close(); err != nil {
			errs = append(errs, fmt.Errorf("embedded: closing IMAP listener: %w", err))
		}
		<-s.imapServed
		if err := s.imapSrv.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, fmt.Errorf("embedded: closing IMAP server: %w", err))
		}
		// Connections accepted just before the listener closed may not be
		// known to imapserver yet; the listener knows them all.
		s.imapLn.closeConns()

		// SMTP. Serve must have returned before Shutdown waits, so that no
		// connection is added behind its back; Shutdown then waits for the
		// connections' goroutines, which end once their sockets are closed.
		if err := s.smtpLn.Close(); err != nil {
			errs = append(errs, fmt.Errorf("embedded: closing SMTP listener: %w", err))
		}
		<-s.smtpServed
		s.smtpLn.closeConns()
		if err := s.smtpSrv.Shutdown(context.Background()); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, fmt.Errorf("embedded: closing SMTP server: %w", err))
		}

		s.imapActive.Done()
		// A connection closed in the middle of a FETCH can leave the IMAP
		// library's writer locked, and that connection's goroutine waiting
		// on it for ever; its socket is closed, so nobody is served by it.
		// Wait for the others, but not for ever.
		ended := make(chan struct{})
		go func() { s.imapActive.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(closeWait):
			s.log.Warn("embedded IMAP server: a connection did not end; stopping without it", "waited", closeWait)
		}

		// A connection that did not end may still reach the file; it then
		// gets an error, as the file is closed.
		if err := s.mail.close(); err != nil {
			errs = append(errs, fmt.Errorf("embedded: closing the mail file: %w", err))
		}
		s.closeErr = errors.Join(errs...)
		s.log.Info("embedded mail servers stopped")
	})
	return s.closeErr
}

// imapSession lowercases login names, logs logins and lets Close wait for
// the session's IDLE, which imapserver runs in a goroutine it does not wait
// for.
type imapSession struct {
	imapserver.SessionIMAP4rev2

	srv    *Servers
	remote string

	mu     sync.Mutex
	closed bool
	idling sync.WaitGroup
}

func (c *imapSession) Login(username, password string) error {
	name := canonical(username)
	if err := c.SessionIMAP4rev2.Login(name, password); err != nil {
		c.srv.log.Info("IMAP login refused", "user", name, "remote", c.remote)
		return err
	}
	c.srv.log.Debug("IMAP login", "user", name, "remote", c.remote)
	return nil
}

var _ imapserver.SessionSASL = (*imapSession)(nil)

func (c *imapSession) AuthenticateMechanisms() []string { return c.srv.mechanisms() }

func (c *imapSession) Authenticate(mech string) (sasl.Server, error) {
	switch mech {
	case sasl.Plain:
		// As imapserver does for a session without SASL of its own.
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && canonical(identity) != canonical(username) {
				return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthorizationFailed, Text: "SASL identity not supported"}
			}
			return c.Login(username, password)
		}), nil
	case xoauth2, sasl.OAuthBearer:
		if c.srv.tokenCheck != nil {
			return c.srv.tokenServer(mech, "IMAP", c.remote, func(name string) error {
				return c.SessionIMAP4rev2.Login(name, c.srv.passwords[name])
			}), nil
		}
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}

func (c *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.idling.Add(1)
	c.mu.Unlock()
	defer c.idling.Done()

	// imapserver's SessionTracker.Idle only wakes for updates queued after
	// it has started, yet the client is told "+ idling" before that: a
	// message delivered in between, or since the last command, would stay
	// unannounced until the next one arrived. So pending updates are
	// flushed first, and the wait is restarted every idleRecheck to flush
	// whatever slipped into that window. Poll and Idle never overlap, which
	// keeps the untagged responses in order.
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		if err := c.SessionIMAP4rev2.Poll(w, true); err != nil {
			return err
		}

		innerStop := make(chan struct{})
		abort := make(chan struct{})
		watched := make(chan struct{})
		timer := time.NewTimer(idleRecheck)
		go func() {
			defer close(watched)
			select {
			case <-stop:
			case <-timer.C:
			case <-abort:
			}
			close(innerStop)
		}()
		err := c.SessionIMAP4rev2.Idle(w, innerStop)
		early := false
		select {
		case <-innerStop:
		default:
			early = true
		}
		close(abort)
		<-watched
		timer.Stop()
		if err != nil {
			return err
		}
		if early {
			// the session returns at once when no mailbox is selected;
			// there is then nothing to announce, only DONE to wait for.
			<-stop
			return nil
		}
	}
}

// Close is called exactly once by imapserver, when the connection ends.
func (c *imapSession) Close() error {
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if already {
		return nil
	}
	defer c.srv.imapActive.Done()
	// imapserver has closed IDLE's stop channel by now, so this is short.
	c.idling.Wait()
	return c.SessionIMAP4rev2.Close()
}

// smtpSession is one SMTP connection's transaction state. go-smtp may run
// Data in a goroutine of its own (for BDAT) while the connection calls Reset
// or Logout, so the fields are guarded.
type smtpSession struct {
	srv    *Servers
	remote string

	mu       sync.Mutex
	from     string
	rcpts    []string // lowercased, without repeats
	authUser string
	closed   bool
	inData   sync.WaitGroup
}

var _ smtp.AuthSession = (*smtpSession)(nil)

func (c *smtpSession) AuthMechanisms() []string { return c.srv.mechanisms() }

func (c *smtpSession) Auth(mech string) (sasl.Server, error) {
	if (mech == xoauth2 || mech == sasl.OAuthBearer) && c.srv.tokenCheck != nil {
		return c.srv.tokenServer(mech, "SMTP", c.remote, func(name string) error {
			c.mu.Lock()
			c.authUser = name
			c.mu.Unlock()
			return nil
		}), nil
	}
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		name := canonical(username)
		if identity != "" && canonical(identity) != name {
			c.srv.log.Info("SMTP login refused: identity differs from user", "user", name, "remote", c.remote)
			return smtp.ErrAuthFailed
		}
		u := c.srv.users[name]
		// Login's check is constant-time; the lookup miss is not, which
		// only tells a loopback client which test users exist.
		if u == nil || u.login(password) != nil {
			c.srv.log.Info("SMTP login refused", "user", name, "remote", c.remote)
			return smtp.ErrAuthFailed
		}
		c.mu.Lock()
		c.authUser = name
		c.mu.Unlock()
		c.srv.log.Debug("SMTP login", "user", name, "remote", c.remote)
		return nil
	}), nil
}

// xoauth2 is the XOAUTH2 SASL mechanism, which go-sasl lacks.
const xoauth2 = "XOAUTH2"

// mechanisms are the SASL mechanisms both servers offer.
func (s *Servers) mechanisms() []string {
	if s.tokenCheck != nil {
		return []string{sasl.Plain, xoauth2, sasl.OAuthBearer}
	}
	return []string{sasl.Plain}
}

// tokenServer is the server side of a login by token, by mech (XOAUTH2 or
// OAUTHBEARER): the token is checked with TokenCheck for a known user, and
// then open is called with the user's canonical name.
func (s *Servers) tokenServer(mech, protocol, remote string, open func(name string) error) sasl.Server {
	check := func(user, token string) error {
		name := canonical(user)
		if s.users[name] == nil {
			s.log.Info(protocol+" token login refused: no such user", "user", name, "remote", remote)
			return errors.New("no such user")
		}
		if err := s.tokenCheck(name, token); err != nil {
			s.log.Info(protocol+" token login refused", "user", name, "mechanism", mech, "remote", remote, "err", err)
			return err
		}
		if err := open(name); err != nil {
			return err
		}
		s.log.Debug(protocol+" token login", "user", name, "mechanism", mech, "remote", remote)
		return nil
	}
	if mech == sasl.OAuthBearer {
		return sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if o.Username == "" || check(o.Username, o.Token) != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})
	}
	return &xoauth2Server{check: check}
}

// xoauth2Server is the server side of XOAUTH2. The client sends the user
// and token at once; a refusal is a challenge holding a JSON error, which
// the client answers with an empty response before the login fails.
type xoauth2Server struct {
	check  func(user, token string) error
	failed error
	done   bool
}

func (a *xoauth2Server) Next(resp []byte) ([]byte, bool, error) {
	switch {
	case a.failed != nil:
		return nil, true, a.failed
	case a.done:
		return nil, true, sasl.ErrUnexpectedClientResponse
	case resp == nil:
		return []byte{}, false, nil // ask for the initial response
	}
	a.done = true
	var user, token string
	for _, f := range strings.Split(string(resp), "\x01") {
		if v, ok := strings.CutPrefix(f, "user="); ok {
			user = v
		} else if v, ok := strings.CutPrefix(f, "auth="); ok && len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
			token = v[7:]
		}
	}
	if user == "" || token == "" {
		return nil, true, errors.New("XOAUTH2: malformed response")
	}
	if err := a.check(user, token); err != nil {
		a.failed = errors.New("XOAUTH2: token refused")
		return []byte(`{"status":"invalid_token","schemes":"bearer"}`), false, nil
	}
	return nil, true, nil
}

// Mail accepts any sender: the daemon and the players' stand-ins send as
// whom they like, authenticated or not.
func (c *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.from = from
	c.rcpts = nil
	return nil
}

func (c *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	key := canonical(to)
	if c.srv.users[key] == nil {
		c.srv.log.Info("SMTP recipient refused", "to", to, "remote", c.remote)
		return &smtp.SMTPError{
			Code:         550,
			EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message:      fmt.Sprintf("No such user here: <%s> has no mailbox on this server", to),
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.rcpts {
		if r == key {
			return nil
		}
	}
	c.rcpts = append(c.rcpts, key)
	return nil
}

// dataBufs are the buffers Data reads messages into.
var dataBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (c *smtpSession) Data(r io.Reader) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return smtp.ErrDataReset
	}
	c.inData.Add(1)
	from, rcpts := c.from, append([]string(nil), c.rcpts...)
	c.mu.Unlock()
	defer c.inData.Done()

	// The message is read into a buffer kept from the last ones, and each
	// recipient's mailbox gets a copy of its own (deliver): a picture of
	// 550 KB read by io.ReadAll was copied some twenty times over as the
	// slice grew.
	buf := dataBufs.Get().(*bytes.Buffer)
	defer dataBufs.Put(buf)
	buf.Reset()
	_, err := buf.ReadFrom(r)
	data := buf.Bytes()
	if err != nil {
		// go-smtp recognises its own errors (such as "message too large")
		// only unwrapped.
		var se *smtp.SMTPError
		if errors.As(err, &se) {
			return se
		}
		return fmt.Errorf("embedded: reading message: %w", err)
	}
	if len(rcpts) == 0 {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 5, 1}, Message: "No valid recipients"}
	}

	// Every recipient is checked before anyone gets the message: one DATA
	// has one reply, and a client retrying after a failure must not cause
	// duplicates for the recipients that had succeeded.
	if c.srv.fault != nil {
		for _, to := range rcpts {
			if err := c.srv.fault(from, []string{to}); err != nil {
				c.srv.log.Info("SMTP delivery failed by Fault", "from", from, "to", to, "err", err)
				return err
			}
		}
	}
	for _, to := range rcpts {
		if c.srv.discard != nil && c.srv.discard(to) {
			continue
		}
		if err := c.srv.deliver(to, data); err != nil {
			c.srv.log.Error("SMTP delivery failed", "from", from, "to", to, "err", err)
			return &smtp.SMTPError{
				Code:         451,
				EnhancedCode: smtp.EnhancedCode{4, 3, 0},
				Message:      fmt.Sprintf("Delivery to <%s> failed, try again later", to),
			}
		}
	}
	c.srv.log.Debug("SMTP message accepted", "from", from, "to", rcpts, "bytes", len(data), "remote", c.remote)
	return nil
}

func (c *smtpSession) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.from = ""
	c.rcpts = nil
}

// Logout is called once the connection ends; waiting for Data here means
// that by the time go-smtp's Shutdown returns no delivery is in progress.
func (c *smtpSession) Logout() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.inData.Wait()
	return nil
}

// testHookListen, set by a test, wraps the SMTP server's listener as Start
// opens it.
var testHookListen func(net.Listener) net.Listener

// smtpReadBuffer is the size of the buffer the SMTP server's connections
// are read through. go-smtp reads through net/textproto's buffer of 4 KB:
// a report with the whole map, some 550 KB, took 140 reads of the socket,
// and the 400 reports of the mail package's BenchmarkThousandGames 50,000.
const smtpReadBuffer = 64 << 10

// trackingListener remembers the connections it has accepted, so that Close
// can end them all: neither imapserver nor go-smtp knows of a connection
// until its goroutine has started.
type trackingListener struct {
	net.Listener
	onAccept   func() // called, under mu, for each connection handed out
	readBuffer int    // the size of each connection's read buffer; 0: none

	mu     sync.Mutex
	closed bool
	conns  map[*trackedConn]struct{}
}

func newTrackingListener(ln net.Listener, onAccept func(), readBuffer int) *trackingListener {
	return &trackingListener{Listener: ln, onAccept: onAccept, readBuffer: readBuffer, conns: make(map[*trackedConn]struct{})}
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	tc := &trackedConn{Conn: c, l: l}
	if l.readBuffer > 0 {
		tc.r = bufio.NewReaderSize(c, l.readBuffer)
	}
	l.conns[tc] = struct{}{}
	if l.onAccept != nil {
		l.onAccept()
	}
	return tc, nil
}

// Close may be called more than once (both the server and Servers.Close
// call it); only the first closes the socket.
func (l *trackingListener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	return l.Listener.Close()
}

func (l *trackingListener) closeConns() {
	l.mu.Lock()
	conns := make([]*trackedConn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// trackedConn is an accepted connection, read through a buffer of its
// own if its listener says so. A TLS session started by STARTTLS reads
// through it too: what a client sent in the clear after STARTTLS, before
// the handshake, reaches the handshake, which fails, as it is no TLS.
type trackedConn struct {
	net.Conn
	r    *bufio.Reader // nil: reads go to the socket
	l    *trackingListener
	once sync.Once
	err  error
}

func (c *trackedConn) Read(p []byte) (int, error) {
	if c.r == nil {
		return c.Conn.Read(p)
	}
	return c.r.Read(p)
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		c.err = c.Conn.Close()
	})
	return c.err
}

// printfLogger carries the libraries' own complaints (failed reads,
// protocol errors) into slog. While Close cuts connections they complain of
// reads on closed sockets, which is expected and so only worth a debug line.
type printfLogger struct {
	l       *slog.Logger
	closing *atomic.Bool
}

func (p printfLogger) Printf(format string, v ...any) {
	p.log(fmt.Sprintf(format, v...))
}

func (p printfLogger) Println(v ...any) {
	p.log(fmt.Sprintln(v...))
}

func (p printfLogger) log(msg string) {
	level := slog.LevelWarn
	if p.closing.Load() {
		level = slog.LevelDebug
	}
	p.l.Log(context.Background(), level, strings.TrimSpace(msg))
}
