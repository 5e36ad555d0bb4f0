//go:build unix

// Package postfix runs a real mail system on loopback for tests: a private
// Postfix that delivers by LMTP to a Dovecot (mail/internal/dovecot), where
// the mail is read by IMAP.
//
// Everything (configuration, queue, logs, mailboxes) lives under fresh
// temporary directories, so neither a Postfix nor a Dovecot installed on the
// machine is read or disturbed. Postfix must run as root (its daemons switch
// to the postfix user); it needs the Debian packages postfix, dovecot-imapd
// and dovecot-lmtpd. Without them, or when not root, or when Postfix cannot
// start, Start skips the test, unless the environment variable
// TITM_REQUIRE_POSTFIX is set to a non-empty value (as CI does), in which
// case the test fails instead.
//
// docs/testing.md explains the configuration and what it takes to run a
// private Postfix this way.
package postfix

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"titm/mail/internal/sysserver"

	"titm/mail/internal/dovecot"
)

// RequireEnv names the environment variable that turns "Postfix is missing
// or cannot start" from a skip into a test failure.
const RequireEnv = "TITM_REQUIRE_POSTFIX"

const (
	startTimeout   = 20 * time.Second
	commandTimeout = 30 * time.Second
)

// Options are what a System is started with.
type Options struct {
	// Domain is the mail domain Postfix delivers locally, e.g.
	// "test.example"; every user must be an address in it.
	Domain string
	// Users maps each mailbox, a full address, to its IMAP password.
	// Postfix delivers only to them: mail to another address of Domain is
	// refused (SMTPAddr) or bounced (SubmissionAddr).
	Users   map[string]string
	Folders []string
	// CertFile and KeyFile, both PEM, give Postfix a submission port with
	// implicit TLS (SubmissionTLSAddr) and Dovecot an IMAP port with
	// implicit TLS (Dovecot.TLSAddr), both presenting this certificate.
	CertFile, KeyFile string
}

// System is a Postfix and a Dovecot started for a test.
type System struct {
	// Dovecot holds the mailboxes; read them at Dovecot.Addr.
	Dovecot *dovecot.Server
	// SMTPAddr is the host:port of an SMTP service that refuses unknown
	// recipients at RCPT, as a domain's MX does.
	SMTPAddr string
	// SubmissionAddr is the host:port of a submission service without TLS
	// or authentication (any loopback client may send), which takes mail
	// for unknown recipients and bounces it afterwards: a delivery status
	// notification from MAILER-DAEMON goes to the envelope sender.
	SubmissionAddr string
	// SubmissionTLSAddr is SubmissionAddr with implicit TLS (port-465
	// style), when Options.CertFile is given; else empty.
	SubmissionTLSAddr string

	dir     string // holds etc, queue, data and the log
	etc     string // the config directory given to postfix -c
	logPath string
	postfix string // path of the postfix command
	running bool
}

