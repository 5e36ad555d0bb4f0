package rules

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// TOMLLines tells on which line each table and key of a TOML document is
// written, so that a problem found after decoding can name its line: the
// decoder keeps the lines to itself. It is the one way titm finds them, for
// its data files and for the configuration of titm serve alike.
//
// It reads [table] and [[array]] headers, dotted keys, quoted keys and
// inline tables, wherever the lines break, and skips strings (multi-line
// ones too), arrays and comments. It is meant for documents that decoded
// without error; from other text it finds what it can.
type TOMLLines struct {
	tables []*tableLines            // the top level, then each header in order
	named  map[string][]*tableLines // header name, as toml.Key.String gives it -> its headers in order
}

// locator is the name the checks of the data files (checkmap.go, checkoob.go,
// checkscenario.go, facts.go) give TOMLLines.
type locator = TOMLLines

// tableLines is the part of a document under one header, or before the first.
type tableLines struct {
	key  []string // the header's key; nil for the top level
	line int      // the header's line; 0 for the top level
	keys []keyLine
}

// keyLine is a key written in a table, relative to it: a dotted key or a key
// of an inline table has several parts.
type keyLine struct {
	key  []string
	line int
}

// NewTOMLLines reads the tables and keys of the TOML document data.
func NewTOMLLines(data []byte) *TOMLLines {
	t := &TOMLLines{tables: []*tableLines{{}}, named: map[string][]*tableLines{}}
	s := &scanner{src: string(data), line: 1}
	for {
		s.skipLines()
		if s.done() {
			return t
		}
		start := s.pos
		if s.peek() == '[' {
			t.header(s)
		} else {
			tl := t.tables[len(t.tables)-1]
			s.keyValue(nil, func(key []string, line int) {
				tl.keys = append(tl.keys, keyLine{key, line})
			})
		}
		s.skipBlanks()
		s.skipComment()
		if s.pos == start {
			s.next() // not TOML: go on past it
		}
	}
}

// header reads a [table] or [[array]] header.
func (t *TOMLLines) header(s *scanner) {
	tl := &tableLines{line: s.line}
	s.next()
	if s.peek() == '[' {
		s.next()
	}
	tl.key = s.key()
	for s.peek() == ']' || s.peek() == ' ' || s.peek() == '\t' {
		s.next()
	}
	name := toml.Key(tl.key).String()
	t.tables = append(t.tables, tl)
	t.named[name] = append(t.named[name], tl)
}

// Line returns the line of key, given whole from the top level, as
// {"embedded", "users", "a@example.org"}: the line of its header, or where
// it is assigned, or for a table only implied by others (as [a] is by
// [a.b], or by a.b = 1), the first line inside it. For a key not written,
// Line returns the line of the nearest table holding it, else 0. In an array
// of tables, the first element holding the key counts.
func (t *TOMLLines) Line(key ...string) int {
	for n := len(key); n > 0; n-- {
		if l := t.line(key[:n]); l > 0 {
			return l
		}
	}
	return 0
}

// line returns the line where key is defined, else the first line inside
// it, else 0.
func (t *TOMLLines) line(key []string) int {
	inside := 0
	note := func(full []string, line int) int {
		switch {
		case slices.Equal(full, key):
			return line
		case inside == 0 && len(full) > len(key) && slices.Equal(full[:len(key)], key):
			inside = line
		}
		return 0
	}
	for _, tl := range t.tables {
		if tl.key != nil {
			if l := note(tl.key, tl.line); l > 0 {
				return l
			}
		}
		for _, k := range tl.keys {
			if l := note(append(slices.Clip(tl.key), k.key...), k.line); l > 0 {
				return l
			}
		}
	}
	return inside
}

// Header returns the line of the i-th (0-based) [[name]] or [name] header,
// or 0.
func (t *TOMLLines) Header(name string, i int) int { return t.item(name, i) }

