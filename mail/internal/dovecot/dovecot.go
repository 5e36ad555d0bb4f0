//go:build unix

// Package dovecot runs a real Dovecot IMAP server on loopback for tests.
//
// Each Server has its own configuration, sockets, state, log and mail under a
// fresh temporary directory, so it neither reads nor disturbs a Dovecot
// installed on the machine, and several can run at once. The package needs the
// dovecot and doveadm programs (Debian: dovecot-imapd; for Options.LMTP also
// dovecot-lmtpd); without them, or when
// Dovecot cannot start, Start skips the test, unless the environment variable
// TITM_REQUIRE_DOVECOT is set to a non-empty value (as CI does), in which case
// the test fails instead.
package dovecot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"titm/mail/internal/sysserver"
)

// RequireEnv names the environment variable that turns "Dovecot is missing or
// cannot start" from a skip into a test failure.
const RequireEnv = "TITM_REQUIRE_DOVECOT"

// greeting is the text Dovecot's login process sends once it can
// authenticate users. Before its auth process is up it first sends
// "* OK Waiting for authentication process to respond..", so readiness is
// judged by this exact text rather than by any "* OK".
const greeting = "titm test Dovecot ready."

const (
	// startTimeout bounds how long Start and Restart wait for the greeting.
	startTimeout = 10 * time.Second
	// stopTimeout bounds how long Stop waits for Dovecot to exit after
	// SIGTERM, before it kills it.
	stopTimeout = 10 * time.Second
	// commandTimeout bounds one doveadm run.
	commandTimeout = 30 * time.Second
)

// Server is a Dovecot started for a test, on loopback, with its own
// configuration in a temporary directory.
type Server struct {
	// Addr is the host:port of the IMAP listener, e.g. "127.0.0.1:40123".
	// Plain text (no TLS); LOGIN and AUTHENTICATE PLAIN are allowed.
	Addr string
	// TLSAddr is the host:port of the IMAP listener with implicit TLS
	// (port-993 style), when Options.CertFile is given; else empty.
	TLSAddr string
	// LMTPAddr is the host:port of the LMTP listener, through which a mail
	// server delivers, when Options.LMTP is set; else empty. Only the users
	// given are accepted as recipients: mail to others is refused with 550.
	LMTPAddr string

	dir     string            // the temporary directory holding everything
	conf    string            // path of the generated dovecot.conf
	logPath string            // Dovecot's own log
	errPath string            // dovecot's stdout and stderr (errors before the log opens)
	users   map[string]string // login name -> password, as given to Start
	opts    Options
	dovecot string // path of the dovecot binary
	doveadm string // path of the doveadm binary
	ports   ports
	cmd     *exec.Cmd     // the running master process, nil when stopped
	exited  chan struct{} // closed when cmd has exited
	exitErr error         // cmd.Wait's result, valid once exited is closed
	started bool          // Start succeeded
}

// Start starts Dovecot with the users given (login name -> password; each gets
// INBOX and the folders listed), on a free loopback port, and stops it when the
// test ends (t.Cleanup). When Dovecot is not installed or cannot start, it
// calls t.Skip with a clear message, unless TITM_REQUIRE_DOVECOT is set, then
// t.Fatal.
//
// Folders are created on first login or delivery, nested with "/" as the
// hierarchy separator (e.g. "archive/2024").
func Start(t testing.TB, users map[string]string, folders ...string) *Server {
	t.Helper()
	return StartWith(t, Options{Users: users, Folders: folders})
}

// Options are what StartWith may set beyond Start's users and folders.
type Options struct {
	// Users maps each login name to its password; each gets INBOX and the
	// Folders.
	Users   map[string]string
	Folders []string
	// LMTP adds an LMTP listener on loopback (Server.LMTPAddr), through
	// which a mail server such as Postfix delivers.
	LMTP bool
	// CertFile and KeyFile, both PEM, add an IMAP listener with implicit
	// TLS (Server.TLSAddr) that presents this certificate.
	CertFile, KeyFile string
	// AuthSocket, an absolute path, adds a listener of Dovecot's
	// authentication service there, through which a mail server such as
	// Postfix checks its SMTP clients' logins (SASL) against the users.
	AuthSocket string
}

