package lang

import (
	"strings"
	"unicode/utf8"
)

// Japanese is written without spaces; a line of it may break between two
// phrases (文節: a word with the particles and endings that follow it, as
// 橋梁を, 除去されます, 3戦力で), never inside one. The texts here are the
// catalogs' and the reports', terse and regular, so a phrase is found by
// the kind of its characters, as BudouX finds it by a model:
//
//   - a run of kanji, a run of katakana (ユニット), a number with its
//     counting word (3戦力, 12月), a word in 【】 and a short aside in
//     parentheses are never broken: they are atoms;
//   - what follows an atom without a space belongs to its phrase: the
//     hiragana after a kanji or katakana (its okurigana, or its particle:
//     進入します, ユニットは), a kanji after a katakana (ドイツ軍), a
//     katakana after a kanji (敵ユニット), closing punctuation;
//   - a phrase ends after a run of hiragana followed by a kanji, a
//     katakana, a number or a Latin word (橋梁を|爆破), but for a lone
//     kana between kanji that is no particle (見出し行, 引き分け) and the
//     honorific ご and お (ご確認); after 、。 and the other closing
//     punctuation; before opening punctuation;
//   - a space parts phrases, but not a Latin word from the particle after
//     it (Bastogne で), a name from its number in parentheses
//     (Betzdorf (5)), an area's number from its name (4 Luxembourg), or a
//     number from the word it qualifies (-1 攻撃側), nor an arrow from
//     either side (3 → 2戦力).

// An atom is what a phrase is made of and a line never breaks inside,
// unless it is a run of kanji or hiragana wider than a whole line.
type atom struct {
	start, end  int  // its bytes in the text
	w           int  // its columns
	first, last rune // its first character, and its last but closing punctuation
	kind        byte // the kind of its first character: see kindOf
	n           int  // the characters of its run, for a run of kana or kanji
}

// The kinds of characters, and of atoms.
const (
	kindNarrow   byte = iota // Latin letters, digits, ASCII punctuation
	kindKanji                // a kanji, 々
	kindHiragana             // a hiragana, small kana among them
	kindKatakana             // a katakana, its small letters, the long-vowel mark
	kindWide                 // other wide characters: punctuation, full-width forms
)

// kindOf returns the kind of r.
func kindOf(r rune) byte {
	switch {
	case r < utf8.RuneSelf:
		return kindNarrow
	case kanji(r):
		return kindKanji
	case r >= 0x3041 && r <= 0x3096:
		return kindHiragana
	case katakana(r):
		return kindKatakana
	case RuneWidth(r) == 2:
		return kindWide
	}
	return kindNarrow
}

// char returns the character at s[i], i within s, its bytes, its
// columns and its kind: decode, RuneWidth and kindOf at once, quicker for
// the kana and kanji that most of a Japanese text is, read character by
// character as it is broken into phrases.
func char(s string, i int) (r rune, size, w int, kind byte) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1, 1, kindNarrow
	}
	return wideChar(s, i)
}

// wideChar is char for a character beyond ASCII.
func wideChar(s string, i int) (r rune, size, w int, kind byte) {
	if c := s[i]; c >= 0xe3 && c <= 0xe9 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 {
		// U+3000 to U+9FFF, never overlong nor a surrogate.
		r = rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
		switch {
		case r >= 0x4e00:
			return r, 3, 2, kindKanji
		case r >= 0x3041 && r <= 0x3096:
			return r, 3, 2, kindHiragana
		case r >= 'ァ' && r <= 'ヺ' || r == 'ー':
			return r, 3, 2, kindKatakana
		}
	}
	r, size = decode(s, i)
	return r, size, RuneWidth(r), kindOf(r)
}

