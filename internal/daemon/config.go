package daemon

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"titm/mail"
	"titm/rules"
)

// Config is titm serve's configuration (config.example.toml documents every
// key). LoadConfig and ParseConfig return it with every default applied and
// every value checked, and secrets read from the environment where the file
// says so. The mail door's part, the referee and the mail servers, is the
// embedded mail.Config, which the daemon hands to package mail as it is.
//
// A Config holds passwords: do not print or log it whole.
type Config struct {
	mail.Config
	Store    StoreConfig
	Embedded EmbeddedConfig
	Log      LogConfig
	Backup   BackupConfig
	Web      WebConfig
}

// StoreConfig is the [store] table: where the games are kept.
type StoreConfig struct {
	// Path is the bbolt file holding the games (path; default "titm.db").
	Path string
	// ControlSocket is the Unix socket through which the command-line
	// commands reach a running daemon (control_socket; default Path+".sock").
	ControlSocket string
}

// EmbeddedConfig is the [embedded] table: the built-in IMAP and SMTP
// servers, listening on loopback addresses only, that let serve run with no
// outside mail server, as titm demo does.
type EmbeddedConfig struct {
	// Enabled starts the servers (enabled; default false).
	Enabled bool
	// IMAPAddress is where the IMAP server listens (imap_address; default
	// "127.0.0.1:1143"; loopback only).
	IMAPAddress string
	// SMTPAddress is where the SMTP server listens (smtp_address; default
	// "127.0.0.1:1025"; loopback only).
	SMTPAddress string
	// Users maps each mailbox to create to its password ([embedded.users]);
	// when Enabled, the referee's own mailbox must be among them.
	Users map[string]string
	// Path is the bbolt file the servers keep their mailboxes in, so that
	// they survive a restart (path; default Store.Path+".mail"; not the
	// store itself).
	Path string
}

// BackupConfig is the [backup] table: the backups the daemon writes
// itself. With Dir empty (the default) it writes none.
type BackupConfig struct {
	// Dir is the folder the backups are written into (dir; optional); it
	// should be on another disk than the store.
	Dir string
	// Every is the time between two backups (every; default 24h when Dir
	// is set; 1h to 720h).
	Every time.Duration
	// Keep is how many backups are kept, the newest (keep; default 7 when
	// Dir is set; 1 to 1000).
	Keep int
}

// WebConfig is the [web] table: the daemon's HTTP listener, which serves
// its health at /health and the public journal of the games
// (docs/journal.md).
type WebConfig struct {
	// Listen is the address the listener takes, host:port (listen;
	// optional; off when empty).
	Listen string
	// ShowAddresses shows the players' and observers' mail addresses in
	// the journal, where otherwise a player is named by the part of his
	// address before the @ (show_addresses; default false).
	ShowAddresses bool
}

// LogConfig is the [log] table.
type LogConfig struct {
	// Level is the least important level logged: "debug", "info" (the
	// default), "warn" or "error" (level).
	Level string
	// Format is "text" (the default) or "json" (format).
	Format string
}

// ConfigError is one problem in a configuration file.
type ConfigError struct {
	// File is the name of the file, as given to LoadConfig or ParseConfig.
	File string
	// Key is the key at fault in TOML notation, such as "imap.security" or
	// `embedded.users."german@demo.test"`; empty for a syntax error.
	Key string
	// Line is the line of the key, or of its table when the key is missing;
	// 0 if unknown.
	Line int
	// Msg says what is wrong and what is expected.
	Msg string
}

// Error returns the problem as "config.toml:12: imap.security: msg".
func (e ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ConfigErrors is every problem found in a configuration file, in the order
// of their lines; problems without a line come last.
type ConfigErrors []ConfigError

// Error returns the problems one per line.
func (es ConfigErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// LoadConfig reads and checks the configuration file at path. Every problem
// is reported, not only the first, each naming its key and what is expected;
// the error is a ConfigErrors when the file was read but is wrong. Secrets
// the file names with a "_env" key are read with getenv; nil means
// os.Getenv.
func LoadConfig(path string, getenv func(string) string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config %s: %w", path, err)
	}
	return ParseConfig(path, data, getenv)
}

// ParseConfig is LoadConfig for a file already read; name is the file's
// name in messages.
//
// The file is decoded once, and each setting's value is checked on its own
// as it goes into a Config that holds the defaults: a wrong value leaves the
// default in place, so that the checks made after decoding, of what
// depends on several settings, see only good values (config_check.go).
func ParseConfig(name string, data []byte, getenv func(string) string) (*Config, error) {
	return parseConfig(name, data, getenv, false)
}

// LoadLoginConfig is LoadConfig for titm oauth2 login, which is run to get
// the refresh token: the file must have an [oauth2] table with
// device_auth_url, and need not have the refresh token yet.
func LoadLoginConfig(path string, getenv func(string) string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config %s: %w", path, err)
	}
	return parseConfig(path, data, getenv, true)
}

