package mail

import (
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// Config is the part of the daemon's configuration the mail door works by:
// who the referee is, and the IMAP and SMTP servers with their logins. The
// daemon's configuration file fills it (internal/daemon reads the file and
// checks every value; config.example.toml documents every key).
//
// A Config holds passwords: do not print or log it whole.
type Config struct {
	Referee RefereeConfig
	IMAP    IMAPConfig
	SMTP    SMTPConfig
	// OAuth2 is the [oauth2] table; nil when the file has none.
	OAuth2 *OAuth2Config
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

// CheckCAFile reports what is wrong with the file of CA certificates at
// path (the ca_file of [imap] and [smtp]): missing, unreadable, or without
// a certificate. The configuration is checked with it at start, so that
// such a file stops the daemon naming the key rather than failing every
// connection later.
func CheckCAFile(path string) error {
	_, err := loadCAFile(path)
	return err
}
