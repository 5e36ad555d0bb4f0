package mail

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"golang.org/x/oauth2"

	"titm/rules"
)

// Config is titm serve's configuration (config.example.toml documents every
// key). LoadConfig and ParseConfig return it with every default applied and
// every value checked, and secrets read from the environment where the file
// says so.
//
// A Config holds passwords: do not print or log it whole.
type Config struct {
	Store   StoreConfig
	Referee RefereeConfig
	IMAP    IMAPConfig
	SMTP    SMTPConfig
	// OAuth2 is the [oauth2] table; nil when the file has none.
	OAuth2   *OAuth2Config
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

// RefereeConfig is the [referee] table: who the referee is and the limits
// it plays games by.
type RefereeConfig struct {
	// Address is the From of every mail and where players write (address;
	// required).
	Address string
	// Name is the display name on the referee's mails (name; default
	// "titm referee").
	Name string
	// Director is the tournament director's address (director; optional).
	Director string
	// DirectorToken is the director's secret, which his mails must carry
	// (director_token or director_token_env; required when Director is set).
	DirectorToken string
	// MaxMessageBytes is the largest mail the referee reads
	// (max_message_bytes; default 262144; 1024 to 50 MiB).
	MaxMessageBytes int64
	// Deadline is the time per impulse in games made by mail (deadline;
	// default 72h; at least 1h).
	Deadline time.Duration
	// Reminder is how long before a deadline the player to move is reminded
	// (reminder; default 12h; 0 disables; shorter than Deadline).
	Reminder time.Duration
	// MaxExtensions is how many times each player may EXTEND in a game
	// (max_extensions; default 2; 0 to 20).
	MaxExtensions int
	// MaxExtension is the longest single EXTEND (max_extension; default 72h;
	// 1h to 336h).
	MaxExtension time.Duration
	// Scenario is the scenario of games the director makes by mail without
	// naming one (scenario; default "campaign").
	Scenario string
	// RequireDKIM makes the referee ignore mails without a valid DKIM
	// signature from the sender's domain (require_dkim; default false).
	RequireDKIM bool
	// MapPicture attaches the map picture to every report (map_picture;
	// default true). Drawing it costs some 50 ms of one core an impulse,
	// and the mails grow by some 450 KB each.
	MapPicture bool
	// Language is the language of the mails of a player who chose none,
	// and of the observers' (language; "en" or "ja"; default "en").
	Language string
	// Languages gives some players another language than Language from
	// their first mail on, by address ([referee.languages]; a player's
	// LANGUAGE by mail overrides it).
	Languages map[string]string
}

// IMAPConfig is the [imap] table: the mailbox the referee reads.
type IMAPConfig struct {
	// Address is the server as host:port (address; required).
	Address string
	// Security is "starttls" (the default), "tls", or "none", which is
	// allowed only for a server on a loopback address (security).
	Security string
	// Username is the login name (username; required).
	Username string
	// Auth is how the referee logs in: "password" (the default) or
	// "oauth2", with an access token got as [oauth2] says (auth).
	Auth string
	// Password is the login password (password or password_env; required
	// when Auth is "password").
	Password string
	// OAuth2 gives the access tokens when Auth is "oauth2"; else nil.
	OAuth2 *OAuth2Config
	// Folder is the mailbox the orders arrive in (folder; default "INBOX").
	Folder string
	// ProcessedFolder is where read mails are moved (processed_folder;
	// default "processed"; not Folder).
	ProcessedFolder string
	// PollInterval is how often the folder is checked when the server has
	// no IDLE, and as a safety net when it has (poll_interval; default 60s;
	// 5s to 1h).
	PollInterval time.Duration
	// IDLE lets the server announce new mail at once (idle; default true).
	IDLE bool
	// CAFile is a PEM file of the CA certificates the server's certificate
	// must be signed by, for a server with a private CA, instead of the
	// system's (ca_file; optional; not with security "none").
	CAFile string
	// InsecureSkipVerify accepts any certificate, such as a self-signed one
	// in tests (insecure_skip_verify; default false).
	InsecureSkipVerify bool
}

// SMTPConfig is the [smtp] table: the server the referee sends through.
type SMTPConfig struct {
	// Address is the server as host:port (address; required).
	Address string
	// Security is "starttls" (the default), "tls", or "none", which is
	// allowed only for a server on a loopback address (security).
	Security string
	// Username is the login name (username; optional, but required when
	// Auth is "oauth2").
	Username string
	// Auth is how the referee logs in when Username is set: "password"
	// (the default) or "oauth2", with an access token got as [oauth2] says
	// (auth).
	Auth string
	// Password is the login password (password or password_env; required
	// when Username is set and Auth is "password").
	Password string
	// OAuth2 gives the access tokens when Auth is "oauth2"; else nil.
	OAuth2 *OAuth2Config
	// RetryMin is the wait before the first retry after a temporary failure
	// (retry_min; default 1m; 1s to 1h).
	RetryMin time.Duration
	// RetryMax caps the doubling wait between retries (retry_max; default
	// 1h; at least RetryMin).
	RetryMax time.Duration
	// GiveUp is how long a mail may keep failing temporarily before it is
	// marked failed (give_up; default 72h; at least RetryMin).
	GiveUp time.Duration
	// CAFile is a PEM file of the CA certificates the server's certificate
	// must be signed by, for a server with a private CA, instead of the
	// system's (ca_file; optional; not with security "none").
	CAFile string
	// InsecureSkipVerify accepts any certificate, such as a self-signed one
	// in tests (insecure_skip_verify; default false).
	InsecureSkipVerify bool
}

// OAuth2Config is the [oauth2] table: the provider's token endpoint and
// the OAuth2 client registered with it, through which the referee turns its
// refresh token into the short-lived access tokens it logs in to IMAP and
// SMTP with (oauth2.go).
type OAuth2Config struct {
	// TokenURL is the provider's token endpoint (token_url; required; https,
	// or http on a loopback address).
	TokenURL string
	// DeviceAuthURL is the provider's device authorization endpoint, used
	// only by titm oauth2 login (device_auth_url; optional).
	DeviceAuthURL string
	// ClientID is the OAuth2 client's identifier (client_id; required).
	ClientID string
	// ClientSecret is the client's secret (client_secret, client_secret_env
	// or client_secret_file; optional, as public clients have none).
	ClientSecret string
	// RefreshToken is the long-lived token titm oauth2 login prints
	// (refresh_token, refresh_token_env or refresh_token_file; required,
	// except by titm oauth2 login).
	RefreshToken string
	// RefreshTokenFile is the file the refresh token is read from
	// (refresh_token_file), where titm oauth2 login says to store it; ""
	// when the token is given otherwise.
	RefreshTokenFile string
	// Scopes are the scopes the tokens are asked for (scopes; required).
	Scopes []string
	// Mechanism is the SASL mechanism the access token is sent with:
	// "xoauth2" (the default), which Gmail and Microsoft 365 take, or
	// "oauthbearer" (RFC 7628) (mechanism).
	Mechanism string

	mu     sync.Mutex
	tokens oauth2.TokenSource // nil until the first login, or after a refusal
	// refresh is the refresh token the provider last sent, which replaces
	// RefreshToken when the provider rotates it.
	refresh string
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
		Referee: RefereeConfig{
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
		IMAP: IMAPConfig{
			Security:        "starttls",
			Auth:            "password",
			Folder:          "INBOX",
			ProcessedFolder: "processed",
			PollInterval:    time.Minute,
			IDLE:            true,
		},
		SMTP: SMTPConfig{
			Security: "starttls",
			Auth:     "password",
			RetryMin: time.Minute,
			RetryMax: time.Hour,
			GiveUp:   72 * time.Hour,
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
	oauth2 *OAuth2Config
	// login is set for titm oauth2 login, which is run to get the refresh
	// token and so does not require it.
	login bool
}

func newLoader(md toml.MetaData) *loader {
	cfg := defaultConfig()
	o := &OAuth2Config{Mechanism: "xoauth2"}
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