// ports are the listeners' port numbers; 0 for a listener not wanted.
type ports struct{ imap, imaps, lmtp int }

// StartWith is Start with the Options given.
func StartWith(t testing.TB, o Options) *Server {
	t.Helper()
	users, folders := o.Users, o.Folders
	if err := checkNames(users, folders); err != nil {
		t.Fatalf("dovecot.Start: %v", err) // a mistake in the test, not in the machine
	}

	dovecotBin, err := sysserver.LookPath("dovecot")
	if err != nil {
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Dovecot is not installed (apt-get install dovecot-imapd): %v", err), "")
	}
	doveadmBin, err := sysserver.LookPath("doveadm")
	if err != nil {
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Dovecot's doveadm is not installed (apt-get install dovecot-imapd): %v", err), "")
	}
	ids, err := processIdentities()
	if err != nil {
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("cannot run Dovecot: %v", err), "")
	}

	dir, err := makeDirs(ids)
	if err != nil {
		t.Fatalf("dovecot.Start: %v", err)
	}
	s := &Server{
		dir:     dir,
		conf:    filepath.Join(dir, "dovecot.conf"),
		logPath: filepath.Join(dir, "dovecot.log"),
		errPath: filepath.Join(dir, "dovecot.stderr"),
		users:   maps.Clone(users),
		opts:    o,
		dovecot: dovecotBin,
		doveadm: doveadmBin,
	}
	// Registered before anything can fail, so a half-started server and its
	// directory are cleaned up too.
	t.Cleanup(func() {
		s.stop(t)
		// Start reports its own failures with the log; a test that fails
		// later may fail because of something Dovecot logged.
		if t.Failed() && s.started {
			t.Logf("Dovecot's log:\n%s", s.logTail())
		}
		if err := os.RemoveAll(s.dir); err != nil {
			t.Errorf("dovecot: removing %s: %v", s.dir, err)
		}
	})

	if err := writePasswd(filepath.Join(dir, "passwd"), users, ids); err != nil {
		t.Fatalf("dovecot.Start: %v", err)
	}

	// The port is picked by the kernel and released before Dovecot binds it,
	// so another process can take it in between; Dovecot then exits with
	// "Address already in use" and a new port is tried.
	for attempt := 1; ; attempt++ {
		if s.ports, err = s.pickPorts(); err != nil {
			t.Fatalf("dovecot.Start: %v", err)
		}
		if err := os.WriteFile(s.conf, []byte(config(dir, s.ports, ids, o)), 0o644); err != nil {
			t.Fatalf("dovecot.Start: writing config: %v", err)
		}
		// A fresh log for each attempt, so the check below sees only this one.
		for _, p := range []string{s.logPath, s.errPath} {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("dovecot.Start: %v", err)
			}
		}
		err = s.start()
		if err == nil {
			s.started = true
			return s
		}
		if attempt < 3 && strings.Contains(s.logTail(), "Address already in use") {
			t.Logf("dovecot: a port of %v was taken, trying others", s.ports)
			continue
		}
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Dovecot did not start: %v", err), s.logTail())
	}
}

// pickPorts picks a free port for each listener wanted and sets the
// addresses.
func (s *Server) pickPorts() (ports, error) {
	var p ports
	free, err := sysserver.FreePorts(3)
	if err != nil {
		return p, err
	}
	addr := func(port *int, wanted bool, dst *string, n int) {
		if wanted {
			*port, *dst = n, net.JoinHostPort("127.0.0.1", strconv.Itoa(n))
		}
	}
	addr(&p.imap, true, &s.Addr, free[0])
	addr(&p.imaps, s.opts.CertFile != "", &s.TLSAddr, free[1])
	addr(&p.lmtp, s.opts.LMTP, &s.LMTPAddr, free[2])
	return p, nil
}