// TOMLError returns the line (0 if it names none) and the message of an
// error of toml.Decode, as a problem of the file says them: "not valid
// TOML: ..." for text that does not parse, "wrong kind of value: ..." for a
// value the type it is decoded into cannot take.
func TOMLError(err error) (line int, msg string) {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		if pe.LastKey != "" {
			msg = fmt.Sprintf("%s (at key %q)", msg, pe.LastKey)
		}
		return pe.Position.Line, "not valid TOML: " + msg
	}
	// The decoder's type errors give their line only in their text.
	if m := errLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	msg = strings.TrimPrefix(errLineRE.ReplaceAllString(err.Error(), ""), "toml: ")
	return line, "wrong kind of value: " + strings.TrimSpace(msg)
}

var errLineRE = regexp.MustCompile(`line (\d+)`)

// headerLines returns the line of each header named name, in order.
func (t *TOMLLines) headerLines(name string) []int {
	var out []int
	for _, tl := range t.named[name] {
		out = append(out, tl.line)
	}
	return out
}

// table returns the i-th (0-based) table named name, "" being the top
// level, or nil.
func (t *TOMLLines) table(name string, i int) *tableLines {
	if name == "" {
		return t.tables[0]
	}
	if tls := t.named[name]; i < len(tls) {
		return tls[i]
	}
	return nil
}

// item returns the line of the i-th (0-based) header of table, or 0.
func (t *TOMLLines) item(table string, i int) int {
	if tl := t.table(table, i); tl != nil {
		return tl.line
	}
	return 0
}

// key returns the line of key in the i-th table of that name, or the table's
// header line if the key is not written there. table "" is the top level.
func (t *TOMLLines) key(table string, i int, key string) int {
	tl := t.table(table, i)
	if tl == nil {
		return 0
	}
	if n := tl.find(key); n > 0 {
		return n
	}
	return tl.line
}

// keyLines returns every line assigning key in any table named table ("" for
// the top level): where an unknown key was written.
func (t *TOMLLines) keyLines(table, key string) []int {
	tls := t.named[table]
	if table == "" {
		tls = t.tables[:1]
	}
	var out []int
	for _, tl := range tls {
		if n := tl.find(key); n > 0 {
			out = append(out, n)
		}
	}
	return out
}

// find returns the line of the first key written as key (in
// toml.Key.String form) in the table, or 0.
func (tl *tableLines) find(key string) int {
	for _, k := range tl.keys {
		if toml.Key(k.key).String() == key {
			return k.line
		}
	}
	return 0
}

// scanner reads a TOML document byte by byte, counting lines.
type scanner struct {
	src  string
	pos  int
	line int // the line of src[pos], from 1
}

func (s *scanner) done() bool { return s.pos >= len(s.src) }

// peek returns the byte at the position, 0 at the end.
func (s *scanner) peek() byte {
	if s.done() {
		return 0
	}
	return s.src[s.pos]
}

func (s *scanner) next() {
	if s.done() {
		return
	}
	if s.src[s.pos] == '\n' {
		s.line++
	}
	s.pos++
}

// skipBlanks skips spaces and tabs.
func (s *scanner) skipBlanks() {
	for s.peek() == ' ' || s.peek() == '\t' {
		s.next()
	}
}

// skipComment skips a comment up to the end of its line.
func (s *scanner) skipComment() {
	if s.peek() != '#' {
		return
	}
	for !s.done() && s.peek() != '\n' {
		s.next()
	}
}

// skipLines skips blanks, comments and line ends.
func (s *scanner) skipLines() {
	for {
		s.skipBlanks()
		s.skipComment()
		if c := s.peek(); c != '\n' && c != '\r' {
			return
		}
		s.next()
	}
}