// Start starts Dovecot with LMTP, then Postfix delivering to it, and stops
// both when the test ends.
func Start(t testing.TB, o Options) *System {
	t.Helper()
	if o.Domain == "" || strings.ContainsAny(o.Domain, " \t\r\n,") {
		t.Fatalf("postfix.Start: bad domain %q", o.Domain)
	}
	for u := range o.Users {
		if !strings.HasSuffix(strings.ToLower(u), "@"+strings.ToLower(o.Domain)) {
			t.Fatalf("postfix.Start: user %q is not an address in %s", u, o.Domain)
		}
	}
	bin := requirements(t)
	// Required Postfix means required Dovecot: a Dovecot that only skips
	// would let the test pass without running. For the whole process, as
	// the requirement is, and not by t.Setenv, which a parallel test may
	// not call.
	if os.Getenv(RequireEnv) != "" && os.Getenv(dovecot.RequireEnv) == "" {
		os.Setenv(dovecot.RequireEnv, "1")
	}
	// Not t.TempDir: Postfix's processes, as user postfix, must reach the
	// directory (so it is 0755 under /tmp), and the path is written into
	// the config, whose values must not hold spaces.
	dir, err := os.MkdirTemp("/tmp", "titm-postfix-")
	if err != nil {
		t.Fatalf("postfix.Start: %v", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("postfix.Start: %v", err)
	}
	// Dovecot checks the logins of the submission port with TLS (SASL).
	dc := dovecot.StartWith(t, dovecot.Options{Users: o.Users, Folders: o.Folders, LMTP: true,
		CertFile: o.CertFile, KeyFile: o.KeyFile, AuthSocket: filepath.Join(dir, "auth")})
	s := &System{Dovecot: dc, dir: dir, etc: filepath.Join(dir, "etc"), logPath: filepath.Join(dir, "postfix.log"), postfix: bin}
	t.Cleanup(func() {
		started := s.running
		s.stop(t)
		if t.Failed() && started {
			t.Logf("Postfix's log:\n%s", s.logTail())
		}
		if err := os.RemoveAll(s.dir); err != nil {
			t.Errorf("postfix: removing %s: %v", s.dir, err)
		}
	})
	if err := s.prepare(o); err != nil {
		t.Fatalf("postfix.Start: %v", err)
	}
	for attempt := 1; ; attempt++ {
		if err := s.configure(o); err != nil {
			t.Fatalf("postfix.Start: %v", err)
		}
		err := s.start()
		if err == nil {
			s.running = true
			return s
		}
		if attempt < 3 && strings.Contains(s.logTail(), "Address already in use") {
			t.Logf("postfix: a port was taken, trying others")
			continue
		}
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Postfix did not start: %v", err), s.logTail())
	}
}

// requirements skips the test, or fails it where Postfix is required,
// unless Postfix can run here; it returns Postfix's command.
func requirements(t testing.TB) string {
	t.Helper()
	bin, err := sysserver.LookPath("postfix")
	if err != nil {
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Postfix is not installed (apt-get install postfix): %v", err), "")
	}
	if os.Geteuid() != 0 {
		sysserver.Unavailable(t, RequireEnv, "a private Postfix needs root: its daemons start as root and switch to the postfix user", "")
	}
	if _, err := user.Lookup("postfix"); err != nil {
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Postfix's user: %v", err), "")
	}
	if _, err := user.LookupGroup("postdrop"); err != nil {
		sysserver.Unavailable(t, RequireEnv, fmt.Sprintf("Postfix's group: %v", err), "")
	}
	if _, err := os.Stat("/usr/lib/dovecot/lmtp"); err != nil {
		sysserver.Unavailable(t, RequireEnv, "Dovecot's LMTP server is not installed (apt-get install dovecot-lmtpd)", "")
	}
	return bin
}

// prepare makes the directories with the owners Postfix wants: the queue
// root's, and the data directory the postfix user's.
func (s *System) prepare(o Options) error {
	if err := os.Chmod(s.dir, 0o755); err != nil {
		return err
	}
	for _, d := range []string{s.etc, filepath.Join(s.dir, "queue")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	data := filepath.Join(s.dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return err
	}
	u, err := user.Lookup("postfix")
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(data, uid, gid); err != nil {
		return fmt.Errorf("giving %s to postfix: %w", data, err)
	}
	// The log is opened by postlogd, which runs as postfix.
	if err := os.WriteFile(s.logPath, nil, 0o644); err != nil {
		return err
	}
	if err := os.Chown(s.logPath, uid, gid); err != nil {
		return err
	}
	var b strings.Builder
	for _, u := range slices.Sorted(maps.Keys(o.Users)) {
		fmt.Fprintf(&b, "%s ok\n", strings.ToLower(u))
	}
	return os.WriteFile(filepath.Join(s.etc, "recipients"), []byte(b.String()), 0o644)
}

// configure picks free ports and writes main.cf and master.cf.
func (s *System) configure(o Options) error {
	ports, err := sysserver.FreePorts(3)
	if err != nil {
		return err
	}
	s.SMTPAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))
	s.SubmissionAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1]))
	s.SubmissionTLSAddr = ""
	var tlsMain, tlsMaster string
	if o.CertFile != "" {
		s.SubmissionTLSAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[2]))
		tlsMain = fmt.Sprintf("smtpd_tls_cert_file = %s\nsmtpd_tls_key_file = %s\n", o.CertFile, o.KeyFile)
		// The port-465 kind of submission, with logins checked by Dovecot
		// as a provider's is: a client that logs in may send anywhere.
		tlsMaster = fmt.Sprintf("%s inet n - n - - smtpd\n  -o smtpd_tls_wrappermode=yes\n  -o smtpd_tls_security_level=encrypt\n  -o smtpd_reject_unlisted_recipient=no\n"+
			"  -o smtpd_sasl_auth_enable=yes\n  -o smtpd_sasl_type=dovecot\n  -o smtpd_sasl_path=%s\n"+
			"  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject_unauth_destination\n", s.SubmissionTLSAddr, filepath.Join(s.dir, "auth"))
	}
	main := fmt.Sprintf(mainFormat, s.dir, o.Domain, s.Dovecot.LMTPAddr, s.etc, tlsMain)
	master := fmt.Sprintf(masterFormat, s.SMTPAddr, s.SubmissionAddr, tlsMaster)
	if err := os.WriteFile(filepath.Join(s.etc, "main.cf"), []byte(main), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.etc, "master.cf"), []byte(master), 0o644)
}

