package mail

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/mail"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"titm/adjudicator"
	"titm/rules"
)

// Config is titm serve's configuration (config.example.toml documents every
// key). LoadConfig and ParseConfig return it with every default applied and
// every value checked, and secrets read from the environment where the file
// says so.
//
// A Config holds passwords: do not print or log it whole.
type Config struct {
	Store    StoreConfig
	Referee  RefereeConfig
	IMAP     IMAPConfig
	SMTP     SMTPConfig
	Embedded EmbeddedConfig
	Log      LogConfig
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
	// Password is the login password (password or password_env; required).
	Password string
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
	// Username is the login name (username; optional).
	Username string
	// Password is the login password (password or password_env; required
	// when Username is set).
	Password string
	// RetryMin is the wait before the first retry after a temporary failure
	// (retry_min; default 1m; 1s to 1h).
	RetryMin time.Duration
	// RetryMax caps the doubling wait between retries (retry_max; default
	// 1h; at least RetryMin).
	RetryMax time.Duration
	// GiveUp is how long a mail may keep failing temporarily before it is
	// marked failed (give_up; default 72h; at least RetryMin).
	GiveUp time.Duration
	// InsecureSkipVerify accepts any certificate, such as a self-signed one
	// in tests (insecure_skip_verify; default false).
	InsecureSkipVerify bool
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
func ParseConfig(name string, data []byte, getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	text := string(data)

	// Decoding the top level into Primitives and each table on its own means
	// that a table of the wrong type is one problem among others rather than
	// the end of decoding; the settings inside the tables accept any TOML
	// value for the same reason.
	var root map[string]toml.Primitive
	md, err := toml.Decode(text, &root)
	if err != nil {
		return nil, ConfigErrors{syntaxError(name, text, err)}
	}

	var raw rawConfig
	c := &checker{}
	for _, s := range raw.sections() {
		prim, ok := root[s.name]
		if !ok {
			continue
		}
		var v any
		if err := md.PrimitiveDecode(prim, &v); err != nil {
			c.add(toml.Key{s.name}, "%v", err)
			continue
		}
		if _, ok := v.(map[string]any); !ok {
			c.add(toml.Key{s.name}, "expected a table, written [%s] followed by its keys, not %s", s.name, typeName(v))
			continue
		}
		if err := decodeTable(&md, prim, s.dst); err != nil {
			c.add(toml.Key{s.name}, "%v", err)
		}
	}
	c.unknownKeys(&md, raw.sections())

	cfg := c.check(&raw, getenv)
	if len(c.problems) > 0 {
		return nil, c.result(name, text)
	}
	return cfg, nil
}

// decodeTable decodes a table into the struct of settings dst points to,
// matching keys to the fields' tags exactly: the decoder would also match
// them whatever their case, and TOML keys are case-sensitive, so that
// "Password" would be read as "password" besides being reported unknown.
func decodeTable(md *toml.MetaData, prim toml.Primitive, dst any) error {
	var table map[string]toml.Primitive
	if err := md.PrimitiveDecode(prim, &table); err != nil {
		return err
	}
	v := reflect.ValueOf(dst).Elem()
	for i := range v.NumField() {
		p, ok := table[v.Type().Field(i).Tag.Get("toml")]
		if !ok {
			continue
		}
		if err := md.PrimitiveDecode(p, v.Field(i).Addr().Interface()); err != nil {
			return err
		}
	}
	return nil
}

// Secret keys: their values must never appear in a message.
var secretKeys = []string{"imap.password", "smtp.password", "referee.director_token"}

// isSecret reports whether key (in TOML notation) holds a secret.
func isSecret(key string) bool {
	return slices.Contains(secretKeys, key) || strings.HasPrefix(key, "embedded.users.")
}

// syntaxError turns the decoder's error into a ConfigError. The decoder
// quotes the text it choked on, which on a secret's line may be the secret
// itself, so there the message is replaced.
func syntaxError(name, text string, err error) ConfigError {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return ConfigError{File: name, Msg: err.Error()}
	}
	e := ConfigError{File: name, Line: pe.Position.Line, Msg: pe.Message}
	if isSecret(pe.LastKey) || secretLine(text, pe.Position.Line) {
		e.Msg = "the line holds a secret and cannot be read as TOML; check its quotes (the text is not shown)"
	}
	return e
}

