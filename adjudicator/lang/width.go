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
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		w, size := columns(s, i)
		n += w
		i += size
	}
	return n
}

// columns returns the columns and the bytes of the character at s[i:], a
// kana or a kanji quicker than decode and RuneWidth: a Japanese text is
// measured character by character, every line of every report.
func columns(s string, i int) (w, size int) {
	if c := s[i]; c >= 0xe3 && c <= 0xe9 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 {
		// U+3000 to U+9FFF, never overlong nor a surrogate.
		r := rune(c&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
		if r >= 0x4e00 || r >= 0x3041 && r <= 0x3096 || r >= 0x30a0 && r <= 0x30ff {
			return 2, 3
		}
	}
	r, size := decode(s, i)
	return RuneWidth(r), size
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
// breaks at spaces and, in Japanese text, between two wide characters
// (not before closing punctuation such as 。、」) ), nor after opening
// punctuation such as 「 ( ), as Japanese typesetting does; nor inside a
// word set off for emphasis, as 【除去】, a katakana word, a number and its
// counting word (3戦力), or a short aside in parentheses without spaces,
// as (3個中1個目). A word wider than a line is left
// whole. Within a line the spaces between words are kept as written; at a
// break they are dropped.
func Wrap(s, first, rest string, max int) []string {
	total, ok := fits(first, s, max)
	if ok {
		return []string{first + s}
	}
	var lines []string
	wrap(s, total, first, rest, max, func(prefix, text string) { lines = append(lines, prefix+text) })
	return lines
}

// WrapTo writes the lines Wrap gives to b, each ended by a newline, as a
// report writes them: without making the lines as strings first.
func WrapTo(b *strings.Builder, s, first, rest string, max int) {
	total, ok := fits(first, s, max)
	if ok {
		b.WriteString(first)
		b.WriteString(s)
		b.WriteByte('\n')
		return
	}
	wrap(s, total, first, rest, max, func(prefix, text string) {
		b.WriteString(prefix)
		b.WriteString(text)
		b.WriteByte('\n')
	})
}

// fits reports whether first and s take max columns at most; when they
// do not, it returns the columns of s.
func fits(first, s string, max int) (int, bool) {
	// No character takes more columns than it has bytes.
	if len(first)+len(s) <= max {
		return 0, true
	}
	total := Width(s)
	return total, Width(first)+total <= max
}

// wrap is Wrap's breaking, giving each line to line as its prefix and its
// stretch of s, which is total columns wide.
func wrap(s string, total int, first, rest string, max int, line func(prefix, text string)) {
	// A line is its prefix and a stretch of s from its first piece to its
	// last, with the spaces between them as written.
	prefix, n := first, Width(first)
	from, to := -1, 0 // the stretch of s the line holds; from -1: none yet
	// What is left of s once a line holds it all is placed at once, not
	// piece by piece: used is the columns of s before i, and the spaces at
	// its end, which no line holds, are left out of its end and total.
	end := len(strings.TrimRight(s, " "))
	total -= len(s) - end
	used := 0
	for i := 0; i < end; {
		j := i
		if from < 0 {
			for s[j] == ' ' { // a line begins with no space
				j++
			}
		}
		if n+total-used-(j-i) <= max {
			if from < 0 {
				from = j
			}
			to = end
			break
		}
		start, stop, gap, w, r := nextPiece(s, i)
		used += gap
		i = stop
		if from < 0 {
			gap = 0
		} else if n+gap+w > max {
			line(prefix, s[from:to])
			prefix, n, from, gap = rest, Width(rest), -1, 0
		}
		if from < 0 {
			from = start
		}
		if stop-start == 3 && plain(r) {
			// A run of kanji and hiragana may break between any two: as
			// much of it as the line holds goes in at once, but for its
			// last character, which nextPiece keeps with what may not
			// begin a line after it.
			r, size := decode(s, stop)
			for stop < len(s) && n+gap+w+2 <= max && plain(r) {
				next := stop + size
				if next == len(s) {
					break
				}
				after, asize := decode(s, next)
				if !plain(after) {
					break
				}
				stop, w = next, w+2
				r, size = after, asize
			}
			i = stop
		}
		n += gap + w
		used += w
		to = stop
	}
	if from < 0 {
		line(prefix, "")
		return
	}
	line(prefix, s[from:to])
}

// plain reports whether r is a kanji or a hiragana that a line may begin
// or end with: two columns wide, breakable on either side.
func plain(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF || r >= 0x3041 && r <= 0x3096) && !noBreakBefore(r)
}

// nextPiece finds what Wrap places whole from s[i:] on: a run of narrow
// characters, or one wide character with the punctuation that must stay
// beside it. gap is the spaces before it, kept within a line as written
// ("12  MOVE"); its text is s[start:end], w columns wide, and r its first
// character; start is len(s) when only spaces are left.
func nextPiece(s string, i int) (start, end, gap, w int, first rune) {
	for i < len(s) && s[i] == ' ' {
		gap++
		i++
	}
	if i == len(s) {
		return i, i, gap, 0, 0
	}
	r, size := decode(s, i)
	first = r
	j := i + size
	w = RuneWidth(r)
	switch r {
	case '【':
		// A word set off for emphasis, 【除去】, is never broken.
		if k := strings.IndexRune(s[j:], '】'); k >= 0 && k <= 30 {
			w += Width(s[j : j+k+len("】")])
			j += k + len("】")
			r, _ = utf8.DecodeLastRuneInString(s[i:j])
		}
	case '(', '（':
		// A short aside without spaces, (3個中1個目) or (ドイツ軍), is not
		// broken either: "(3個中" and "1個目)" apart read badly.
		if k := strings.IndexAny(s[j:], " )）"); k >= 0 && s[j+k] != ' ' {
			_, size := utf8.DecodeRuneInString(s[j+k:])
			if gw := Width(s[j : j+k+size]); gw <= maxAside {
				w += gw
				j += k + size
				r, _ = utf8.DecodeLastRuneInString(s[i:j])
			}
		}
	}
	// Opening punctuation stays with what follows it.
	for noBreakAfter(r) && j < len(s) {
		r, size = decode(s, j)
		if r == ' ' {
			break
		}
		j += size
		w += RuneWidth(r)
	}
	if rw := RuneWidth(r); rw != 2 && r != ' ' {
		// A run of narrow characters, "(titm" as well as "titm"; a
		// wide character is a piece alone. Wide closing punctuation
		// ends the run, below: a line may break after it, as in a
		// list of keywords "GAME、TOKEN、IMPULSE".
		last := r
		for j < len(s) {
			r, size := decode(s, j)
			rw := RuneWidth(r)
			if r == ' ' || rw == 2 {
				break
			}
			j += size
			w += rw
			last = r
		}
		// A number keeps the word that counts it: 3戦力, 18日,
		// 1移動力, (3個中1個目) is never broken between 1 and 個目.
		if last >= '0' && last <= '9' {
			k := counter(s, j)
			w += Width(s[j:k])
			j = k
		}
	} else if katakana(r) {
		// A word in katakana, ユニット, ダイス, is not broken.
		for j < len(s) {
			r, size := decode(s, j)
			if !katakana(r) {
				break
			}
			j += size
			w += RuneWidth(r)
		}
	}
	for j < len(s) {
		r, size := decode(s, j)
		if !noBreakBefore(r) {
			break
		}
		j += size
		w += RuneWidth(r)
	}
	return i, j, gap, w, first
}

// maxAside is the widest aside in parentheses nextPiece keeps whole, in
// columns, the closing parenthesis included.
const maxAside = 16

// counter returns the end of the counting word that begins at s[j:]: up to
// three kanji or katakana, as 戦力, 個目, 移動力, ヒット.
func counter(s string, j int) int {
	for n := 0; n < 3 && j < len(s); n++ {
		r, size := decode(s, j)
		if !katakana(r) && !unicode.Is(unicode.Han, r) {
			break
		}
		j += size
	}
	return j
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