// mainFormat is main.cf, its values given in the order of configure's
// arguments.
const mainFormat = `# Written by titm/mail/internal/postfix for one test.
compatibility_level = 3.6
queue_directory = %[1]s/queue
data_directory = %[1]s/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.%[2]s
mydomain = %[2]s
myorigin = $mydomain
mydestination = $mydomain
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8

# No syslog: Postfix logs to its own file (Postfix >= 3.4), which must be
# under one of maillog_file_prefixes.
maillog_file = %[1]s/postfix.log
maillog_file_prefixes = %[1]s

# No DNS: nothing is looked up, and nothing is relayed anywhere.
smtpd_peername_lookup = no
smtp_dns_support_level = disabled
smtpd_relay_restrictions = reject_unauth_destination
alias_maps =
alias_database =
biff = no

# Local mail goes to Dovecot; only the users it has are local recipients.
local_transport = lmtp:inet:%[3]s
local_recipient_maps = texthash:%[4]s/recipients

# Mail deferred while Dovecot is down is retried within seconds.
queue_run_delay = 10s
minimal_backoff_time = 10s
maximal_backoff_time = 60s
%[5]s`

// masterFormat is master.cf, its values given in the order of configure's
// arguments. No chroot: Debian's master.cf chroots most daemons into the
// queue directory, which a private instance does not populate.
const masterFormat = `# Written by titm/mail/internal/postfix for one test.
%[1]s inet n - n - - smtpd
%[2]s inet n - n - - smtpd
  -o smtpd_reject_unlisted_recipient=no
%[3]spickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
`

// start runs `postfix start`, which checks the config, creates the queue's
// directories and leaves the master running in the background, then waits
// for the greeting on each port.
func (s *System) start() error {
	if out, err := s.command("start"); err != nil {
		return fmt.Errorf("postfix start: %v\n%s", err, out)
	}
	deadline := time.Now().Add(startTimeout)
	for _, addr := range []string{s.SMTPAddr, s.SubmissionAddr} {
		if err := waitGreeting(addr, deadline); err != nil {
			s.stopMaster()
			return err
		}
	}
	return nil
}

// Stop stops Postfix; Dovecot is stopped by its own cleanup.
func (s *System) stop(t testing.TB) {
	t.Helper()
	if !s.running {
		return
	}
	s.running = false
	if err := s.stopMaster(); err != nil {
		t.Errorf("postfix: %v\n%s", err, s.logTail())
	}
}

// stopMaster stops the master and waits until it has exited, so that the
// directory can be removed.
func (s *System) stopMaster() error {
	if out, err := s.command("stop"); err != nil {
		return fmt.Errorf("postfix stop: %v\n%s", err, out)
	}
	// `postfix status` answers by its exit code (it prints nothing without
	// a terminal): 0 while the master runs.
	for deadline := time.Now().Add(startTimeout); ; {
		if _, err := s.command("status"); err != nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the master still runs %v after postfix stop", startTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// command runs `postfix -c etc cmd`. Its errors go to the log, not to
// stderr, unless stderr is a terminal.
func (s *System) command(cmd string) ([]byte, error) {
	c := exec.Command(s.postfix, "-c", s.etc, cmd)
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = c.CombinedOutput(); close(done) }()
	select {
	case <-done:
		return out, err
	case <-time.After(commandTimeout):
		if c.Process != nil {
			_ = c.Process.Kill()
		}
		<-done
		return out, errors.New("no answer within " + commandTimeout.String())
	}
}

// Log returns Postfix's log so far.
func (s *System) Log() string {
	data, _ := os.ReadFile(s.logPath)
	return string(data)
}

func (s *System) logTail() string {
	lines := strings.Split(strings.TrimRight(s.Log(), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return "(Postfix logged nothing)"
	}
	return "--- postfix.log\n" + strings.Join(lines, "\n")
}

// waitGreeting waits until addr answers with an SMTP greeting.
func waitGreeting(addr string, deadline time.Time) error {
	var last error
	for time.Now().Before(deadline) {
		conn, err := net.DialTimeout("tcp", addr, time.Until(deadline))
		if err == nil {
			_ = conn.SetDeadline(deadline)
			line, rerr := bufio.NewReader(conn).ReadString('\n')
			if rerr == nil && strings.HasPrefix(line, "220 ") {
				_, _ = conn.Write([]byte("QUIT\r\n"))
				conn.Close()
				return nil
			}
			conn.Close()
			err = fmt.Errorf("greeting %q: %v", line, rerr)
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("no SMTP greeting on %s within %v: %v", addr, startTimeout, last)
}
