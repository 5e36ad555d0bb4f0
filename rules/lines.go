package rules

import (
	"regexp"
	"strings"
)

// A locator finds the lines of tables and keys in a TOML file, so that a
// problem found after decoding can name its line. It understands the layout
// the data files use: [table] and [[array]] headers on lines of their own and
// one key per line.
type locator struct {
	lines   []string
	headers map[string][]int // table name -> 1-based line of each header, in order
}

var headerRE = regexp.MustCompile(`^\[(\[?)\s*([A-Za-z0-9_.\-]+)\s*\]?\]$`)

func newLocator(data []byte) *locator {
	l := &locator{
		lines:   strings.Split(string(data), "\n"),
		headers: map[string][]int{},
	}
	for i, s := range l.lines {
		s = stripComment(s)
		if m := headerRE.FindStringSubmatch(s); m != nil {
			l.headers[m[2]] = append(l.headers[m[2]], i+1)
		}
	}
	return l
}

// stripComment removes a trailing comment that is not inside a string, and
// surrounding space.
func stripComment(s string) string {
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr != 0 && c == '\\' && inStr == '"':
			i++
		case inStr != 0 && c == inStr:
			inStr = 0
		case inStr == 0 && (c == '"' || c == '\''):
			inStr = c
		case inStr == 0 && c == '#':
			return strings.TrimSpace(s[:i])
		}
	}
	return strings.TrimSpace(s)
}

// item returns the line of the i-th (0-based) header of table, or 0.
func (l *locator) item(table string, i int) int {
	if h := l.headers[table]; i < len(h) {
		return h[i]
	}
	return 0
}

// end returns the last line belonging to the table starting at line start:
// the line before the next header.
func (l *locator) end(start int) int {
	for i := start; i < len(l.lines); i++ { // l.lines[i] is line i+1
		if headerRE.MatchString(stripComment(l.lines[i])) {
			return i
		}
	}
	return len(l.lines)
}

// key returns the line of key in the i-th table of that name, or the table's
// header line if the key is not written there. table "" is the top level.
func (l *locator) key(table string, i int, key string) int {
	start := 0
	if table != "" {
		start = l.item(table, i)
		if start == 0 {
			return 0
		}
	}
	if n := l.find(start+1, l.end(start), key); n > 0 {
		return n
	}
	return start
}

// find returns the first line from..to (1-based, inclusive) that assigns key.
func (l *locator) find(from, to int, key string) int {
	for n := from; n <= to && n <= len(l.lines); n++ {
		s := strings.TrimSpace(l.lines[n-1])
		if rest, ok := strings.CutPrefix(s, key); ok {
			if strings.HasPrefix(strings.TrimSpace(rest), "=") {
				return n
			}
		}
	}
	return 0
}

// keyLines returns every line assigning key in any table named table ("" for
// the top level): where an unknown key was written.
func (l *locator) keyLines(table, key string) []int {
	var out []int
	if table == "" {
		if n := l.find(1, l.end(0), key); n > 0 {
			out = append(out, n)
		}
		return out
	}
	for _, h := range l.headers[table] {
		if n := l.find(h+1, l.end(h), key); n > 0 {
			out = append(out, n)
		}
	}
	return out
}