// key reads a key, dotted or not, and the blanks around it.
func (s *scanner) key() []string {
	var parts []string
	for {
		s.skipBlanks()
		switch s.peek() {
		case '"':
			parts = append(parts, unquote(s.basicString()))
		case '\'':
			parts = append(parts, s.literalString())
		default:
			start := s.pos
			for !s.done() && isBare(s.peek()) {
				s.next()
			}
			if s.pos == start {
				return parts
			}
			parts = append(parts, s.src[start:s.pos])
		}
		s.skipBlanks()
		if s.peek() != '.' {
			return parts
		}
		s.next()
	}
}

// isBare reports whether c may be part of a bare key. Bytes of UTF-8
// sequences are let in too, as some TOML versions allow letters in bare keys.
func isBare(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c >= 0x80
}

// keyValue reads key = value, reporting to found the key, with prefix
// before it, and every key of an inline table in the value.
func (s *scanner) keyValue(prefix []string, found func(key []string, line int)) {
	line := s.line
	parts := s.key()
	if len(parts) == 0 {
		return
	}
	key := append(slices.Clip(prefix), parts...)
	found(key, line)
	if s.peek() != '=' {
		return
	}
	s.next()
	s.skipBlanks()
	s.value(key, found)
}

// value skips a value. The keys of an inline table, which lie under key,
// go to found; those of tables inside arrays are not looked for.
func (s *scanner) value(key []string, found func(key []string, line int)) {
	switch rest := s.src[s.pos:]; {
	case len(rest) >= 3 && rest[:3] == `"""`:
		s.multiline('"')
	case len(rest) >= 3 && rest[:3] == `'''`:
		s.multiline('\'')
	case s.peek() == '"':
		s.basicString()
	case s.peek() == '\'':
		s.literalString()
	case s.peek() == '[':
		s.list('[', ']', func() { s.value(nil, func([]string, int) {}) })
	case s.peek() == '{':
		s.list('{', '}', func() { s.keyValue(key, found) })
	default:
		// A number, a boolean or a date, which may hold a space.
		for c := s.peek(); !s.done() && c != ',' && c != ']' && c != '}' && c != '\n' && c != '#'; c = s.peek() {
			s.next()
		}
	}
}

// list reads an array or an inline table, from open to close, reading each
// element with item.
func (s *scanner) list(open, close byte, item func()) {
	s.next() // open
	for !s.done() {
		s.skipLines()
		switch s.peek() {
		case close:
			s.next()
			return
		case ',':
			s.next()
		default:
			start := s.pos
			item()
			if s.pos == start {
				s.next() // not TOML: go on past it
			}
		}
	}
}

// basicString reads a "string" and returns it as written, escapes and all.
func (s *scanner) basicString() string {
	s.next()
	start := s.pos
	for !s.done() && s.peek() != '"' && s.peek() != '\n' {
		if s.peek() == '\\' {
			s.next()
		}
		s.next()
	}
	text := s.src[start:s.pos]
	if s.peek() == '"' {
		s.next()
	}
	return text
}

// literalString reads a 'string' and returns it.
func (s *scanner) literalString() string {
	s.next()
	start := s.pos
	for !s.done() && s.peek() != '\'' && s.peek() != '\n' {
		s.next()
	}
	text := s.src[start:s.pos]
	if s.peek() == '\'' {
		s.next()
	}
	return text
}

// multiline skips a string between three quotes q, which may end with up to
// two more quotes that belong to the string.
func (s *scanner) multiline(q byte) {
	closing := string([]byte{q, q, q})
	s.pos += 3
	for !s.done() {
		if q == '"' && s.peek() == '\\' {
			s.next()
			s.next()
			continue
		}
		if len(s.src)-s.pos >= 3 && s.src[s.pos:s.pos+3] == closing {
			s.pos += 3
			for i := 0; i < 2 && s.peek() == q; i++ {
				s.next()
			}
			return
		}
		s.next()
	}
}

// unquote returns the key a basic string spells, escapes replaced; the text
// as written if it cannot.
func unquote(text string) string {
	if u, err := strconv.Unquote(`"` + text + `"`); err == nil {
		return u
	}
	return text
}