// decode3 decodes the character of three bytes from E3 to E9 at s[i]:
// U+3000 to U+9FFF, never overlong nor a surrogate, most of a Japanese
// text; false for any other. It is small enough to be inlined.
func decode3(s string, i int) (rune, bool) {
	if i+2 < len(s) && s[i]-0xe3 <= 0xe9-0xe3 && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 {
		return rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f), true
	}
	return 0, false
}

// read reads the atom that begins at s[i], which is no space, into a.
// It fills a in place, and notes each atom's last character as it
// reads it: a phrase is read atom by atom, every line of every report.
func (a *atom) read(s string, i int) {
	var r rune
	var size, w int
	var kind byte
	if c := s[i]; c < utf8.RuneSelf {
		r, size, w, kind = rune(c), 1, 1, kindNarrow // char, without its call
	} else {
		r, size, w, kind = wideChar(s, i)
	}
	// Field by field: a composite literal is built aside and copied.
	a.start, a.end, a.w, a.first, a.last, a.kind, a.n = i, i+size, w, r, r, kind, 1
	switch {
	case r == '【' || r == '(' || r == '（':
		a.aside(s)
	case noBreakAfter(r):
		// Opening punctuation stays with what follows it.
		if a.end < len(s) && s[a.end] != ' ' {
			w := a.w
			a.read(s, a.end)
			a.start, a.w, a.first = i, a.w+w, r
			return
		}
	case a.kind == kindNarrow:
		a.end, a.w, a.last = narrowRun(s, a.end, a.w, r)
	case a.kind != kindWide:
		a.end, a.w, a.n, a.last = run(s, a.end, a.w, a.kind, r)
	}
	for a.end < len(s) {
		if c := s[a.end]; c < utf8.RuneSelf {
			if c == ' ' || !noBreakBefore(rune(c)) {
				break
			}
			a.end++
			a.w++
			a.last = rune(c)
			continue
		}
		// A kana or kanji is read in place: most atoms end before one.
		r, ok := decode3(s, a.end)
		size := 3
		if !ok {
			r, size = decode(s, a.end)
		}
		if !noBreakBefore(r) {
			break
		}
		a.end += size
		a.w += RuneWidth(r)
		a.last = r
	}
}

// aside reads a word set off for emphasis, 【除去】, or a short aside in
// parentheses, (3個中1個目), (5) or (工兵, 2戦力), into a whole; "(3個中" and
// "1個目)" apart read badly. An aside with a space in it and no Japanese,
// (as 51-70), is none: English breaks at its spaces.
func (a *atom) aside(s string) {
	j := a.end
	end, w, last := asideEnd(s, j, a.first)
	if end < 0 {
		if a.first != '【' && j < len(s) && s[j] != ' ' {
			// An opening parenthesis alone stays with what follows it.
			var b atom
			b.read(s, j)
			a.end, a.w, a.last, a.kind, a.n = b.end, a.w+b.w, b.last, b.kind, b.n
		}
		return
	}
	a.end, a.w, a.last = end, a.w+w, last
}

// asideEnd returns the end of the aside opened by r, which ends at s[j],
// the columns and the last character of what follows r to it, or an end
// of -1 when there is none.
func asideEnd(s string, j int, r rune) (end, w int, last rune) {
	if r == '【' {
		k := strings.Index(s[j:min(len(s), j+30+len("】"))], "】")
		if k < 0 {
			return -1, 0, 0
		}
		end = j + k + len("】")
		return end, Width(s[j:end]), '】'
	}
	// The first closing parenthesis within 3*maxAside bytes, read in one
	// pass: none, an opening one before it, a space in an aside without
	// Japanese, or more than maxAside columns, and it is no aside.
	near := s[j:min(len(s), j+3*maxAside)]
	space, ja := false, false
	for k := 0; k < len(near); {
		c, size, cw := rune(near[k]), 1, 1
		if c >= utf8.RuneSelf {
			c, size, cw, _ = wideChar(near, k)
		}
		switch {
		case c == ')' || c == '）':
			if space && !ja || w+cw > maxAside {
				return -1, 0, 0
			}
			return j + k + size, w + cw, c
		case c == '(' || c == '（':
			return -1, 0, 0
		case c == ' ':
			space = true
		case near[k] >= 0xe3 && near[k] <= 0xef:
			ja = true
		}
		if w += cw; w > maxAside {
			return -1, 0, 0
		}
		k += size
	}
	return -1, 0, 0
}