// Deliver puts a raw message into a user's INBOX the way a mail server would:
// it writes it straight into the mail store with `doveadm save`, as a local
// delivery agent does, instead of logging in over IMAP. So it needs no IMAP
// session, does not mark the message \Seen or otherwise touch flags, and
// clients in IDLE learn of the message through Dovecot's own change
// notification, as they would for real mail.
//
// The bytes are stored as given; Dovecot serves messages with CRLF line ends,
// so a message written with CRLF is fetched back byte for byte.
func (s *Server) Deliver(t testing.TB, user string, msg []byte) {
	t.Helper()
	if _, ok := s.users[user]; !ok {
		t.Fatalf("dovecot.Deliver: no user %q on this server", user)
	}
	if s.cmd == nil {
		t.Fatalf("dovecot.Deliver: the server is stopped")
	}
	// doveadm looks the user up through the running server's auth socket
	// (named by base_dir in the config) and saves with that user's uid, so
	// the files belong to the same owner as those the IMAP process writes.
	if out, err := s.doveadmRun(bytes.NewReader(msg), "save", "-u", user, "-m", "INBOX"); err != nil {
		t.Fatalf("dovecot.Deliver to %s: doveadm save: %v\n%s\nDovecot's log:\n%s", user, err, out, s.logTail())
	}
}

// Stop stops the server and waits until its master process has exited. It is
// also done by the test's cleanup, and stopping a stopped server does nothing.
// Connected clients are disconnected.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.stop(t)
}

// Restart stops the server and starts it again on the same port with the
// same configuration and mail, for tests that check a client reconnects.
// Clients connected before are disconnected; their mail is kept.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.stop(t)
	// Dovecot's login processes hold the listening socket too; they were
	// signalled with the master but may not have exited yet.
	if err := waitPortFree(s.Addr, startTimeout); err != nil {
		t.Fatalf("dovecot.Restart: %v", err)
	}
	if err := s.start(); err != nil {
		// It started once with this very config, so this is not a missing
		// or unusable Dovecot but a failure worth a red test.
		t.Fatalf("dovecot.Restart: %v\n%s", err, s.logTail())
	}
}

// start runs the master process in the foreground and waits for the IMAP
// greeting. Running it with -F, as our child, rather than letting it
// daemonize, lets Stop wait for its exit and catches its early errors on
// stderr.
func (s *Server) start() error {
	errFile, err := os.OpenFile(s.errPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", s.errPath, err)
	}
	defer errFile.Close() // the child has its own copy of the descriptor

	cmd := exec.Command(s.dovecot, "-F", "-c", s.conf)
	cmd.Stdout = errFile
	cmd.Stderr = errFile
	// A process group of its own holds the master and every process it
	// forks, so stop can reach those that outlive the master.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("running %s: %w", s.dovecot, err)
	}
	s.cmd, s.exited, s.exitErr = cmd, make(chan struct{}), nil
	exited := s.exited
	go func() {
		err := cmd.Wait()
		s.exitErr = err // read only after exited is closed
		close(exited)
	}()

	if err := s.waitReady(startTimeout); err != nil {
		s.kill()
		s.cmd = nil
		return err
	}
	return nil
}

// waitReady waits until the listener answers with Dovecot's greeting, the
// master exits, or the timeout passes.
func (s *Server) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		select {
		case <-s.exited:
			return fmt.Errorf("dovecot exited while starting: %v", s.exitErr)
		default:
		}
		err := checkGreeting(s.Addr, deadline)
		if err == nil {
			return nil
		}
		// The last try runs into the deadline; what went wrong before it,
		// e.g. "connection refused", says more than its "i/o timeout".
		var ne net.Error
		if last == nil || !errors.As(err, &ne) || !ne.Timeout() {
			last = err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no IMAP greeting on %s within %v: %w", s.Addr, timeout, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkGreeting connects once and reads lines until Dovecot's real greeting.
func checkGreeting(addr string, deadline time.Time) error {
	conn, err := net.DialTimeout("tcp", addr, time.Until(deadline))
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading the greeting: %w", err)
		}
		if strings.HasPrefix(line, "* OK") && strings.Contains(line, greeting) {
			_, _ = conn.Write([]byte("a LOGOUT\r\n")) // polite, and avoids a log line about a dropped client
			return nil
		}
	}
}