// secretLine reports whether line n of text seems to set a secret, for
// syntax errors the decoder does not tie to a key.
func secretLine(text string, n int) bool {
	lines := strings.Split(text, "\n")
	if n < 1 || n > len(lines) {
		return false
	}
	l := strings.TrimSpace(lines[n-1])
	for _, k := range []string{"password", "director_token"} {
		if rest, ok := strings.CutPrefix(l, k); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return true
		}
	}
	// Embedded users are written "address" = "password".
	key, _, ok := strings.Cut(l, "=")
	return ok && strings.Contains(key, "@")
}

// setting is one value from the file. It takes any TOML value so that a
// value of the wrong type is reported with the others instead of stopping
// the decoder.
type setting[T any] struct {
	val T
	raw any  // the value as decoded, for messages about its type
	set bool // the file gives the key
	ok  bool // raw is a T
}

// UnmarshalTOML implements toml.Unmarshaler.
func (s *setting[T]) UnmarshalTOML(v any) error {
	s.raw, s.set = v, true
	s.val, s.ok = v.(T)
	return nil
}

// The tables as written in the file. Durations are strings, as TOML has no
// duration type; secrets have a sibling naming an environment variable.
type (
	rawConfig struct {
		Store    rawStore
		Referee  rawReferee
		IMAP     rawIMAP
		SMTP     rawSMTP
		Embedded rawEmbedded
		Log      rawLog
	}
	rawStore struct {
		Path          setting[string] `toml:"path"`
		ControlSocket setting[string] `toml:"control_socket"`
	}
	rawReferee struct {
		Address          setting[string] `toml:"address"`
		Name             setting[string] `toml:"name"`
		Director         setting[string] `toml:"director"`
		DirectorToken    setting[string] `toml:"director_token"`
		DirectorTokenEnv setting[string] `toml:"director_token_env"`
		MaxMessageBytes  setting[int64]  `toml:"max_message_bytes"`
		Deadline         setting[string] `toml:"deadline"`
		Reminder         setting[string] `toml:"reminder"`
		MaxExtensions    setting[int64]  `toml:"max_extensions"`
		MaxExtension     setting[string] `toml:"max_extension"`
		Scenario         setting[string] `toml:"scenario"`
		RequireDKIM      setting[bool]   `toml:"require_dkim"`
		MapPicture       setting[bool]   `toml:"map_picture"`
	}
	rawIMAP struct {
		Address            setting[string] `toml:"address"`
		Security           setting[string] `toml:"security"`
		Username           setting[string] `toml:"username"`
		Password           setting[string] `toml:"password"`
		PasswordEnv        setting[string] `toml:"password_env"`
		Folder             setting[string] `toml:"folder"`
		ProcessedFolder    setting[string] `toml:"processed_folder"`
		PollInterval       setting[string] `toml:"poll_interval"`
		IDLE               setting[bool]   `toml:"idle"`
		InsecureSkipVerify setting[bool]   `toml:"insecure_skip_verify"`
	}
	rawSMTP struct {
		Address            setting[string] `toml:"address"`
		Security           setting[string] `toml:"security"`
		Username           setting[string] `toml:"username"`
		Password           setting[string] `toml:"password"`
		PasswordEnv        setting[string] `toml:"password_env"`
		RetryMin           setting[string] `toml:"retry_min"`
		RetryMax           setting[string] `toml:"retry_max"`
		GiveUp             setting[string] `toml:"give_up"`
		InsecureSkipVerify setting[bool]   `toml:"insecure_skip_verify"`
	}
	rawEmbedded struct {
		Enabled     setting[bool]           `toml:"enabled"`
		IMAPAddress setting[string]         `toml:"imap_address"`
		SMTPAddress setting[string]         `toml:"smtp_address"`
		Users       setting[map[string]any] `toml:"users"`
	}
	rawLog struct {
		Level  setting[string] `toml:"level"`
		Format setting[string] `toml:"format"`
	}
)

// section is one top-level table and where it decodes to.
type section struct {
	name string
	dst  any // pointer to a struct of settings
}

func (r *rawConfig) sections() []section {
	return []section{
		{"store", &r.Store},
		{"referee", &r.Referee},
		{"imap", &r.IMAP},
		{"smtp", &r.SMTP},
		{"embedded", &r.Embedded},
		{"log", &r.Log},
	}
}

