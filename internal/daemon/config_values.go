package daemon

import (
	"errors"
	"fmt"
	"github.com/BurntSushi/toml"
	"maps"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"titm/adjudicator/lang"
	"unicode"

	"titm/adjudicator"
)

// The kinds of setting. Each implements toml.Unmarshaler: it takes the
// key's value as decoded, of whatever TOML type, and either stores it in its
// field of the Config or returns what is wrong with it, leaving the field
// as it was. Messages name types rather than quote values of the wrong
// type, as a key may hold a secret.

// text is a string that must not be empty.
type text struct {
	dst     *string
	oneLine bool // no control characters, for text that goes into headers
}

// UnmarshalTOML implements toml.Unmarshaler.
func (t text) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	switch {
	case !ok:
		return wrongType("a string in quotes", v)
	case strings.TrimSpace(s) == "":
		return errors.New("is empty; give a value, or remove the key")
	case t.oneLine && strings.ContainsFunc(s, unicode.IsControl):
		return errors.New("must be one line with no control characters")
	}
	*t.dst = s
	return nil
}

// flag is true or false.
type flag struct{ dst *bool }

// UnmarshalTOML implements toml.Unmarshaler.
func (f flag) UnmarshalTOML(v any) error {
	b, ok := v.(bool)
	if !ok {
		return wrongType("true or false", v)
	}
	*f.dst = b
	return nil
}

// number is a whole number from lo to hi, such as a size in bytes.
type number[T int | int64] struct {
	dst    *T
	lo, hi T
}

// UnmarshalTOML implements toml.Unmarshaler.
func (n number[T]) UnmarshalTOML(v any) error {
	i, ok := v.(int64)
	switch {
	case !ok:
		return wrongType("a whole number", v)
	case i < int64(n.lo) || i > int64(n.hi):
		return fmt.Errorf("%d is out of range; expected %d to %d", i, n.lo, n.hi)
	}
	*n.dst = T(i)
	return nil
}

// duration is a string for time.ParseDuration, as TOML has no type for
// durations, of at least lo and, if hi is not 0, at most hi.
type duration struct {
	dst    *time.Duration
	lo, hi time.Duration
}

// UnmarshalTOML implements toml.Unmarshaler.
func (d duration) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		switch v.(type) {
		case int64, float64:
			return fmt.Errorf("%v is not a duration; write it in quotes with its unit, as \"72h\" or \"90m\"", v)
		}
		return fmt.Errorf("expected a duration in quotes, as \"72h\" or \"90m\", not %s", typeName(v))
	}
	t, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a duration; write it as 72h or 90m", s)
	case t < 0:
		return fmt.Errorf("%s is negative", s)
	case d.hi > 0 && (t < d.lo || t > d.hi):
		return fmt.Errorf("%s is out of range; expected %s to %s", s, adjudicator.FormatDuration(d.lo), adjudicator.FormatDuration(d.hi))
	case t < d.lo:
		return fmt.Errorf("%s is too short; expected at least %s", s, adjudicator.FormatDuration(d.lo))
	}
	*d.dst = t
	return nil
}

// choice is one of a few strings.
type choice struct {
	dst     *string
	allowed []string
}

// UnmarshalTOML implements toml.Unmarshaler.
func (c choice) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	switch {
	case !ok:
		return wrongType("a string in quotes", v)
	case !slices.Contains(c.allowed, s):
		return fmt.Errorf("%q is not one of %s", s, strings.Join(c.allowed, ", "))
	}
	*c.dst = s
	return nil
}

// mailbox is a bare mail address.
type mailbox struct{ dst *string }

// UnmarshalTOML implements toml.Unmarshaler.
func (m mailbox) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return wrongType("a mail address in quotes", v)
	}
	if err := checkMailAddress(s); err != nil {
		return err
	}
	*m.dst = s
	return nil
}

// checkMailAddress returns what is wrong with a, which must be a bare mail
// address, or nil.
func checkMailAddress(a string) error {
	addr, err := mail.ParseAddress(a)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a mail address; expected one such as \"referee@example.org\"", a)
	case addr.Address != a:
		// A display name here would end up inside headers titm writes.
		return fmt.Errorf("%q is not a bare mail address; write only the address, as %q", a, addr.Address)
	}
	return nil
}

// hostPort is the address of a mail server, as host:port.
type hostPort struct{ dst *string }

// UnmarshalTOML implements toml.Unmarshaler.
func (h hostPort) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return wrongType("host:port in quotes", v)
	}
	if _, err := splitHostPort(s); err != nil {
		return err
	}
	*h.dst = s
	return nil
}

// listenAddress is where an embedded server listens: host:port on a
// loopback address, as the embedded servers take passwords in the clear.
type listenAddress struct{ dst *string }

// UnmarshalTOML implements toml.Unmarshaler. An address that is a string
// but not a good one is kept all the same, so that the check of
// [embedded.users] compares imap.address with what the file says rather
// than with the default.
func (a listenAddress) UnmarshalTOML(v any) error {
	if err := (text{dst: a.dst}).UnmarshalTOML(v); err != nil {
		return err
	}
	host, err := splitHostPort(*a.dst)
	if err != nil {
		return err
	}
	if !isLoopback(host) {
		return fmt.Errorf("%q is not a loopback address; the embedded servers take passwords unencrypted, so they listen only on 127.0.0.1, ::1 or localhost", *a.dst)
	}
	return nil
}