// narrowRun reads on a run of narrow characters from s[j], w columns so
// far and last its last character: "(titm" as well as "titm". A number
// keeps the word that counts it: 3戦力, 18日, 1移動力.
func narrowRun(s string, j, w int, last rune) (int, int, rune) {
	for j < len(s) {
		c := s[j]
		if c == ' ' {
			break
		}
		if c < utf8.RuneSelf {
			j++
			w++
			last = rune(c)
			continue
		}
		r, size := decode(s, j)
		rw := RuneWidth(r)
		if rw == 2 {
			break
		}
		j += size
		w += rw
		last = r
	}
	if last >= '0' && last <= '9' {
		if k, cw, r := counter(s, j); k > j {
			w += cw
			last = r
			j = k
		}
	}
	return j, w, last
}

// run reads on a run of characters of kind k from s[j], w columns and one
// character, last, so far, and returns its end, columns, characters and
// last character.
func run(s string, j, w int, k byte, last rune) (int, int, int, rune) {
	n := 1
	for j+2 < len(s) {
		// Every kanji and kana is three bytes from E3 to E9 (U+3000 to
		// U+9FFF), read here without a call: most of a Japanese text.
		c := s[j]
		if c < 0xe3 || c > 0xe9 || s[j+1]&0xc0 != 0x80 || s[j+2]&0xc0 != 0x80 {
			break
		}
		r := rune(c&0x0f)<<12 | rune(s[j+1]&0x3f)<<6 | rune(s[j+2]&0x3f)
		var kind byte
		switch {
		case r >= 0x4e00:
			kind = kindKanji
		case r >= 0x3041 && r <= 0x3096:
			kind = kindHiragana
		case r >= 'ァ' && r <= 'ヺ' || r == 'ー':
			kind = kindKatakana
		default:
			kind = kindOf(r)
		}
		if kind != k {
			return j, w, n, last
		}
		j += 3
		w += 2
		n++
		last = r
	}
	for j < len(s) {
		r, size, _, kind := char(s, j)
		if kind != k {
			break
		}
		j += size
		w += 2 // every kanji and kana
		n++
		last = r
	}
	return j, w, n, last
}

// closing reports whether r is punctuation after which a phrase ends.
func closing(r rune) bool {
	switch r {
	case '、', '。', '，', '．', '：', '；', '！', '？', '」', '』', '】', '）', '〕', '〉', '》',
		')', ']', ',', ':', ';', '!', '?', '・':
		return true
	}
	return false
}

// stop reports whether r ends a sentence or a clause: after it even a
// hiragana may begin a line.
func stop(r rune) bool {
	switch r {
	case '、', '。', '，', '．', '：', '；', '！', '？', ':', ';', '!', '?':
		return true
	}
	return false
}

// particle reports whether a lone hiragana r is a particle, after which a
// phrase may end even between kanji: 軍の攻撃, 時に獲得.
func particle(r rune) bool {
	switch r {
	case 'の', 'は', 'が', 'を', 'に', 'で', 'と', 'へ', 'も', 'や', 'か':
		return true
	}
	return false
}

// breaksBetween reports whether a line may break between atoms a and b,
// which meet without a space; before is the kind of the atom before a,
// or narrow.
func breaksBetween(a, b *atom, before byte) bool {
	if closing(a.last) {
		return b.kind != kindHiragana || stop(a.last)
	}
	if noBreakAfter(a.last) {
		return false
	}
	if noBreakAfter(b.first) {
		return true
	}
	if a.kind != kindHiragana || b.kind == kindHiragana || b.kind == kindWide {
		return false
	}
	switch {
	case a.last == 'ご' || a.last == 'お':
		return b.kind != kindKanji // ご確認, お願い
	case a.n == 1 && before == kindKanji && b.kind == kindKanji:
		return particle(a.last) // 軍の攻撃, but 見出し行
	}
	return true
}