// usersKey is the table of embedded mailboxes, whose keys are addresses
// rather than names titm knows.
var usersKey = toml.Key{"embedded", "users"}

// problem is a ConfigError before its line is known.
type problem struct {
	key toml.Key
	msg string
}

// checker collects the problems of one file.
type checker struct {
	problems []problem
}

func (c *checker) add(key toml.Key, format string, args ...any) {
	c.problems = append(c.problems, problem{key, fmt.Sprintf(format, args...)})
}

// result returns the problems with their lines, in the order of the file.
func (c *checker) result(name, text string) ConfigErrors {
	lines := rules.NewTOMLLines([]byte(text))
	es := make(ConfigErrors, len(c.problems))
	for i, p := range c.problems {
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

// unknownKeys reports every key in the file titm does not know, spelt
// exactly. It goes through md.Keys rather than md.Undecoded, which would
// miss keys in the wrong case: decoding a table to a map marks every key in
// it decoded, and decoding to a struct matches keys whatever their case.
func (c *checker) unknownKeys(md *toml.MetaData, sections []section) {
	knownTables := []string{usersKey.String()}
	var knownKeys []string
	for _, s := range sections {
		knownTables = append(knownTables, s.name)
		t := reflect.TypeOf(s.dst).Elem()
		for i := range t.NumField() {
			knownKeys = append(knownKeys, s.name+"."+t.Field(i).Tag.Get("toml"))
		}
	}

	keys := md.Keys()
	isTable := func(k toml.Key) bool { return md.Type(k...) == "Hash" || hasChild(keys, k) }
	known := func(k toml.Key) bool {
		s := k.String()
		if slices.Contains(knownKeys, s) || slices.Contains(knownTables, s) {
			return true
		}
		// Any key is an address in [embedded.users]; those are checked
		// as addresses.
		return len(k) > len(usersKey) && slices.Equal(k[:len(usersKey)], usersKey)
	}

	// A misspelt table is reported alone, not with each of its keys.
	var misspelt []toml.Key
	for _, k := range keys {
		if known(k) || slices.ContainsFunc(misspelt, func(t toml.Key) bool {
			return len(k) > len(t) && slices.Equal(k[:len(t)], t)
		}) {
			continue
		}
		if isTable(k) {
			if s := suggest(k, knownTables); s != "" {
				misspelt = append(misspelt, k)
				c.add(k, "unknown table; did you mean %s?", s)
			} else if md.Type(k...) == "Hash" && !hasChild(keys, k) {
				c.add(k, "unknown table")
			}
			// An unknown table with keys is reported through its keys,
			// which may each have a suggestion.
			continue
		}
		if s := suggest(k, knownKeys); s != "" {
			c.add(k, "unknown key; did you mean %s?", s)
		} else {
			c.add(k, "unknown key")
		}
	}
}

// hasChild reports whether any of keys is inside the table k.
func hasChild(keys []toml.Key, k toml.Key) bool {
	for _, o := range keys {
		if len(o) > len(k) && slices.Equal(o[:len(k)], k) {
			return true
		}
	}
	return false
}

// suggest returns the candidate closest to the unknown key k: one within a
// few edits of it, or else the only one with the same last part (a key in
// the wrong table). It returns "" when none is close.
func suggest(k toml.Key, candidates []string) string {
	s := strings.ToLower(k.String())
	best, bestDist := "", -1
	for _, c := range candidates {
		if d := rules.EditDistance(s, c); bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist >= 0 && bestDist <= max(1, len(s)/4) {
		return best
	}
	last := "." + strings.ToLower(k[len(k)-1])
	var same []string
	for _, c := range candidates {
		if strings.HasSuffix(c, last) {
			same = append(same, c)
		}
	}
	if len(same) == 1 {
		return same[0]
	}
	return ""
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

// check applies the defaults, checks every value and returns the Config,
// which is meaningful only if no problem was found.
func (c *checker) check(r *rawConfig, getenv func(string) string) *Config {
	cfg := &Config{}

	// [store]
	st := &cfg.Store
	st.Path = c.nonEmpty(toml.Key{"store", "path"}, r.Store.Path, "titm.db")
	st.ControlSocket = st.Path + ".sock"
	if r.Store.ControlSocket.set {
		st.ControlSocket = c.nonEmpty(toml.Key{"store", "control_socket"}, r.Store.ControlSocket, st.ControlSocket)
	}
	if len(st.ControlSocket) > maxSocketPath {
		c.add(toml.Key{"store", "control_socket"}, "%q is %d bytes long; a Unix socket path may have at most %d (set a shorter one)",
			st.ControlSocket, len(st.ControlSocket), maxSocketPath)
	}

	// [referee]
	rr, rf := &r.Referee, &cfg.Referee
	rf.Address = c.mailAddress(toml.Key{"referee", "address"}, rr.Address, true)
	rf.Name = c.nonEmpty(toml.Key{"referee", "name"}, rr.Name, "titm referee")
	if strings.ContainsFunc(rf.Name, unicode.IsControl) {
		c.add(toml.Key{"referee", "name"}, "must be one line with no control characters")
	}
	rf.Director = c.mailAddress(toml.Key{"referee", "director"}, rr.Director, false)
	tokenKey := toml.Key{"referee", "director_token"}
	token, tokenFrom := c.secret(tokenKey, rr.DirectorToken, rr.DirectorTokenEnv, getenv)
	rf.DirectorToken = token
	switch {
	case rr.Director.set && tokenFrom == nil:
		c.add(tokenKey, "required when referee.director is set; give it here or name an environment variable with referee.director_token_env")
	case !rr.Director.set && tokenFrom != nil:
		c.add(tokenFrom, "set, but referee.director is not; give the director's address too, or remove the token")
	}
	if n := utf8.RuneCountInString(token); token != "" && n < 16 {
		// Say the length, never the token.
		c.add(tokenFrom, "the token is %d characters long; a director's token must have at least 16", n)
	}
	rf.MaxMessageBytes = c.intRange(toml.Key{"referee", "max_message_bytes"}, rr.MaxMessageBytes, 262144, minMessageBytes, maxMessageBytes)
	rf.Deadline = c.duration(toml.Key{"referee", "deadline"}, rr.Deadline, 72*time.Hour, time.Hour, 0)
	rf.Reminder = c.duration(toml.Key{"referee", "reminder"}, rr.Reminder, 12*time.Hour, 0, 0)
	if rf.Reminder >= rf.Deadline {
		c.add(toml.Key{"referee", "reminder"}, "%s is not shorter than referee.deadline (%s); the reminder must come before the deadline (0 for none)",
			adjudicator.FormatDuration(rf.Reminder), adjudicator.FormatDuration(rf.Deadline))
	}
	rf.MaxExtensions = int(c.intRange(toml.Key{"referee", "max_extensions"}, rr.MaxExtensions, 2, 0, maxExtensions))
	rf.MaxExtension = c.duration(toml.Key{"referee", "max_extension"}, rr.MaxExtension, 72*time.Hour, time.Hour, 336*time.Hour)
	rf.Scenario = c.nonEmpty(toml.Key{"referee", "scenario"}, rr.Scenario, "campaign")
	rf.RequireDKIM = c.boolean(toml.Key{"referee", "require_dkim"}, rr.RequireDKIM, false)
	rf.MapPicture = c.boolean(toml.Key{"referee", "map_picture"}, rr.MapPicture, true)

	// [imap]
	ri, im := &r.IMAP, &cfg.IMAP
	im.Address, im.Security = c.server("imap", "143", ri.Address, ri.Security)
	im.Username = c.nonEmpty(toml.Key{"imap", "username"}, ri.Username, "")
	if !ri.Username.set {
		c.add(toml.Key{"imap", "username"}, "required: the referee's login name on the IMAP server")
	}
	var passFrom toml.Key
	im.Password, passFrom = c.secret(toml.Key{"imap", "password"}, ri.Password, ri.PasswordEnv, getenv)
	if passFrom == nil {
		c.add(toml.Key{"imap", "password"}, "required; give it here or name an environment variable with imap.password_env")
	}
	im.Folder = c.nonEmpty(toml.Key{"imap", "folder"}, ri.Folder, "INBOX")
	im.ProcessedFolder = c.nonEmpty(toml.Key{"imap", "processed_folder"}, ri.ProcessedFolder, "processed")
	if im.ProcessedFolder == im.Folder {
		c.add(toml.Key{"imap", "processed_folder"}, "%q is also imap.folder; read mails must go to another folder", im.ProcessedFolder)
	}
	im.PollInterval = c.duration(toml.Key{"imap", "poll_interval"}, ri.PollInterval, time.Minute, 5*time.Second, time.Hour)
	im.IDLE = c.boolean(toml.Key{"imap", "idle"}, ri.IDLE, true)
	im.InsecureSkipVerify = c.boolean(toml.Key{"imap", "insecure_skip_verify"}, ri.InsecureSkipVerify, false)

	// [smtp]
	rs, sm := &r.SMTP, &cfg.SMTP
	sm.Address, sm.Security = c.server("smtp", "587", rs.Address, rs.Security)
	sm.Username = c.nonEmpty(toml.Key{"smtp", "username"}, rs.Username, "")
	var smtpPassFrom toml.Key
	sm.Password, smtpPassFrom = c.secret(toml.Key{"smtp", "password"}, rs.Password, rs.PasswordEnv, getenv)
	switch {
	case rs.Username.set && smtpPassFrom == nil:
		c.add(toml.Key{"smtp", "password"}, "required when smtp.username is set; give it here or name an environment variable with smtp.password_env")
	case !rs.Username.set && smtpPassFrom != nil:
		c.add(toml.Key{"smtp", "username"}, "required when a password is set: the referee's login name on the SMTP server")
	}
	sm.RetryMin = c.duration(toml.Key{"smtp", "retry_min"}, rs.RetryMin, time.Minute, time.Second, time.Hour)
	sm.RetryMax = c.duration(toml.Key{"smtp", "retry_max"}, rs.RetryMax, time.Hour, 0, 0)
	if sm.RetryMax < sm.RetryMin {
		c.add(toml.Key{"smtp", "retry_max"}, "%s is shorter than smtp.retry_min (%s); it caps the wait, so it must be at least that",
			adjudicator.FormatDuration(sm.RetryMax), adjudicator.FormatDuration(sm.RetryMin))
	}
	sm.GiveUp = c.duration(toml.Key{"smtp", "give_up"}, rs.GiveUp, 72*time.Hour, 0, 0)
	if sm.GiveUp < sm.RetryMin {
		c.add(toml.Key{"smtp", "give_up"}, "%s is shorter than smtp.retry_min (%s); a mail would be marked failed before its first retry",
			adjudicator.FormatDuration(sm.GiveUp), adjudicator.FormatDuration(sm.RetryMin))
	}
	sm.InsecureSkipVerify = c.boolean(toml.Key{"smtp", "insecure_skip_verify"}, rs.InsecureSkipVerify, false)

	// [embedded]
	re, em := &r.Embedded, &cfg.Embedded
	em.Enabled = c.boolean(toml.Key{"embedded", "enabled"}, re.Enabled, false)
	em.IMAPAddress = c.listenAddress(toml.Key{"embedded", "imap_address"}, re.IMAPAddress, "127.0.0.1:1143")
	em.SMTPAddress = c.listenAddress(toml.Key{"embedded", "smtp_address"}, re.SMTPAddress, "127.0.0.1:1025")
	em.Users = c.users(re.Users)
	if em.Enabled {
		c.embeddedMailboxes(cfg, passFrom)
	}

	// [log]
	cfg.Log.Level = c.oneOf(toml.Key{"log", "level"}, r.Log.Level, "info", "debug", "info", "warn", "error")
	cfg.Log.Format = c.oneOf(toml.Key{"log", "format"}, r.Log.Format, "text", "text", "json")
	return cfg
}

// embeddedMailboxes checks that the embedded server has the mailboxes
// serve will use: the referee's, and the IMAP login when serve reads from
// the embedded server. passFrom is the key that gave the IMAP password.
func (c *checker) embeddedMailboxes(cfg *Config, passFrom toml.Key) {
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
			c.add(usersKey, "must include the referee's mailbox %s (referee.address), as the embedded server is enabled", ref)
		}
	}
	im := cfg.IMAP
	if im.Username == "" || !sameHostPort(im.Address, cfg.Embedded.IMAPAddress) {
		return
	}
	u, ok := find(im.Username)
	switch {
	case !ok && !strings.EqualFold(im.Username, cfg.Referee.Address):
		c.add(usersKey, "must include %s (imap.username), as imap.address is the embedded IMAP server", im.Username)
	case ok && im.Password != "" && im.Password != cfg.Embedded.Users[u]:
		c.add(passFrom, "is not the password of %s in [embedded.users], so serve could not log in to the embedded IMAP server", u)
	}
}

// sameHostPort reports whether two host:port addresses are written alike.
func sameHostPort(a, b string) bool {
	ah, ap, err1 := net.SplitHostPort(a)
	bh, bp, err2 := net.SplitHostPort(b)
	return err1 == nil && err2 == nil && strings.EqualFold(ah, bh) && ap == bp
}

// typeName names the type of a decoded TOML value for messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "a number"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	case time.Time:
		return "a date or time"
	}
	return fmt.Sprintf("a %T", v)
}