// mailboxes is [embedded.users]: each mailbox of the embedded servers, a
// bare address, with its password, which no message shows.
type mailboxes struct{ dst *map[string]string }

// UnmarshalTOML implements toml.Unmarshaler. The problems it returns are
// each of its mailbox's key.
func (m mailboxes) UnmarshalTOML(v any) error {
	return addressTable(v, usersKey, "password", "expected the mailbox's password as a string in quotes", false, m.dst, func(s string) (string, string) {
		if s == "" {
			return "", "the password is empty"
		}
		return s, ""
	})
}

// languages is [referee.languages]: players' languages by their bare
// addresses, kept in lower case as the referee compares them.
type languages struct{ dst *map[string]string }

// UnmarshalTOML implements toml.Unmarshaler. The problems it returns are
// each of its address's key.
func (l languages) UnmarshalTOML(v any) error {
	return addressTable(v, languagesKey, "language", "expected a language in quotes", true, l.dst, func(s string) (string, string) {
		if !slices.Contains(lang.Codes, s) {
			return "", fmt.Sprintf("%q is not one of %s", s, strings.Join(lang.Codes, ", "))
		}
		return s, ""
	})
}

// addressTable decodes a table whose keys are bare mail addresses and
// whose values are strings, each checked by check (which returns the value
// to keep, or what is wrong), into dst, the addresses in lower case when
// fold is set. what names a value in the table's shape; expected says
// what a value that is not a string should have been. Each problem names
// its address's key; the good entries are kept beside them.
func addressTable(v any, table toml.Key, what, expected string, fold bool, dst *map[string]string, check func(string) (string, string)) error {
	entries, ok := v.(map[string]any)
	if !ok {
		return wrongType(`a table of "address" = "`+what+`"`, v)
	}
	out := map[string]string{}
	given := map[string]string{} // the key each folded address came from
	var errs []error
	// Sorted for the same messages each time; the result puts them in
	// file order.
	for _, addr := range slices.Sorted(maps.Keys(entries)) {
		key := append(slices.Clone(table), addr)
		if err := checkMailAddress(addr); err != nil {
			errs = append(errs, problem{key, err.Error()})
			continue
		}
		s, ok := entries[addr].(string)
		if !ok {
			errs = append(errs, problem{key, expected + ", not " + typeName(entries[addr])})
			continue
		}
		val, bad := check(s)
		if bad != "" {
			errs = append(errs, problem{key, bad})
			continue
		}
		if fold {
			// Addresses are compared in lower case: two keys that differ
			// only in case are one address, given twice.
			if first, ok := given[strings.ToLower(addr)]; ok {
				errs = append(errs, problem{key, fmt.Sprintf("%s is %s again, which differs only in case; give each address once", addr, first)})
				continue
			}
			given[strings.ToLower(addr)] = addr
			addr = strings.ToLower(addr)
		}
		out[addr] = val
	}
	*dst = out
	return errors.Join(errs...)
}

// webURL is the address of an HTTP endpoint, such as an OAuth2 token
// endpoint. Whether it may be http rather than https is checked with the
// other settings (checkOAuth2).
type webURL struct{ dst *string }

// UnmarshalTOML implements toml.Unmarshaler.
func (w webURL) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return wrongType("a URL in quotes", v)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%q is not an https URL, as \"https://login.example.org/token\"", s)
	}
	*w.dst = s
	return nil
}

// words is a list of one or more strings without spaces, such as OAuth2
// scopes.
type words struct{ dst *[]string }

// UnmarshalTOML implements toml.Unmarshaler.
func (w words) UnmarshalTOML(v any) error {
	list, ok := v.([]any)
	if !ok {
		return wrongType(`a list of strings, as ["https://mail.google.com/"]`, v)
	}
	if len(list) == 0 {
		return errors.New("is empty; give at least one")
	}
	out := make([]string, 0, len(list))
	for i, e := range list {
		s, ok := e.(string)
		switch {
		case !ok:
			return fmt.Errorf("item %d: expected a string in quotes, not %s", i+1, typeName(e))
		case s == "" || strings.ContainsFunc(s, unicode.IsSpace):
			return fmt.Errorf("item %d: %q is empty or holds a space; write each item as a string of its own", i+1, s)
		}
		out = append(out, s)
	}
	*w.dst = out
	return nil
}

// anyValue keeps a value of any type, for settings checked once the whole
// file is decoded.
type anyValue struct{ dst *any }

// UnmarshalTOML implements toml.Unmarshaler.
func (a anyValue) UnmarshalTOML(v any) error {
	*a.dst = v
	return nil
}

// wrongType says that a value of want was expected rather than v.
func wrongType(want string, v any) error {
	return fmt.Errorf("expected %s, not %s", want, typeName(v))
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