// joinsAcross reports whether the atoms a and b, between which are spaces,
// are one phrase all the same.
func joinsAcross(s string, a, b *atom) bool {
	if join, sure := joinsAfter(s, a.last, a.kind, b); sure {
		return join
	}
	return digits(s[a.start:a.end]) // 4 Luxembourg
}

// joinsAfter is joinsAcross told by the last character and the kind of a
// alone; sure is false when it takes a's text: whether a, a Latin word, is
// a number before a capitalised name (4 Luxembourg).
func joinsAfter(s string, last rune, kind byte, b *atom) (join, sure bool) {
	switch {
	case b.kind == kindHiragana, noBreakBefore(b.first):
		return true, true // Bastogne で, 212/320 は
	case last == '→' || b.first == '→':
		return true, true // 3 → 2戦力
	case last >= utf8.RuneSelf && word(kindOf(last)) && word(b.kind):
		return true, true // 12戦力 対 連合軍: a kanji at a line's end and one at the next's read as one word
	case kind != kindNarrow || !alnum(last):
		return false, true
	}
	return numbered(s, last, b)
}

// numbered reports whether a word of Latin letters or digits ending with
// last and b, after a space, are a name and its number or a number and
// what it counts or names; sure is false when it takes the whole word.
func numbered(s string, last rune, b *atom) (join, sure bool) {
	t := s[b.start:b.end]
	switch {
	case b.first == '(' && len(t) > 2 && alnum(rune(t[1])) && strings.IndexByte(t, ')') > 0:
		return true, true // Betzdorf (5), ゾーンC (Bitburg)
	case last >= '0' && last <= '9' && word(b.kind):
		return true, true // -1 攻撃側, G16-1 戦闘
	case len(t) > 1 && t[0] >= 'A' && t[0] <= 'Z' && t[1] >= 'a' && t[1] <= 'z':
		return false, false // 4 Luxembourg, when the word is a number
	}
	return false, true
}

// word reports whether an atom of kind k is a word of kanji or katakana.
func word(k byte) bool { return k == kindKanji || k == kindKatakana }

func alnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// nextPhrase finds what Wrap places whole from s[i:] on, s ending with no
// space: a phrase of one atom or more. gap is the spaces before it, kept
// within a line as written ("12  MOVE"); its text is s[start:end], w
// columns wide; start is len(s) when only spaces are left.
//
// A text without Japanese in it (ja false) breaks at every space, as
// English does. ahead is the atom read after the last phrase, which
// begins this one: it is read once (its end 0 when there is none).
func nextPhrase(s string, i int, ja bool, ahead *atom) (start, end, gap, w int) {
	for i < len(s) && s[i] == ' ' {
		gap++
		i++
	}
	if i == len(s) {
		return i, i, gap, 0
	}
	if !ja {
		// A word, to the next space.
		end = strings.IndexByte(s[i:], ' ')
		if end < 0 {
			end = len(s) - i
		}
		return i, i + end, gap, Width(s[i : i+end])
	}
	// a and b are the last atom of the phrase and the one after it,
	// read in place, each in turn.
	var x atom
	a, b := ahead, &x
	if a.end == 0 || a.start != i {
		a.read(s, i)
	}
	w, end = a.w, a.end
	before := kindNarrow
	for end < len(s) {
		k := end
		for k < len(s) && s[k] == ' ' {
			k++
		}
		b.read(s, k)
		if k == end && breaksBetween(a, b, before) || k > end && !(ja && joinsAcross(s, a, b)) {
			if b != ahead {
				*ahead = *b
			}
			return i, end, gap, w
		}
		w += k - end + b.w
		end, before = b.end, a.kind
		a, b = b, a
	}
	*ahead = atom{}
	return i, end, gap, w
}