// stop sends SIGTERM to the master and every process it forked, waits for the
// master to exit, and kills them all if it does not.
//
// Signalling the whole process group, rather than only the master as
// `doveadm stop` does, matters for clients: an imap process told to stop by
// its dying master keeps each client that did I/O in the last 10 seconds for
// up to 10 more (Dovecot's IMAP_DIE_IDLE_SECS), so a client that had just
// used the server would learn of a restart only that late. On a SIGTERM of
// its own it sends "* BYE Server shutting down." and closes at once, as for
// `doveadm kick`. It also spares the master the second it otherwise spends
// waiting for its children.
func (s *Server) stop(t testing.TB) {
	t.Helper()
	if s.cmd == nil {
		return
	}
	defer func() { s.cmd = nil }()
	select {
	case <-s.exited:
		// Died on its own: say so, since the test may fail for that reason,
		// and end what it left behind.
		t.Logf("dovecot: the server had already exited: %v\n%s", s.exitErr, s.logTail())
		_ = s.signalGroup(syscall.SIGTERM)
		return
	default:
	}
	if err := s.signalGroup(syscall.SIGTERM); err != nil {
		t.Errorf("dovecot: stopping: %v", err)
	}
	select {
	case <-s.exited:
	case <-time.After(stopTimeout):
		t.Errorf("dovecot: still running %v after SIGTERM, killing it\n%s", stopTimeout, s.logTail())
		s.kill()
	}
}

// signalGroup sends sig to the master's process group; that nothing is left
// in it is no error.
func (s *Server) signalGroup(sig syscall.Signal) error {
	// The master was started with Setpgid, so its pid is the group's id.
	if err := syscall.Kill(-s.cmd.Process.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("sending %v to Dovecot's processes: %w", sig, err)
	}
	return nil
}

// kill ends the master and all its processes at once and waits for the
// master.
func (s *Server) kill() {
	_ = s.signalGroup(syscall.SIGKILL) // nothing more to do if it fails
	<-s.exited
}

// doveadmRun runs doveadm against this server's config and returns its
// combined output.
func (s *Server) doveadmRun(stdin *bytes.Reader, args ...string) ([]byte, error) {
	cmd := exec.Command(s.doveadm, append([]string{"-c", s.conf}, args...)...)
	cmd.Stdin = stdin
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("running %s: %w", s.doveadm, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.Bytes(), err
	case <-time.After(commandTimeout):
		_ = cmd.Process.Kill()
		<-done
		return out.Bytes(), fmt.Errorf("doveadm %s: no answer within %v", strings.Join(args, " "), commandTimeout)
	}
}

// logTail returns the last lines of Dovecot's log and of its stderr, for
// error messages.
func (s *Server) logTail() string {
	var b strings.Builder
	for _, p := range []string{s.errPath, s.logPath} {
		data, err := os.ReadFile(p)
		if err != nil || len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		fmt.Fprintf(&b, "--- %s (last %d lines)\n%s\n", filepath.Base(p), len(lines), strings.Join(lines, "\n"))
	}
	if b.Len() == 0 {
		return "(Dovecot logged nothing)"
	}
	return b.String()
}

// identities are the system users Dovecot's processes run as, and which own
// the mail.
type identities struct {
	loginUser     string // default_login_user: runs imap-login
	internalUser  string // default_internal_user: runs auth, anvil, ...
	internalGroup string // default_internal_group: owns the internal sockets
	mailUID       int    // owner of the mail files, the userdb's uid
	mailGID       int
}