// typeOK reports whether s has the type wanted (written as for
// messages), adding a problem if not. The message names the types only:
// the key may hold a secret.
func typeOK[T any](c *checker, key toml.Key, s setting[T], want string) bool {
	if s.set && !s.ok {
		c.add(key, "expected %s, not %s", want, typeName(s.raw))
		return false
	}
	return true
}

// nonEmpty returns a string setting, def if it is missing; a string given
// empty is a problem.
func (c *checker) nonEmpty(key toml.Key, s setting[string], def string) string {
	if !typeOK(c, key, s, `a string in quotes`) || !s.set {
		return def
	}
	if strings.TrimSpace(s.val) == "" {
		c.add(key, "is empty; give a value, or remove the key")
		return def
	}
	return s.val
}

func (c *checker) boolean(key toml.Key, s setting[bool], def bool) bool {
	if !typeOK(c, key, s, "true or false") || !s.set {
		return def
	}
	return s.val
}

// oneOf returns a string setting that must be one of allowed.
func (c *checker) oneOf(key toml.Key, s setting[string], def string, allowed ...string) string {
	if !typeOK(c, key, s, "a string in quotes") || !s.set {
		return def
	}
	if !slices.Contains(allowed, s.val) {
		c.add(key, "%q is not one of %s", s.val, strings.Join(allowed, ", "))
		return def
	}
	return s.val
}