// Marks note, as a text to be wrapped is measured, the places in it where
// a phrase may begin, and its parentheses: Wrap places all of a line
// before the last such place near its end at once, and reads the phrases
// of a line near its end alone, not every phrase of every line.
type marks struct {
	n    int
	from int // the first kana or kanji; nothing before it is marked
	// A place after 、 or 。 or before spaces, and the columns of the
	// text before it; or an opening parenthesis or 【, its columns -1.
	at, cols [maxMarks]int32
}

// maxMarks is the most marks a text has: what a longer one has beyond
// them is read phrase by phrase.
const maxMarks = 64

// heldSpan is the most bytes an aside in parentheses or in 【】 holds
// after its first byte: 3*maxAside after "（".
const heldSpan = 3*maxAside + len("（")

// mark notes s[k:], which follows the columns c of s.
func (m *marks) mark(k, c int) {
	if m.n < maxMarks {
		m.at[m.n], m.cols[m.n] = int32(k), int32(c)
		m.n++
	}
}

// measure returns the columns of s and whether a space follows 。 or 、 in
// it, as untidy does, and marks it: one reading of a text too long to fit
// by its bytes, rather than two. A character takes no more columns than
// it has bytes: the columns are its bytes and d, which a kana or kanji,
// three bytes and two columns, lowers by one; ASCII, most of every
// report, is passed over.
func (m *marks) measure(s string) (n int, messy bool) {
	m.n = 0
	i, d := latin(s)
	m.from = i
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= '(' { // a space or (, or what is seldom written
				if c == ' ' && s[i-1] != ' ' {
					m.mark(i, i+d)
				} else if c == '(' {
					m.mark(i, -1)
				}
			}
			i++
			continue
		}
		// A run of kana and kanji, most of a Japanese text.
		if k := i; len(s)-k >= 3 && kana3(s[k:]) {
			for k += 3; len(s)-k >= 3 && kana3(s[k:]); k += 3 {
			}
			d -= (k - i) / 3
			i = k
			continue
		}
		r, size := decode(s, i)
		d += RuneWidth(r) - size
		switch r {
		case '。', '、':
			if i+size < len(s) && s[i+size] == ' ' {
				messy = true
			}
			m.mark(i+size, i+size+d)
		case '（', '【':
			m.mark(i, -1)
		}
		i += size
	}
	return len(s) + d, messy
}

// latin measures s up to its first kana or kanji, or 、。（【, which it
// returns with the columns less the bytes before it: an English text is
// measured alone, without a look at its spaces.
func latin(s string) (i, d int) {
	for ; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			if c-0xe3 <= 0xe9-0xe3 && i+2 < len(s) && wide3(c, s[i+1], s[i+2]) {
				break
			}
			r, size := decode(s, i)
			if r == '。' || r == '、' || r == '（' || r == '【' {
				break
			}
			d += RuneWidth(r) - size
			i += size - 1
		}
	}
	return i, d
}

// kana3 reports whether t begins with a kana or a kanji of three bytes, as
// wide3 tells them, from their bytes as one number: in UTF-8 the order of
// the bytes is that of the characters.
func kana3(t string) bool {
	v := uint32(t[0])<<16 | uint32(t[1])<<8 | uint32(t[2])
	return v&0xc0c0 == 0x8080 && (v >= 0xe4b880 && v <= 0xe9bfbf || // U+4E00 to U+9FFF
		v >= 0xe38181 && v <= 0xe38296 || // U+3041 to U+3096
		v >= 0xe382a0 && v <= 0xe383bf) // U+30A0 to U+30FF
}

