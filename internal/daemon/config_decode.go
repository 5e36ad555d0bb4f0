package daemon

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"titm/adjudicator/lang"
	"titm/rules"
)

// A table is one top-level table of the file and its keys.
type table struct {
	name     string
	settings []setting
}

// A setting is one key of a table and the value that decodes it into its
// field of the Config.
type setting struct {
	key string
	val toml.Unmarshaler
}

// usersKey is the table of embedded mailboxes, whose keys are addresses
// rather than names titm knows.
var usersKey = toml.Key{"embedded", "users"}

// languagesKey is the table of players' languages, also keyed by address.
var languagesKey = toml.Key{"referee", "languages"}

// addressTables are the tables whose keys are addresses.
var addressTables = []toml.Key{usersKey, languagesKey}

// tables returns every table and key titm knows, each key tied to where its
// value goes in l.cfg. The order of the keys is that of config.example.toml;
// it also decides between equally close suggestions for a misspelt key.
func (l *loader) tables() []table {
	st, em := &l.cfg.Store, &l.cfg.Embedded
	out := []table{{"store", []setting{
		{"path", text{dst: &st.Path}},
		{"control_socket", text{dst: &st.ControlSocket}},
	}}}
	out = append(out, l.mailTables()...)
	return append(out,
		table{"embedded", []setting{
			{"enabled", flag{&em.Enabled}},
			{"imap_address", listenAddress{&em.IMAPAddress}},
			{"smtp_address", listenAddress{&em.SMTPAddress}},
			{"path", text{dst: &em.Path}},
			{usersKey[1], mailboxes{&em.Users}},
		}},
		table{"log", []setting{
			{"level", choice{&l.cfg.Log.Level, []string{"debug", "info", "warn", "error"}}},
			{"format", choice{&l.cfg.Log.Format, []string{"text", "json"}}},
		}},
		table{"backup", []setting{
			{"dir", text{dst: &l.cfg.Backup.Dir}},
			{"every", duration{&l.cfg.Backup.Every, time.Hour, 720 * time.Hour}},
			{"keep", number[int]{&l.cfg.Backup.Keep, 1, 1000}},
		}},
		table{"web", []setting{
			{"listen", hostPort{&l.cfg.Web.Listen}},
			{"show_addresses", flag{&l.cfg.Web.ShowAddresses}},
		}},
	)
}

// mailTables are the tables of mail.Config: the referee's settings and
// the mail servers'.
func (l *loader) mailTables() []table {
	rf, im, sm, o := &l.cfg.Referee, &l.cfg.IMAP, &l.cfg.SMTP, l.oauth2
	security := []string{"starttls", "tls", "none"}
	auth := []string{"password", "oauth2"}
	return []table{
		{"referee", []setting{
			{"address", mailbox{&rf.Address}},
			{"name", text{dst: &rf.Name, oneLine: true}},
			{"director", mailbox{&rf.Director}},
			{"director_token", anyValue{&l.token.value}},
			{"director_token_env", anyValue{&l.token.env}},
			{"max_message_bytes", number[int64]{&rf.MaxMessageBytes, minMessageBytes, maxMessageBytes}},
			{"deadline", duration{&rf.Deadline, time.Hour, 0}},
			{"reminder", duration{&rf.Reminder, 0, 0}},
			{"max_extensions", number[int]{&rf.MaxExtensions, 0, maxExtensions}},
			{"max_extension", duration{&rf.MaxExtension, time.Hour, 336 * time.Hour}},
			{"scenario", text{dst: &rf.Scenario}},
			{"require_dkim", flag{&rf.RequireDKIM}},
			{"map_picture", flag{&rf.MapPicture}},
			{"language", choice{&rf.Language, lang.Codes}},
			{languagesKey[1], languages{&rf.Languages}},
		}},
		{"imap", []setting{
			{"address", hostPort{&im.Address}},
			{"security", choice{&im.Security, security}},
			{"username", text{dst: &im.Username}},
			{"auth", choice{&im.Auth, auth}},
			{"password", anyValue{&l.imapPassword.value}},
			{"password_env", anyValue{&l.imapPassword.env}},
			{"folder", text{dst: &im.Folder}},
			{"processed_folder", text{dst: &im.ProcessedFolder}},
			{"poll_interval", duration{&im.PollInterval, 5 * time.Second, time.Hour}},
			{"idle", flag{&im.IDLE}},
			{"ca_file", text{dst: &im.CAFile}},
			{"insecure_skip_verify", flag{&im.InsecureSkipVerify}},
		}},
		{"smtp", []setting{
			{"address", hostPort{&sm.Address}},
			{"security", choice{&sm.Security, security}},
			{"username", text{dst: &sm.Username}},
			{"auth", choice{&sm.Auth, auth}},
			{"password", anyValue{&l.smtpPassword.value}},
			{"password_env", anyValue{&l.smtpPassword.env}},
			{"retry_min", duration{&sm.RetryMin, time.Second, time.Hour}},
			{"retry_max", duration{&sm.RetryMax, 0, 0}},
			{"give_up", duration{&sm.GiveUp, 0, 0}},
			{"ca_file", text{dst: &sm.CAFile}},
			{"insecure_skip_verify", flag{&sm.InsecureSkipVerify}},
		}},
		{"oauth2", []setting{
			{"token_url", webURL{&o.TokenURL}},
			{"device_auth_url", webURL{&o.DeviceAuthURL}},
			{"client_id", text{dst: &o.ClientID, oneLine: true}},
			{"client_secret", anyValue{&l.clientSecret.value}},
			{"client_secret_env", anyValue{&l.clientSecret.env}},
			{"client_secret_file", anyValue{&l.clientSecret.file}},
			{"refresh_token", anyValue{&l.refreshToken.value}},
			{"refresh_token_env", anyValue{&l.refreshToken.env}},
			{"refresh_token_file", anyValue{&l.refreshToken.file}},
			{"scopes", words{&o.Scopes}},
			{"mechanism", choice{&o.Mechanism, []string{"xoauth2", "oauthbearer"}}},
		}},
	}
}