// intRange returns a whole-number setting within lo..hi.
func (c *checker) intRange(key toml.Key, s setting[int64], def, lo, hi int64) int64 {
	if !typeOK(c, key, s, "a whole number") || !s.set {
		return def
	}
	if s.val < lo || s.val > hi {
		c.add(key, "%d is out of range; expected %d to %d", s.val, lo, hi)
		return def
	}
	return s.val
}

// duration returns a duration setting of at least lo and, if hi is not 0,
// at most hi. A duration is a string for time.ParseDuration, as TOML has no
// type for it.
func (c *checker) duration(key toml.Key, s setting[string], def, lo, hi time.Duration) time.Duration {
	if !s.set {
		return def
	}
	if !s.ok {
		switch v := s.raw.(type) {
		case int64, float64:
			c.add(key, "%v is not a duration; write it in quotes with its unit, as \"72h\" or \"90m\"", v)
		default:
			c.add(key, "expected a duration in quotes, as \"72h\" or \"90m\", not %s", typeName(v))
		}
		return def
	}
	d, err := time.ParseDuration(s.val)
	if err != nil {
		c.add(key, "%q is not a duration; write it as 72h or 90m", s.val)
		return def
	}
	switch {
	case d < 0:
		c.add(key, "%s is negative", s.val)
		return def
	case hi > 0 && (d < lo || d > hi):
		c.add(key, "%s is out of range; expected %s to %s", s.val, adjudicator.FormatDuration(lo), adjudicator.FormatDuration(hi))
		return def
	case d < lo:
		c.add(key, "%s is too short; expected at least %s", s.val, adjudicator.FormatDuration(lo))
		return def
	}
	return d
}