// reach returns the last place q in s after i, a phrase's beginning and
// used columns into s, at which a phrase surely begins too, s[i:q] taking
// room columns at most, and the columns of s[i:q]; q is i when there is
// none. b is the atom after q's spaces when reach read it, for nextPhrase.
func (m *marks) reach(s string, i, used, room int, b *atom) (q, w int) {
	limit := used + room
	k := 0
	for k < m.n && (int(m.at[k]) <= i || m.cols[k] < 0 || int(m.cols[k]) <= limit) {
		k++
	}
	for k--; k >= 0 && int(m.at[k]) > i; k-- {
		if q := int(m.at[k]); m.cols[k] >= 0 && !m.held(s, i, q, k) && begins(s, q, b) {
			return q, int(m.cols[k]) - used
		}
	}
	return i, 0
}

// held reports whether an aside in parentheses or in 【】 begun in s[i:q],
// q the k-th mark, may hold q: the one atom that may hold a space or go
// on after 、.
func (m *marks) held(s string, i, q, k int) bool {
	lo := max(i, q-heldSpan)
	for k--; k >= 0 && int(m.at[k]) >= lo; k-- {
		if o := int(m.at[k]); m.cols[k] < 0 && asideAt(s, o) > q {
			return true
		}
	}
	// No parenthesis before the first kana or kanji is marked.
	for o := lo; o < min(q, m.from); o++ {
		if s[o] == '(' || s[o] == 0xef && strings.HasPrefix(s[o:], "（") || s[o] == 0xe3 && strings.HasPrefix(s[o:], "【") {
			if asideAt(s, o) > q {
				return true
			}
		}
	}
	return false
}

// asideAt returns the end of the atom that begins at s[k], an opening
// parenthesis or 【.
func asideAt(s string, k int) int {
	var a atom
	a.read(s, k)
	return a.end
}

// begins reports whether a phrase surely begins at s[q:], or after the
// spaces there, q held by no aside: q follows 、 or 。 and no character
// that may not begin a line, or q is the first of spaces that part the
// characters on either side of them (see joinsAfter).
func begins(s string, q int, b *atom) bool {
	p := q
	for p < len(s) && s[p] == ' ' {
		p++
	}
	if p == len(s) {
		return false
	}
	if p == q {
		// After 、 or 。, which end the atom they are in, and a phrase.
		r, _ := decode(s, p)
		return !noBreakBefore(r)
	}
	// The atom before the spaces ends with the character before them;
	// its kind is unknown: Latin, it may join b in more cases (see
	// joinsAfter), so it is taken to be Latin.
	last, _ := utf8.DecodeLastRuneInString(s[:q])
	b.read(s, p)
	join, sure := joinsAfter(s, last, kindNarrow, b)
	return sure && !join
}

// japanese reports whether s has a character from U+3000 on: kana,
// kanji, Japanese punctuation or full-width forms.
func japanese(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xe3 && s[i] <= 0xef {
			return true
		}
	}
	return false
}

// untidy reports whether a space follows 。 or 、 in s.
func untidy(s string) bool {
	for i := 3; i < len(s); i++ {
		if s[i] == ' ' && stopBefore(s, i) {
			return true
		}
	}
	return false
}

// stopBefore reports whether s[i-3:i], i at least 3, is 。 or 、
// (E3 80 82, E3 80 81).
func stopBefore(s string, i int) bool {
	return s[i-2] == 0x80 && s[i-3] == 0xe3 && (s[i-1] == 0x81 || s[i-1] == 0x82)
}

// tidy drops the spaces after 。 and 、, which Japanese does not write, but
// which a text joined of sentences may have: "…ません。 次に…".
func tidy(s string) string {
	if !untidy(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := decode(s, i)
		b.WriteString(s[i : i+size])
		i += size
		if r == '。' || r == '、' {
			for i < len(s) && s[i] == ' ' {
				i++
			}
		}
	}
	return b.String()
}