func parseConfig(name string, data []byte, getenv func(string) string, login bool) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var doc map[string]any
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return nil, ConfigErrors{syntaxError(name, string(data), err)}
	}
	l := newLoader(md)
	l.login = login
	l.unknownKeys()
	l.decode(doc)
	l.readSecrets(getenv)
	l.check()
	if len(l.problems) > 0 {
		return nil, l.result(name, data)
	}
	return l.cfg, nil
}

// Limits of the values.
const (
	minMessageBytes = 1024
	maxMessageBytes = 50 << 20
	maxExtensions   = 20
	// maxSocketPath is the longest Unix socket path every platform titm
	// runs on takes (macOS has 104 bytes with the terminating NUL; Linux 108).
	maxSocketPath = 103
)

// defaultConfig returns the Config of a file that sets nothing: the values
// of the keys left out. The settings without a default are empty, and so are
// Store.ControlSocket and Embedded.Path, whose defaults depend on
// Store.Path.
func defaultConfig() *Config {
	return &Config{
		Store: StoreConfig{Path: "titm.db"},
		Config: mail.Config{
			Referee: mail.RefereeConfig{
				Name:            "titm referee",
				MaxMessageBytes: 262144,
				Deadline:        72 * time.Hour,
				Reminder:        12 * time.Hour,
				MaxExtensions:   2,
				MaxExtension:    72 * time.Hour,
				Scenario:        "campaign",
				MapPicture:      true,
				Language:        "en",
			},
			IMAP: mail.IMAPConfig{
				Security:        "starttls",
				Auth:            "password",
				Folder:          "INBOX",
				ProcessedFolder: "processed",
				PollInterval:    time.Minute,
				IDLE:            true,
			},
			SMTP: mail.SMTPConfig{
				Security: "starttls",
				Auth:     "password",
				RetryMin: time.Minute,
				RetryMax: time.Hour,
				GiveUp:   72 * time.Hour,
			},
		},
		Embedded: EmbeddedConfig{
			IMAPAddress: "127.0.0.1:1143",
			SMTPAddress: "127.0.0.1:1025",
			Users:       map[string]string{},
		},
		Log: LogConfig{Level: "info", Format: "text"},
	}
}

// A loader reads one configuration file into a Config, collecting its
// problems.
type loader struct {
	md       toml.MetaData
	cfg      *Config
	problems []problem
	// The secrets, read once every table is decoded (config_env.go).
	token, imapPassword, smtpPassword *secret
	clientSecret, refreshToken        *secret
	// oauth2 is the [oauth2] table as decoded; it goes into cfg.OAuth2 if
	// the file has the table.
	oauth2 *mail.OAuth2Config
	// login is set for titm oauth2 login, which is run to get the refresh
	// token and so does not require it.
	login bool
}

func newLoader(md toml.MetaData) *loader {
	cfg := defaultConfig()
	o := &mail.OAuth2Config{Mechanism: "xoauth2"}
	return &loader{
		md:           md,
		cfg:          cfg,
		token:        &secret{key: tokenKey, dst: &cfg.Referee.DirectorToken},
		imapPassword: &secret{key: imapPasswordKey, dst: &cfg.IMAP.Password},
		smtpPassword: &secret{key: smtpPasswordKey, dst: &cfg.SMTP.Password},
		clientSecret: &secret{key: clientSecretKey, dst: &o.ClientSecret, fromFile: true},
		refreshToken: &secret{key: refreshTokenKey, dst: &o.RefreshToken, fromFile: true},
		oauth2:       o,
	}
}

// problem is a ConfigError before its line is known. It is an error so that
// a setting can report problems of keys inside its value, such as the
// mailboxes of [embedded.users].
type problem struct {
	key toml.Key
	msg string
}

func (p problem) Error() string { return p.msg }

func (l *loader) add(key toml.Key, format string, args ...any) {
	l.problems = append(l.problems, problem{key, fmt.Sprintf(format, args...)})
}

// addError adds the problem err, which a setting returned for key: a
// problem of its own key, or several joined.
func (l *loader) addError(key toml.Key, err error) {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			l.addError(key, e)
		}
		return
	}
	if p, ok := err.(problem); ok {
		l.problems = append(l.problems, p)
		return
	}
	l.problems = append(l.problems, problem{key, err.Error()})
}

// defined reports whether the file gives key, spelt exactly.
func (l *loader) defined(key ...string) bool { return l.md.IsDefined(key...) }

// result returns the problems with their lines, in the order of the file.
func (l *loader) result(name string, data []byte) ConfigErrors {
	lines := rules.NewTOMLLines(data)
	es := make(ConfigErrors, len(l.problems))
	for i, p := range l.problems {
		es[i] = ConfigError{File: name, Key: p.key.String(), Line: lines.Line(p.key...), Msg: p.msg}
	}
	slices.SortStableFunc(es, func(a, b ConfigError) int {
		switch {
		case a.Line == b.Line:
			return 0
		case a.Line == 0:
			return 1
		case b.Line == 0:
			return -1
		}
		return a.Line - b.Line
	})
	return es
}