// mailAddress returns a bare mail address setting, "" if it is missing.
func (c *checker) mailAddress(key toml.Key, s setting[string], required bool) string {
	if !typeOK(c, key, s, "a mail address in quotes") {
		return ""
	}
	if !s.set {
		if required {
			c.add(key, "required: a mail address, as \"referee@example.org\"")
		}
		return ""
	}
	if msg := checkMailAddress(s.val); msg != "" {
		c.add(key, "%s", msg)
		return ""
	}
	return s.val
}

// checkMailAddress returns what is wrong with a, which must be a bare mail
// address, or "".
func checkMailAddress(a string) string {
	addr, err := mail.ParseAddress(a)
	switch {
	case err != nil:
		return fmt.Sprintf("%q is not a mail address; expected one such as \"referee@example.org\"", a)
	case addr.Address != a:
		// A display name here would end up inside headers titm writes.
		return fmt.Sprintf("%q is not a bare mail address; write only the address, as %q", a, addr.Address)
	}
	return ""
}

// hostPort checks a host:port address with a host and a numeric port,
// returning the host, or "" after adding a problem.
func (c *checker) hostPort(key toml.Key, a string) string {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		c.add(key, "%q is not host:port, as \"mail.example.org:993\"", a)
		return ""
	}
	if host == "" {
		c.add(key, "%q has no host; expected host:port, as \"mail.example.org:993\"", a)
		return ""
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		c.add(key, "%q: the port must be a number from 1 to 65535", a)
		return ""
	}
	return host
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

