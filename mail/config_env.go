package mail

import (
	"strings"

	"github.com/BurntSushi/toml"
)

// The keys of the secrets: their values must never appear in a message.
var (
	tokenKey        = toml.Key{"referee", "director_token"}
	imapPasswordKey = toml.Key{"imap", "password"}
	smtpPasswordKey = toml.Key{"smtp", "password"}
)

// isSecret reports whether key (in TOML notation) holds a secret.
func isSecret(key string) bool {
	for _, k := range []toml.Key{tokenKey, imapPasswordKey, smtpPasswordKey} {
		if k.String() == key {
			return true
		}
	}
	return strings.HasPrefix(key, usersKey.String()+".")
}

// A secret is a password or token. The file gives it under its key or, so
// that the file can be shared, names under the key with "_env" added the
// environment variable that holds it.
type secret struct {
	key        toml.Key // such as imap.password
	dst        *string  // the field of the Config it goes into
	value, env any      // the values of the two keys as decoded; nil if not in the file
	// from is the key that gave the secret, once read; nil if neither did.
	from toml.Key
}

// envKey returns the key naming the secret's environment variable.
func (s *secret) envKey() toml.Key { return toml.Key{s.key[0], s.key[1] + "_env"} }

// readSecrets reads every secret, from the file or the environment.
func (l *loader) readSecrets(getenv func(string) string) {
	for _, s := range []*secret{l.token, l.imapPassword, l.smtpPassword} {
		l.readSecret(s, getenv)
	}
}

// readSecret reads s with getenv if the file names a variable. Messages
// name the key or the variable, never the value.
func (l *loader) readSecret(s *secret, getenv func(string) string) {
	envKey := s.envKey()
	switch {
	case s.value != nil && s.env != nil:
		s.from = envKey
		l.add(envKey, "%s is set too; give the secret in one place only", s.key)
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