// decode sets l.cfg from doc, the file decoded. Each value is handed to its
// setting here rather than by the decoder into struct fields, as the decoder
// matches keys to fields whatever their case, where TOML keys are
// case-sensitive, and stops at the first value of the wrong type, where
// every problem is to be reported.
func (l *loader) decode(doc map[string]any) {
	for _, t := range l.tables() {
		v, ok := doc[t.name]
		if !ok {
			continue
		}
		values, ok := v.(map[string]any)
		if !ok {
			l.add(toml.Key{t.name}, "expected a table, written [%s] followed by its keys, not %s", t.name, typeName(v))
			continue
		}
		for _, s := range t.settings {
			if v, ok := values[s.key]; ok {
				if err := s.val.UnmarshalTOML(v); err != nil {
					l.addError(toml.Key{t.name, s.key}, err)
				}
			}
		}
	}
	if _, ok := doc["oauth2"].(map[string]any); ok {
		l.cfg.OAuth2 = l.oauth2
	}
	// The backups' defaults apply only when they are on.
	if b := &l.cfg.Backup; b.Dir != "" {
		if b.Every == 0 {
			b.Every = 24 * time.Hour
		}
		if b.Keep == 0 {
			b.Keep = 7
		}
	}
	// The default of the socket follows the store.
	if st := &l.cfg.Store; st.ControlSocket == "" {
		st.ControlSocket = st.Path + ".sock"
	}
	// So does the embedded servers' mail file.
	if em := &l.cfg.Embedded; em.Path == "" {
		em.Path = l.cfg.Store.Path + ".mail"
	}
}

// unknownKeys reports every key in the file titm does not know, spelt
// exactly. It goes through md.Keys rather than md.Undecoded, which would
// miss keys in the wrong case: decoding a table to a map marks every key in
// it decoded, and decoding to a struct matches keys whatever their case.
func (l *loader) unknownKeys() {
	knownTables := []string{usersKey.String(), languagesKey.String()}
	var knownKeys []string
	for _, t := range l.tables() {
		knownTables = append(knownTables, t.name)
		for _, s := range t.settings {
			knownKeys = append(knownKeys, t.name+"."+s.key)
		}
	}

	keys := l.md.Keys()
	isTable := func(k toml.Key) bool { return l.md.Type(k...) == "Hash" || hasChild(keys, k) }
	known := func(k toml.Key) bool {
		s := k.String()
		if slices.Contains(knownKeys, s) || slices.Contains(knownTables, s) {
			return true
		}
		// Any key is an address in [embedded.users] and
		// [referee.languages]; those are checked as addresses.
		return slices.ContainsFunc(addressTables, func(t toml.Key) bool {
			return len(k) > len(t) && slices.Equal(k[:len(t)], t)
		})
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
				l.add(k, "unknown table; did you mean %s?", s)
			} else if l.md.Type(k...) == "Hash" && !hasChild(keys, k) {
				l.add(k, "unknown table")
			}
			// An unknown table with keys is reported through its keys,
			// which may each have a suggestion.
			continue
		}
		if s := suggest(k, knownKeys); s != "" {
			l.add(k, "unknown key; did you mean %s?", s)
		} else {
			l.add(k, "unknown key")
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
	for _, k := range []string{"password", "director_token", "client_secret", "refresh_token"} {
		if rest, ok := strings.CutPrefix(l, k); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return true
		}
	}
	// Embedded users are written "address" = "password".
	key, _, ok := strings.Cut(l, "=")
	return ok && strings.Contains(key, "@")
}