// processIdentities picks the users Dovecot runs as. As root (CI, and this
// project's machines) Dovecot refuses to run its login and internal
// processes as root, so it needs the unprivileged users the Debian package
// creates. As anyone else it cannot switch users at all, so every process
// runs as the current user, Dovecot's "rootless" mode.
func processIdentities() (identities, error) {
	if os.Geteuid() != 0 {
		u, err := user.Current()
		if err != nil {
			return identities{}, fmt.Errorf("looking up the current user: %w", err)
		}
		g, err := user.LookupGroupId(strconv.Itoa(os.Getegid()))
		if err != nil {
			return identities{}, fmt.Errorf("looking up the current group: %w", err)
		}
		return identities{
			loginUser: u.Username, internalUser: u.Username, internalGroup: g.Name,
			mailUID: os.Geteuid(), mailGID: os.Getegid(),
		}, nil
	}
	if _, err := user.Lookup("dovenull"); err != nil {
		return identities{}, fmt.Errorf("the login user of Dovecot: %w", err)
	}
	u, err := user.Lookup("dovecot")
	if err != nil {
		return identities{}, fmt.Errorf("the internal user of Dovecot: %w", err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return identities{}, fmt.Errorf("uid of user dovecot: %w", err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return identities{}, fmt.Errorf("gid of user dovecot: %w", err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		return identities{}, fmt.Errorf("group of user dovecot: %w", err)
	}
	return identities{
		loginUser: "dovenull", internalUser: "dovecot", internalGroup: g.Name,
		mailUID: uid, mailGID: gid,
	}, nil
}

// makeDirs creates the server's directory and the mail root in it.
//
// t.TempDir is not used: it is mode 0700 under a parent that is 0700 too, and
// Dovecot's unprivileged processes must reach the passwd file and the mail.
// Nor is TMPDIR: a long one would push Dovecot's sockets, which live in the
// directory, past the 107 bytes a Unix socket path may have, and one under a
// home directory may not be open to the dovecot user. /tmp has neither problem.
func makeDirs(ids identities) (string, error) {
	dir, err := os.MkdirTemp("/tmp", "titm-dovecot-")
	if err != nil {
		return "", fmt.Errorf("creating the server directory: %w", err)
	}
	if err := prepareDir(dir, ids); err != nil {
		os.RemoveAll(dir) // best effort: err says what went wrong
		return "", err
	}
	return dir, nil
}

// prepareDir opens dir to Dovecot's processes and gives them the mail root.
func prepareDir(dir string, ids identities) error {
	if err := os.Chmod(dir, 0o755); err != nil {
		return fmt.Errorf("opening up %s: %w", dir, err)
	}
	mail := filepath.Join(dir, "mail")
	if err := os.Mkdir(mail, 0o755); err != nil {
		return fmt.Errorf("creating the mail root: %w", err)
	}
	if err := os.Chown(mail, ids.mailUID, ids.mailGID); err != nil {
		return fmt.Errorf("giving the mail root to uid %d: %w", ids.mailUID, err)
	}
	return nil
}

// writePasswd writes the passwd-file passdb: name:{PLAIN}password per line.
// It is readable by the auth process, which runs as the internal user.
func writePasswd(path string, users map[string]string, ids identities) error {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(users)) {
		fmt.Fprintf(&b, "%s:{PLAIN}%s\n", name, users[name])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o640); err != nil {
		return fmt.Errorf("writing the passwd file: %w", err)
	}
	if err := os.Chown(path, os.Geteuid(), ids.mailGID); err != nil {
		return fmt.Errorf("giving the passwd file to gid %d: %w", ids.mailGID, err)
	}
	return nil
}

// config returns the dovecot.conf for a server in dir listening on the
// ports p.
func config(dir string, p ports, ids identities, o Options) string {
	var mailboxes strings.Builder
	for _, f := range o.Folders {
		fmt.Fprintf(&mailboxes, "  mailbox \"%s\" {\n    auto = create\n  }\n", f)
	}
	// Every path is absolute and inside dir, so the config depends on nothing
	// in /etc/dovecot.
	protocols, tlsConf, lmtp := "imap", "# Plain text on loopback only.\nssl = no", ""
	if o.CertFile != "" {
		// ssl = yes offers STARTTLS on the plain port too; the tests use
		// the implicit-TLS port.
		tlsConf = fmt.Sprintf("ssl = yes\nssl_cert = <%s\nssl_key = <%s", o.CertFile, o.KeyFile)
	}
	if o.LMTP {
		protocols += " lmtp"
		// The recipient is the full address, which is the login name; the
		// static userdb asks the passdb whether the user exists, so LMTP
		// refuses unknown recipients at RCPT with 550.
		lmtp = fmt.Sprintf(`service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = %d
  }
}
`, p.lmtp)
	}
	if o.AuthSocket != "" {
		// Open to all: the mail server's processes run as their own user,
		// and the socket lives in a test's private directory.
		lmtp += fmt.Sprintf(`service auth {
  unix_listener %s {
    mode = 0666
  }
}
`, o.AuthSocket)
	}
	return fmt.Sprintf(confFormat, dir, p.imap, greeting, ids.loginUser, ids.internalUser, ids.mailUID, ids.mailGID, mailboxes.String(), filepath.Base(dir), ids.internalGroup,
		protocols, tlsConf, p.imaps, lmtp)
}

// confFormat is dovecot.conf, its values given in the order of config's
// arguments.
const confFormat = `# Written by titm/mail/internal/dovecot for one test.
instance_name = %[9]s
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
protocols = %[11]s
listen = 127.0.0.1
login_greeting = %[3]s

%[12]s
disable_plaintext_auth = no
auth_mechanisms = plain login
# A wrong password is answered at once, not after the default 2 s.
auth_failure_delay = 0

# Dovecot will not run its login and internal processes as root (as
# non-root, it cannot switch users, so they are the current user).
default_login_user = %[4]s
default_internal_user = %[5]s
default_internal_group = %[10]s
# The mail's owner (e.g. the dovecot user) has a system uid, below the default 500.
first_valid_uid = 1

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/passwd
}
userdb {
  driver = static
  args = uid=%[6]d gid=%[7]d home=%[1]s/mail/%%u
}
mail_location = maildir:~/Maildir

namespace inbox {
  inbox = yes
  separator = /
%[8]s}

# chroot needs root and a root-owned tree; nothing here is worth confining.
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = %[2]d
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = %[13]d
  }
}
%[14]s
service anvil {
  chroot =
}
service ipc {
  chroot =
}
service old-stats {
  chroot =
}
service imap-urlauth-login {
  chroot =
}
`

// checkNames rejects user names, passwords and folders that the passwd file or
// the config could not hold as they are.
func checkNames(users map[string]string, folders []string) error {
	if len(users) == 0 {
		return errors.New("no users")
	}
	for name, pass := range users {
		if name == "" || strings.ContainsAny(name, ":/\\%\"' \t\r\n") {
			return fmt.Errorf("user name %q: empty or has a character the passwd file or mail path cannot hold", name)
		}
		if strings.ContainsAny(pass, ":\r\n") {
			return fmt.Errorf("password of %q has ':' or a line break, which the passwd file cannot hold", name)
		}
	}
	for _, f := range folders {
		if f == "" || strings.ContainsAny(f, "\"\\{}\r\n") {
			return fmt.Errorf("folder %q: empty or has a character the config cannot hold", f)
		}
	}
	return nil
}

// waitPortFree waits until nothing listens on addr any more. net.Listen sets
// SO_REUSEADDR, as Dovecot does, so connections in TIME_WAIT do not count.
func waitPortFree(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		l, err := net.Listen("tcp", addr)
		if err == nil {
			return l.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("port %s still in use %v after Dovecot stopped: %w", addr, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
