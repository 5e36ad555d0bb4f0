package daemon

import (
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

// The keys of the secrets: their values must never appear in a message.
var (
	tokenKey        = toml.Key{"referee", "director_token"}
	imapPasswordKey = toml.Key{"imap", "password"}
	smtpPasswordKey = toml.Key{"smtp", "password"}
	clientSecretKey = toml.Key{"oauth2", "client_secret"}
	refreshTokenKey = toml.Key{"oauth2", "refresh_token"}
)

// isSecret reports whether key (in TOML notation) holds a secret.
func isSecret(key string) bool {
	for _, k := range []toml.Key{tokenKey, imapPasswordKey, smtpPasswordKey, clientSecretKey, refreshTokenKey} {
		if k.String() == key {
			return true
		}
	}
	return strings.HasPrefix(key, usersKey.String()+".")
}

// A secret is a password or token. The file gives it under its key or, so
// that the file can be shared, names under the key with "_env" added the
// environment variable that holds it, or, for the secrets of [oauth2], under
// the key with "_file" added the file that holds it.
type secret struct {
	key        toml.Key // such as imap.password
	dst        *string  // the field of the Config it goes into
	value, env any      // the values of the two keys as decoded; nil if not in the file
	// fromFile allows the key with "_file" added; file is its value.
	fromFile bool
	file     any
	// from is the key that gave the secret, once read; nil if neither did.
	from toml.Key
}

// envKey returns the key naming the secret's environment variable.
func (s *secret) envKey() toml.Key { return toml.Key{s.key[0], s.key[1] + "_env"} }

// fileKey returns the key naming the file that holds the secret.
func (s *secret) fileKey() toml.Key { return toml.Key{s.key[0], s.key[1] + "_file"} }

// readSecrets reads every secret, from the file, the environment or a file
// of its own.
func (l *loader) readSecrets(getenv func(string) string) {
	if p, ok := l.refreshToken.file.(string); ok {
		l.oauth2.RefreshTokenFile = p
	}
	for _, s := range []*secret{l.token, l.imapPassword, l.smtpPassword, l.clientSecret, l.refreshToken} {
		if s == l.refreshToken && l.login {
			// titm oauth2 login is run to get it: its file may not be
			// there yet.
			continue
		}
		l.readSecret(s, getenv)
	}
}

// readSecret reads s with getenv if the file names a variable, or from the
// file it names. Messages name the key, the variable or the file, never the
// value.
func (l *loader) readSecret(s *secret, getenv func(string) string) {
	envKey := s.envKey()
	given := 0
	for _, v := range []any{s.value, s.env, s.file} {
		if v != nil {
			given++
		}
	}
	switch {
	case given > 1:
		s.from = envKey
		if s.file != nil {
			s.from = s.fileKey()
		}
		if s.fromFile {
			l.add(s.from, "more than one of %s, %s and %s is set; give the secret in one place only", s.key, envKey, s.fileKey())
		} else {
			l.add(envKey, "%s is set too; give the secret in one place only", s.key)
		}
	case s.file != nil:
		s.from = s.fileKey()
		path, ok := s.file.(string)
		switch {
		case !ok:
			l.addError(s.from, wrongType("the path of a file in quotes", s.file))
		case path == "":
			l.add(s.from, "is empty; expected the path of the file holding the secret")
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				// The error names the path and the cause, not the contents.
				l.add(s.from, "cannot read the secret: %v", err)
				return
			}
			// A file written by an editor or echo ends in a newline,
			// which is no part of the secret.
			*s.dst = strings.TrimSpace(string(data))
			if *s.dst == "" {
				l.add(s.from, "the file %s is empty", path)
			}
		}
	case s.value != nil:
		s.from = s.key
		v, ok := s.value.(string)
		switch {
		case !ok:
			l.addError(s.key, wrongType("a string in quotes", s.value))
		case v == "":
			l.add(s.key, "is empty")
		default:
			*s.dst = v
		}
	case s.env != nil:
		s.from = envKey
		name, ok := s.env.(string)
		switch {
		case !ok:
			l.addError(envKey, wrongType("the name of an environment variable in quotes", s.env))
		case name == "":
			l.add(envKey, "is empty; expected the name of an environment variable, as \"TITM_IMAP_PASSWORD\"")
		default:
			*s.dst = getenv(name)
			if *s.dst == "" {
				l.add(envKey, "environment variable %s is not set or is empty", name)
			}
		}
	}
}