// server checks the address and security of the IMAP or SMTP server.
func (c *checker) server(table, examplePort string, addr, sec setting[string]) (string, string) {
	addrKey, secKey := toml.Key{table, "address"}, toml.Key{table, "security"}
	var host string
	if typeOK(c, addrKey, addr, "host:port in quotes") {
		if !addr.set {
			c.add(addrKey, "required: the %s server as host:port, as \"mail.example.org:%s\"", strings.ToUpper(table), examplePort)
		} else {
			host = c.hostPort(addrKey, addr.val)
		}
	}
	security := c.oneOf(secKey, sec, "starttls", "starttls", "tls", "none")
	if security == "none" && host != "" && !isLoopback(host) {
		// Without TLS the password crosses the network in the clear.
		c.add(secKey, "\"none\" sends the password unencrypted, so it is allowed only for a server on this machine (127.0.0.1, ::1 or localhost), not %s", host)
	}
	if host == "" {
		return "", security
	}
	return addr.val, security
}

// listenAddress returns an embedded server's address, which must be on a
// loopback address: the embedded servers take passwords in the clear.
func (c *checker) listenAddress(key toml.Key, s setting[string], def string) string {
	a := c.nonEmpty(key, s, def)
	host := c.hostPort(key, a)
	if host != "" && !isLoopback(host) {
		c.add(key, "%q is not a loopback address; the embedded servers take passwords unencrypted, so they listen only on 127.0.0.1, ::1 or localhost", a)
	}
	return a
}

// secret returns a secret given either as key or, through the environment
// variable it names, as key_env, and the key that gave it: nil if neither
// did. Messages name the key or the variable, never the value.
func (c *checker) secret(key toml.Key, val, env setting[string], getenv func(string) string) (string, toml.Key) {
	envKey := toml.Key{key[0], key[1] + "_env"}
	if val.set && env.set {
		c.add(envKey, "%s is set too; give the secret in one place only", key)
		return "", envKey
	}
	if val.set {
		if !typeOK(c, key, val, "a string in quotes") {
			return "", key
		}
		if val.val == "" {
			c.add(key, "is empty")
		}
		return val.val, key
	}
	if !env.set {
		return "", nil
	}
	if !typeOK(c, envKey, env, "the name of an environment variable in quotes") {
		return "", envKey
	}
	if env.val == "" {
		c.add(envKey, "is empty; expected the name of an environment variable, as \"TITM_IMAP_PASSWORD\"")
		return "", envKey
	}
	v := getenv(env.val)
	if v == "" {
		c.add(envKey, "environment variable %s is not set or is empty", env.val)
	}
	return v, envKey
}

// users returns the embedded mailboxes: bare addresses with non-empty
// passwords, which no message shows.
func (c *checker) users(s setting[map[string]any]) map[string]string {
	users := map[string]string{}
	if !typeOK(c, usersKey, s, "a table of \"address\" = \"password\"") || !s.set {
		return users
	}
	// Sorted for the same messages each time; errors puts them in file order.
	for _, addr := range slices.Sorted(maps.Keys(s.val)) {
		key := append(slices.Clone(usersKey), addr)
		if msg := checkMailAddress(addr); msg != "" {
			c.add(key, "%s", msg)
			continue
		}
		switch p, ok := s.val[addr].(string); {
		case !ok:
			c.add(key, "expected the mailbox's password as a string in quotes, not %s", typeName(s.val[addr]))
		case p == "":
			c.add(key, "the password is empty")
		default:
			users[addr] = p
		}
	}
	return users
}
