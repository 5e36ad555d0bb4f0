package lang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Width returns the columns s takes in a fixed-width font: a Japanese
// character (East Asian wide or full-width) two, a combining mark none,
// any other character one. The 80-column reports are laid out by it.
func Width(s string) int {
	n, _ := measure(s)
	return n
}

// decode is utf8.DecodeRuneInString(s[i:]), quicker for the 3-byte
// characters of a Japanese text: the wrapping decodes every character of
// every line of a report.
func decode(s string, i int) (rune, int) {
	if i >= len(s) {
		return utf8.RuneError, 0
	} else if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	} else if c&0xf0 == 0xe0 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 {
		r := rune(c&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
		if r >= 0x800 && (r < 0xd800 || r > 0xdfff) { // not overlong, not a surrogate
			return r, 3
		}
	}
	return utf8.DecodeRuneInString(s[i:])
}

// RuneWidth returns the columns r takes: 0, 1 or 2.
func RuneWidth(r rune) int {
	if r < utf8.RuneSelf {
		return 1
	}
	// The kana, the kanji and the CJK punctuation, most of a Japanese
	// text, without the tables.
	switch {
	case r >= 0x3000 && r <= 0x3029, r >= 0x3041 && r <= 0x3096, r >= 0x30A0 && r <= 0x30FF, r >= 0x4E00 && r <= 0x9FFF,
		r >= 0xFF01 && r <= 0xFF60: // and the full-width forms, （）：
		return 2
	case r == '→' || r == '—' || r == '×':
		return 1 // the arrows and dashes of the reports, narrow
	}
	if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Pad returns s followed by spaces to n columns, for the columns of a
// table; s when it is as wide already.
func Pad(s string, n int) string {
	if w := Width(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// PadLeft returns s after spaces to n columns.
func PadLeft(s string, n int) string {
	if w := Width(s); w < n {
		return strings.Repeat(" ", n-w) + s
	}
	return s
}

// Wrap breaks s into lines of at most max columns, the first begun with
// first and the others with rest, so that a list item keeps its indent. It
// breaks at spaces and, in Japanese text, between two phrases (see
// nextPhrase): never inside a word, between a word and its okurigana or
// particle (進入します, 除去された), a number and its counting word (3戦力),
// a name and its number (Betzdorf (5)), inside a word set off for
// emphasis (【除去】) or a short aside in parentheses ((3個中1個目)); never
// before closing punctuation such as 。、」) nor after opening punctuation
// such as 「 (, as Japanese typesetting does. A phrase wider than a line is
// broken between its atoms, and a run of kanji or hiragana wider than a
// line between its characters; a Latin word wider than a line is left
// whole. A text without Japanese breaks at its spaces alone. Within a line
// the spaces between words are kept as written, but those after 。 and 、;
// at a break they are dropped.
func Wrap(s, first, rest string, max int) []string {
	return wrapLines(s, first, rest, max, true)
}

// wrapLines is Wrap. With atOnce, what comes before the last sure
// beginning of a phrase near a line's end is placed at once
// (marks.reach); without, every phrase of the line is read, as a test
// compares: the lines must be the same.
func wrapLines(s, first, rest string, max int, atOnce bool) []string {
	var m marks
	s, total, ok := m.fits(first, s, max)
	if ok {
		return []string{first + s}
	}
	var lines []string
	wrap(s, total, &m, first, rest, max, atOnce, func(prefix, text string) { lines = append(lines, prefix+text) })
	return lines
}

// WrapTo writes the lines Wrap gives to b, each ended by a newline, as a
// report writes them: without making the lines as strings first.
func WrapTo(b *strings.Builder, s, first, rest string, max int) {
	var m marks
	s, total, ok := m.fits(first, s, max)
	if ok {
		b.WriteString(first)
		b.WriteString(s)
		b.WriteByte('\n')
		return
	}
	wrap(s, total, &m, first, rest, max, true, func(prefix, text string) {
		b.WriteString(prefix)
		b.WriteString(text)
		b.WriteByte('\n')
	})
}

// fits returns s tidied (see the function tidy) and reports whether first
// and it take max columns at most; when they do not, it returns the
// columns of s, and m marks s for wrap.
func (m *marks) fits(first, s string, max int) (string, int, bool) {
	// No character takes more columns than it has bytes, and tidy only
	// drops spaces.
	if len(first)+len(s) <= max {
		return tidy(s), 0, true
	}
	total, messy := m.measure(s)
	if messy {
		s = tidy(s)
		total, _ = m.measure(s)
	}
	return s, total, Width(first)+total <= max
}

// measure returns the columns of s and whether a space follows 。 or 、
// in it, as untidy does: one reading of a text too long to fit by its
// bytes, rather than two. A character takes no more columns than it has
// bytes: n starts at the bytes of s, and ASCII, most of every report, is
// passed over; a kana or kanji, three bytes, takes one column less, read
// without a call.
func measure(s string) (n int, messy bool) {
	n = len(s)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		if c-0xe3 <= 0xe9-0xe3 && i+2 < len(s) && wide3(c, s[i+1], s[i+2]) {
			n--
			i += 3
			continue
		}
		r, size := decode(s, i)
		n += RuneWidth(r) - size
		i += size
		if (r == '。' || r == '、') && i < len(s) && s[i] == ' ' {
			messy = true
		}
	}
	return n, messy
}

// wide3 reports whether c, c1 and c2, c from E3 to E9, are a kana or a
// kanji: U+3000 to U+9FFF, never overlong nor a surrogate; from E5 on
// every character is a kanji.
func wide3(c, c1, c2 byte) bool {
	if c1&0xc0 != 0x80 || c2&0xc0 != 0x80 {
		return false
	}
	if c > 0xe4 {
		return true
	}
	r := rune(c&0x0f)<<12 | rune(c1&0x3f)<<6 | rune(c2&0x3f)
	return r >= 0x4e00 || r >= 0x3041 && r <= 0x3096 || r >= 0x30a0 && r <= 0x30ff
}

// wrap is Wrap's breaking, giving each line to line as its prefix and its
// stretch of s, which is total columns wide; atOnce as for wrapLines.
func wrap(s string, total int, m *marks, first, rest string, max int, atOnce bool, line func(prefix, text string)) {
	// What is left of s once a line holds it all is placed at once, not
	// phrase by phrase: used is the columns of s before i. The spaces at
	// its end, which no line holds, are left out of s and total.
	end := len(strings.TrimRight(s, " "))
	total -= len(s) - end
	s = s[:end]
	ja := japanese(s)
	// line is no field of the liner: with the strings it gives it, it would
	// escape to the heap, a closure allocated for every text wrapped.
	l := liner{s: s, max: max, rest: rest, restW: Width(rest), prefix: first, n: Width(first), from: -1}
	used, reached := 0, -1
	var ahead atom
	for i := 0; i < len(s); {
		j := i
		if l.from < 0 {
			for s[j] == ' ' { // a line begins with no space
				j++
			}
		}
		if l.n+total-used-(j-i) <= max {
			if l.from < 0 {
				l.from = j
			}
			l.to = len(s)
			break
		}
		if ja && atOnce && l.from >= 0 && l.from != reached {
			// What fits on the line before the last place near its end
			// where a phrase surely begins is placed at once, once a line.
			reached = l.from
			if q, w := m.reach(s, i, used, max-l.n, &ahead); q > i {
				used += w
				l.n += w
				l.to = q
				i = q
			}
		}
		start, stop, gap, w := nextPhrase(s, i, ja, &ahead)
		used += gap + w
		i = stop
		if room := l.n + gap; l.from < 0 && l.n+w > max || l.from >= 0 && room+w > max && l.restW+w > max {
			// Too wide for a line of its own: broken, as a last resort,
			// between its atoms.
			l.split(line, start, stop, gap)
			continue
		}
		l.add(line, start, stop, gap, w)
	}
	if l.from < 0 {
		line(l.prefix, "")
		return
	}
	line(l.prefix, s[l.from:l.to])
}

// A liner makes the lines of wrap: the line so far is prefix, n columns
// wide with it, and s[from:to] (from -1: nothing of s yet).
type liner struct {
	s           string
	max         int
	rest        string // the prefix of every line but the first
	restW       int    // its columns
	prefix      string
	n, from, to int
}

// add places s[start:end], w columns wide after gap spaces, on the line,
// or gives the line to line and begins a new one with it when the line
// has no room for it.
func (l *liner) add(line func(prefix, text string), start, end, gap, w int) {
	if l.from >= 0 && l.n+gap+w > l.max {
		line(l.prefix, l.s[l.from:l.to])
		l.prefix, l.n, l.from = l.rest, l.restW, -1
	}
	if l.from < 0 {
		gap, l.from = 0, start
	}
	l.n += gap + w
	l.to = end
}

// split places the phrase s[start:end], after gap spaces, atom by atom;
// a run of kanji or hiragana wider than a line, character by character,
// but for punctuation that may not begin or end a line.
func (l *liner) split(line func(prefix, text string), start, end, gap int) {
	for k := start; k < end; {
		var a atom
		a.read(l.s, k)
		if l.restW+a.w <= l.max || a.kind != kindKanji && a.kind != kindHiragana {
			l.add(line, a.start, a.end, gap, a.w)
		} else {
			for c := a.start; c < a.end; {
				r, size := decode(l.s, c)
				next, w := c+size, RuneWidth(r)
				for next < a.end {
					r2, size := decode(l.s, next)
					if !noBreakBefore(r2) && !noBreakAfter(r) {
						break
					}
					r, next, w = r2, next+size, w+RuneWidth(r2)
				}
				l.add(line, c, next, gap, w)
				c, gap = next, 0
			}
		}
		for k, gap = a.end, 0; k < end && l.s[k] == ' '; k++ {
			gap++
		}
	}
}

// maxAside is the widest aside in parentheses kept whole, in columns, the
// closing parenthesis included: (自動車化, 2戦力).
const maxAside = 18

// counter returns the end of the counting word that begins at s[j:], its
// columns and its last character: up to three kanji, as 戦力, 個目, 移動力,
// or a word in katakana, as ヒット. Every kanji and katakana takes two
// columns.
func counter(s string, j int) (end, w int, last rune) {
	// A counting word is kana or kanji, three bytes each: most numbers
	// stand before a space or a Latin word.
	r, ok := decode3(s, j)
	if ok && katakana(r) {
		for ok && katakana(r) {
			j, w, last = j+3, w+2, r
			r, ok = decode3(s, j)
		}
		return j, w, last
	}
	for n := 0; n < 3 && ok && kanji(r); n++ {
		j, w, last = j+3, w+2, r
		r, ok = decode3(s, j)
	}
	return j, w, last
}

// kanji reports whether r is a kanji, as kindOf tells it.
func kanji(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r == '々' || r == '〆' || r >= 0x3400 && r <= 0x4DBF
}

// katakana reports whether r is a katakana letter or the long-vowel mark.
func katakana(r rune) bool { return r >= 'ァ' && r <= 'ヺ' || r == 'ー' }

// noBreakBefore: a line may not begin with r (kinsoku), nor with a small
// kana (ッ, ャ, ぁ ...), which ends the sound before it: "ユニ|ット" is not
// broken there. A switch, as it is asked of every character wrapped.
func noBreakBefore(r rune) bool {
	switch r {
	case ',', '.', ':', ';', '!', '?', ')', ']', '}', '%',
		'、', '。', '，', '．', '・', '：', '；', '？', '！', 'ー', '）', '」', '』', '】', '〕', '〉', '》', '”', '’',
		'ぁ', 'ぃ', 'ぅ', 'ぇ', 'ぉ', 'っ', 'ゃ', 'ゅ', 'ょ', 'ゎ', 'ゕ', 'ゖ',
		'ァ', 'ィ', 'ゥ', 'ェ', 'ォ', 'ッ', 'ャ', 'ュ', 'ョ', 'ヮ', 'ヵ', 'ヶ':
		return true
	}
	return r >= 'ㇰ' && r <= 'ㇿ' // the small katakana of Ainu, likewise
}

// noBreakAfter: a line may not end with r.
func noBreakAfter(r rune) bool {
	switch r {
	case '(', '[', '{', '（', '「', '『', '【', '〔', '〈', '《', '“', '‘':
		return true
	}
	return false
}

// Width is lang.Width as a method, for the texts of package rules (HELP),
// which lay them out through their Printer and cannot import this package.
func (p *Printer) Width(s string) int { return Width(s) }

// Wrap is lang.Wrap as a method, likewise.
func (p *Printer) Wrap(s, first, rest string, max int) []string { return Wrap(s, first, rest, max) }

// Indent indents each line of s by two spaces, as a quoted block of a
// player's text is shown, and ends it with one line end.
func Indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}
