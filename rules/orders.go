package rules

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// An Order is one line of an order mail, typed: an order for the player's
// own impulse, a standing order, a request, or a header line. The game's
// order language is stated once, in the kind table of orders_kinds.go, which
// HELP shows the players; a caller adds its own lines (Keyword) beside it.
// Each kind is a type of its own; String writes the canonical text of the
// line, which ParseOrders reads back to an equal Order.
type Order interface {
	Keyword() string
	String() string
}

// Orders is what one mail says, line by line, in the order written.
type Orders struct {
	List  []Order
	Lines []int // Lines[i] is the line of the mail List[i] was written on
	// Ignored are the lines read as a greeting or a sign-off, before the
	// first order or after the last, which the reply names.
	Ignored []LineSpan
}

// A LineSpan is the lines First to Last of a mail.
type LineSpan struct{ First, Last int }

// String writes the span as "line 3" or "lines 14-15".
func (l LineSpan) String() string { return l.Text().String() }

// Text is the span as a message.
func (l LineSpan) Text() Message {
	if l.First == l.Last {
		return M("line %d", l.First)
	}
	return M("lines %d-%d", l.First, l.Last)
}

// IgnoredText says which lines were not read as orders, as "not read as
// orders: lines 14-15", or "" when every line was.
func (o *Orders) IgnoredText() string { return o.IgnoredMessage().String() }

// IgnoredMessage is IgnoredText as a message; its Key is "" when every
// line was read.
func (o *Orders) IgnoredMessage() Message {
	if o == nil || len(o.Ignored) == 0 {
		return Message{}
	}
	parts := make([]Message, len(o.Ignored))
	for i, l := range o.Ignored {
		parts[i] = l.Text()
	}
	return M("not read as orders: %s", List(parts))
}

func (o *Orders) add(line int, ord Order) {
	o.List = append(o.List, ord)
	o.Lines = append(o.Lines, line)
}

// Format writes the orders as canonical text, one per line.
func (o *Orders) Format() string {
	var b strings.Builder
	for _, ord := range o.List {
		b.WriteString(ord.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Impulse returns the IMPULSE line, if the mail has one.
func (o *Orders) Impulse() (ImpulseLine, bool) {
	for _, ord := range o.List {
		if i, ok := ord.(ImpulseLine); ok {
			return i, true
		}
	}
	return ImpulseLine{}, false
}

// An OrderError is one thing wrong in an order mail: the line, the line as
// written, what is wrong and what would be right. The rules engine reports
// what it refuses with the same type, so that a player gets one list.
type OrderError struct {
	Line int    // 1-based line of the mail
	Text string // the line as written, for quoting; "" for the mail as a whole
	Msg  string // in English
	// Why is Msg as a message, which the referee gives in the reader's
	// language; its Key is "" where Msg is not from a catalog.
	Why Message
}

// OrderErrorAt returns the error m at a line of a mail quoted as text.
func OrderErrorAt(line int, text string, m Message) OrderError {
	return OrderError{Line: line, Text: text, Msg: m.String(), Why: m}
}

// same reports whether two errors say the same of the same line.
func (e OrderError) same(o OrderError) bool {
	return e.Line == o.Line && e.Text == o.Text && e.Msg == o.Msg
}

func (e OrderError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %q: %s", e.Line, e.Text, e.Msg)
}

// OrderErrors is every error of a mail, in line order.
type OrderErrors []OrderError

func (es OrderErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// With returns the errors of es and more in one list, in line order; on one
// line, in the order given. Errors given twice are listed once.
func (es OrderErrors) With(more ...OrderError) OrderErrors {
	if len(es)+len(more) == 0 {
		return nil
	}
	out := append(append(make(OrderErrors, 0, len(es)+len(more)), es...), more...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	uniq := out[:0]
	for _, e := range out {
		if !slices.ContainsFunc(uniq, e.same) {
			uniq = append(uniq, e)
		}
	}
	return uniq
}

// ParseOptions tune ParseOrders. A nil *ParseOptions is equivalent to the
// zero value.
type ParseOptions struct {
	// Side is the writer's side, if known: the units of his own orders must
	// be his, the targets of FIRE, ARTY and DEFEND the enemy's.
	Side Side
	// Keywords are the lines the caller reads beside the game's orders,
	// such as a mail's heading lines and a player's requests.
	Keywords []Keyword
	// Only reads the caller's keywords alone, and END, without the game's
	// orders: the director's lines, a tournament player's. A mail of such
	// lines is not refused for holding no game order.
	Only bool
}

// A Keyword is an order line that a caller of ParseOrders defines: the
// rules know the game's orders, and the referee adds lines of its own (the
// heading lines of a mail, a player's requests), which the parser reads and
// HELP lists beside the game's.
type Keyword struct {
	Name    string // as written, in upper case
	Syntax  string // as HELP shows it
	Summary string // what it does, for HELP
	Rules   string // the rules it cites, if any
	Class   Class  // HeadingLine or Request: where HELP lists it
	Once    bool   // at most one such line in a mail
	// Sample, if set, is the line at the head of the example mail that
	// ends HELP, as "GAME <the game's id>".
	Sample string
	// Parse reads the words after the keyword in line; rest is what it
	// leaves, which the parser reports as more than the line takes. An
	// error is the line's, as the player reads it. The order returned
	// should have a Class method returning Class, for ClassOf.
	Parse func(line string, words []string) (o Order, rest []string, err error)
}

// kind makes the parser's kind of a caller's keyword, the n-th.
func (kw *Keyword) kind(n int) *kind {
	sec := secRequest
	if kw.Class == HeadingLine {
		sec = secHeader
	}
	return &kind{keyword: kw.Name, syntax: kw.Syntax, section: sec, summary: kw.Summary, rules: kw.Rules, once: kw.Once,
		index: len(kinds) + n,
		parse: func(lp *lineParser) Order {
			o, rest, err := kw.Parse(lp.text, lp.toks[1:])
			if err != nil {
				lp.failWith(MessageOf(err))
				return nil
			}
			lp.i = len(lp.toks) - len(rest)
			return o
		}}
}

// allKinds lists the kinds of a parse or a HELP text: the caller's heading
// lines, the game's orders, then the caller's other lines.
func allKinds(kws []Keyword, only bool) []*kind {
	if only {
		out := []*kind{kindByKeyword("END")}
		for i := range kws {
			out = append(out, kws[i].kind(i))
		}
		return out
	}
	if len(kws) == 0 {
		return kinds
	}
	var head, tail []*kind
	for i := range kws {
		if k := kws[i].kind(i); kws[i].Class == HeadingLine {
			head = append(head, k)
		} else {
			tail = append(tail, k)
		}
	}
	return append(append(head, kinds...), tail...)
}

// ParseOrders reads the orders in the text of a mail body (HTML bodies are
// first reduced with HTMLToText). It checks everything that needs no game
// position: the form of each line, that units, areas, zones and bridges exist
// in the scenario s, that paths follow roads, and the rules that depend only
// on a unit's type. s may be nil, for instance to find the GAME line before
// the game is known: then names are checked only for their form.
//
// The result holds every line that is right; the error, if any, is
// OrderErrors with every line that is not, so the caller must apply nothing
// when it is non-nil. ParseOrders is safe for concurrent use with the same
// scenario.
func ParseOrders(body string, s *Scenario, opt *ParseOptions) (*Orders, error) {
	if opt == nil {
		opt = &ParseOptions{}
	}
	lines := bodyLines(body)
	p := &parser{s: s, opt: opt, kinds: allKinds(opt.Keywords, opt.Only)}
	if s != nil {
		p.movedUnit = make([]int, len(s.OOB.Units))
	}
	p.out = &Orders{List: make([]Order, 0, len(lines)), Lines: make([]int, 0, len(lines))}
	for _, l := range lines {
		p.line(l.n, l.text)
		if p.ended {
			break
		}
	}
	p.finish()
	switch {
	case len(p.errs) > 0 || opt.Only:
	case len(p.out.List) == 0 && len(p.out.Ignored) == 0:
		p.errs = append(p.errs, OrderErrorAt(1, "", M("no orders found: write one order per line, as MOVE 116/60 62 70, and END after the last; quoted lines (>) and everything after a signature (-- ) are ignored. Send HELP for the whole language")))
	case len(p.out.Ignored) > 0 && !p.ordered && !p.ended:
		// Only heading lines and text that is no order: the writer
		// meant something, and nothing of it reads as an order.
		p.errs = append(p.errs, OrderErrorAt(p.out.Ignored[0].First, "", M("no orders found (%s: a greeting or a sign-off). Write one order per line, as MOVE 116/60 62 70, and END after the last; IMPULSE and END alone play the impulse without orders. Send HELP for the whole language",
			p.out.IgnoredMessage())))
	}
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		return p.out, p.errs
	}
	return p.out, nil
}

// finish checks what depends on more than one line.
func (p *parser) finish() {
	p.setAside(false) // text after the last order: a sign-off
	if !p.hasImpulse {
		return
	}
	for i, ord := range p.out.List {
		// 14.22: DELAY may not be chosen in the third impulse of a turn.
		if f, ok := ord.(SpecialForces); ok && f.Effect == SFDelay && p.impulse.N == 3 {
			p.errs = append(p.errs, OrderErrorAt(p.out.Lines[i], f.String(),
				M("DELAY cannot be chosen in a third impulse (14.22), and this is %d-3", p.impulse.Day)))
		}
	}
}

// srcLine is one line of a body that may hold an order.
type srcLine struct {
	n    int
	text string
}

// bodyLines splits a mail body into the lines that may hold orders: it ends at
// a signature or at a replied or forwarded message, skips quoted lines, and
// reads typographic dashes and unusual spaces as - and space.
func bodyLines(body string) []srcLine {
	out := make([]srcLine, 0, strings.Count(body, "\n")+1)
	n := 0
	for len(body) > 0 {
		var line string
		i := strings.IndexByte(body, '\n')
		if j := strings.IndexByte(body, '\r'); j >= 0 && (i < 0 || j < i) {
			i = j // a CR ends the line, alone or before LF
		}
		if i < 0 {
			line, body = body, ""
		} else {
			line = body[:i]
			if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
				i++
			}
			body = body[i+1:]
		}
		n++
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if strings.TrimRight(line, " \t") == "--" {
			break // the signature delimiter
		}
		line = normalizeLine(line)
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '>' || t[0] == '#' {
			continue
		}
		if endsOrders(t) {
			break
		}
		out = append(out, srcLine{n, t})
	}
	return out
}

// normalizeLine reads typographic dashes as -, other spaces and tabs as a
// space, and drops zero-width characters. A Japanese input method types
// the full-width forms of letters, digits and signs (ＭＯＶＥ　３５２／９１４
// ２２): they are read as their ASCII letters; the ideographic comma as a
// comma, and the full stop and the quotation brackets (「」『』【】) as
// spaces, so that an order quoted or ended the Japanese way reads the same.
func normalizeLine(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '\t' {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\t', '\u00a0', '\u2002', '\u2003', '\u2007', '\u2009', '\u202f', '\u3000':
			return ' '
		case '\u200b', '\u200c', '\u200d', '\ufeff':
			return -1
		case '\u203a', '\u2192': // › → for unit>target
			return '>'
		case '\u3001', '\uff64': // 、 and its half-width form
			return ','
		case '\u3002', '\uff61', '\u300c', '\u300d', '\u300e', '\u300f', '\u3010', '\u3011', '\uff62', '\uff63':
			return ' '
		}
		if r >= '\uff01' && r <= '\uff5e' {
			// The full-width forms of ASCII's ! to ~, ＞ among them.
			return r - 0xfee0
		}
		return r
	}, s)
}

// endsOrders reports whether a line starts a replied or forwarded message
// or a mobile client's signature, below which nothing is read.
func endsOrders(t string) bool {
	switch t[0] {
	case '_':
		// The line of underscores some mail programs put above a quoted message.
		return len(t) >= 4 && strings.Trim(t, "_") == ""
	case '-':
		return hasPrefixFold(t, "-----original message") || strings.Contains(strings.ToLower(t), "forwarded message --")
	case 'b', 'B':
		return hasPrefixFold(t, "begin forwarded message")
	case 'f', 'F':
		return hasPrefixFold(t, "from: ")
	case 's', 'S':
		return hasPrefixFold(t, "sent from my ")
	case 'o', 'O':
		return hasPrefixFold(t, "on ") && len(t) >= 6 && strings.EqualFold(t[len(t)-6:], "wrote:")
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// parser holds what one mail's parse has seen so far.
type parser struct {
	s     *Scenario
	opt   *ParseOptions
	kinds []*kind // the game's and the caller's, in HELP's order
	out   *Orders
	errs  OrderErrors
	ended bool

	moved      map[string]int // unit id -> line of its MOVE or FOOT, without a scenario
	movedUnit  []int          // the same with a scenario, by order-of-battle index; 0: not moved
	once       [maxKinds]int  // line of each kind allowed once, by its place in the table
	impulse    ImpulseLine
	hasImpulse bool

	// ordered is set once a line other than a heading line (GAME, TOKEN,
	// IMPULSE, END) was read as an order, right or wrong; chatter are
	// the lines since the last such line that cannot be orders, set
	// aside until the next order says whether they stand between orders.
	ordered bool
	chatter []srcLine
	// listed is set once an error has listed the keywords: a reply lists
	// them once.
	listed bool

	toks []string   // reused for each line
	lp   lineParser // reused for each line
}

// maxKinds bounds the number of order kinds (the table in orders_kinds.go).
const maxKinds = 32

// A lineParser reads the tokens of one line.
type lineParser struct {
	p     *parser
	k     *kind // the line's kind, once known
	n     int
	text  string
	toks  []string
	i     int
	nerrs int
	seen  []*Unit // the units this line named, for the checks after parsing
	// outside: the line moves units that set up or arrive outside the
	// scenario's map (Scenario.StartsOutside), whose path may name places
	// of the whole map.
	outside bool
}

func (p *parser) line(n int, text string) {
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = strings.TrimSpace(text[:i])
	}
	p.toks = tokenize(p.toks[:0], text)
	if len(p.toks) == 0 {
		return // only separators: a blank line
	}
	p.lp = lineParser{p: p, n: n, text: text, toks: p.toks, seen: p.lp.seen[:0]}
	lp := &p.lp
	kw := strings.ToUpper(lp.toks[0])
	k := p.kind(kw)
	if k == nil {
		if p.isChatter(lp.toks) {
			p.chatter = append(p.chatter, srcLine{n, text})
			return
		}
		p.setAside(true)
		why := M("the line names a unit or an area, so it is read as an order, not as a greeting or a sign-off.")
		if w := lp.toks[0]; strings.ContainsAny(w, "0123456789") || p.namesUnit(w) {
			why = M("an order starts with its keyword, as MOVE or ATTACK, then the units and areas.")
		}
		p.unknown(n, text, lp.toks[0], why)
		return
	}
	if k.section != secHeader {
		p.setAside(true)
	}
	lp.i = 1
	lp.k = k
	ord := k.parse(lp)
	if lp.nerrs > 0 || ord == nil {
		return
	}
	if lp.i < len(lp.toks) {
		lp.fail("%q is more than %s takes: %s%s", strings.Join(lp.toks[lp.i:], " "), k.keyword, syntaxMessage(k.syntax), lp.wordHint(lp.peek()))
		return
	}
	if k.once {
		if first := p.once[k.index]; first > 0 {
			lp.fail("a second %s line (the first is line %d): a mail has one", k.keyword, first)
			return
		}
		p.once[k.index] = n
	}
	if v, ok := ord.(validator); ok {
		v.validate(lp)
		if lp.nerrs > 0 {
			return
		}
	}
	p.out.add(n, ord)
	if _, ok := ord.(EndLine); ok || endsHere(ord) {
		p.ended = true
	}
}

// endsHere: an order whose EndsOrders method reports true ends the orders at its
// line: what follows is its own (the tournament's file after the
// director's NEW TOURNAMENT), and is not read as orders.
func endsHere(o Order) bool {
	e, ok := o.(interface{ EndsOrders() bool })
	return ok && e.EndsOrders()
}

// unknown refuses a line whose first word is no keyword; why says why the
// line is not read as chatter.
func (p *parser) unknown(n int, text, word string, why Message) {
	w := strings.TrimFunc(word, notWordRune)
	mean := nearWords(w, p.keywords())
	if p.kind(strings.ToUpper(w)) != nil {
		mean = []string{strings.ToUpper(w)} // the keyword with a stop or a colon
	}
	if len(mean) > 0 {
		why = M("did you mean %s?", OrList(mean)) // the keyword written wrong is reason enough
	}
	next := M("Send HELP for the keywords")
	if !p.listed {
		p.listed = true
		next = M("A line starts with one of %s; put END after your orders so that the rest of the mail is ignored", keywordList(p.kinds))
	}
	p.errs = append(p.errs, OrderErrorAt(n, text, M("unknown order %q: %s %s", word, why, next)))
}

func (p *parser) keywords() []string {
	out := make([]string, len(p.kinds))
	for i, k := range p.kinds {
		out[i] = k.keyword
	}
	return out
}

// isChatter reports whether a line whose first word is no keyword cannot
// be an order at all: its first word is not near a keyword either, and it
// holds no number (an area, a bridge, most units) and no unit's id. Such
// a line before the first order or after the last is a greeting or a
// sign-off; anything that might be an order written wrong is not.
func (p *parser) isChatter(toks []string) bool {
	first := strings.TrimFunc(toks[0], notWordRune)
	if first != "" && (p.kind(strings.ToUpper(first)) != nil || len(nearWords(first, p.keywords())) > 0) {
		return false
	}
	for _, t := range toks {
		if strings.ContainsAny(t, "0123456789") && !japaneseProse(t) {
			return false
		}
		if w := strings.TrimFunc(t, notWordRune); w != "" && p.namesUnit(w) {
			return false
		}
		if japaneseProse(t) && p.namesUnitWithin(t) {
			return false
		}
	}
	return true
}

// japaneseProse reports whether a word holds kana or kanji: Japanese writes
// no spaces between words, so that a whole sentence is one word, and a
// number in it ("12月16日") is a date or a count, not an area. A unit's id
// in it still makes it a possible order (see namesUnitWithin).
func japaneseProse(t string) bool {
	for _, r := range t {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return true
		}
	}
	return false
}

// namesUnitWithin reports whether a run of ASCII letters, digits and / in
// a Japanese word names a unit: "352/914を22へ" is an order written in
// Japanese, to be refused, not chatter. A run of digits alone ("第1イン
// パルス") is a count, even where a unit's id ends with that number.
func (p *parser) namesUnitWithin(t string) bool {
	for _, w := range strings.FieldsFunc(t, func(r rune) bool {
		return r >= 0x80 || notWordRune(r)
	}) {
		if strings.Trim(w, "0123456789") != "" && p.namesUnit(w) {
			return true
		}
	}
	return false
}

// notWordRune is true for the punctuation around a word in prose.
func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '/'
}

// namesUnit reports whether t is a unit's id in the scenario, whole or by
// its ending after the formation (CCA for 9AD/CCA), as orders name them.
func (p *parser) namesUnit(t string) bool {
	s := p.s
	if s == nil {
		return false
	}
	if s.OOB.Unit(t) != nil {
		return true
	}
	suffix := "/" + strings.ToLower(t)
	for _, u := range s.Units {
		if strings.HasSuffix(strings.ToLower(u.ID), suffix) {
			return true
		}
	}
	return false
}

// setAside settles the chatter lines set aside since the last order: when
// an order follows them they stand between orders, and are refused, as an
// order written in words or broken in two by the mail program may; before
// the first order or after the last, they are a greeting or a sign-off and
// are ignored.
func (p *parser) setAside(orderFollows bool) {
	if len(p.chatter) > 0 {
		if p.ordered && orderFollows {
			for _, l := range p.chatter {
				toks := tokenize(nil, l.text)
				p.unknown(l.n, l.text, toks[0], M("a greeting or a sign-off may stand before your first order or after your last one, not between two orders."))
			}
		} else {
			p.out.Ignored = append(p.out.Ignored, LineSpan{p.chatter[0].n, p.chatter[len(p.chatter)-1].n})
		}
		p.chatter = p.chatter[:0]
	}
	if orderFollows {
		p.ordered = true
	}
}

// kind returns the kind of a keyword, or nil.
func (p *parser) kind(kw string) *kind {
	if !p.opt.Only && len(p.kinds) == len(kinds) {
		return kindByKeyword(kw)
	}
	for _, k := range p.kinds {
		if k.keyword == kw {
			return k
		}
	}
	return nil
}

// validator is implemented by orders with checks across lines (run after the
// line itself parsed).
type validator interface{ validate(lp *lineParser) }

// tokenize appends the tokens of a line to toks: it splits at spaces, commas
// and semicolons, and reads "a > b" as "a>b".
func tokenize(toks []string, s string) []string {
	if strings.IndexByte(s, '>') >= 0 && (strings.Contains(s, " >") || strings.Contains(s, "> ")) {
		for strings.Contains(s, " >") || strings.Contains(s, "> ") {
			s = strings.ReplaceAll(strings.ReplaceAll(s, " >", ">"), "> ", ">")
		}
	}
	start := -1
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == ',' || c == ';' {
			if start >= 0 {
				toks = append(toks, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
	}
	return toks
}

func (lp *lineParser) fail(format string, args ...any) { lp.failWith(M(format, args...)) }

// failWith refuses the line for the reason m.
func (lp *lineParser) failWith(m Message) {
	lp.nerrs++
	lp.p.errs = append(lp.p.errs, OrderErrorAt(lp.n, lp.text, m))
}

// syntaxMessage gives an order's syntax, as HELP shows it ("MOVE unit...
// path [ELSE path]"), as a message: HELP's catalog gives it in the
// reader's language, where it has it.
func syntaxMessage(syntax string) Message { return Message{Key: syntax} }

func (lp *lineParser) more() bool   { return lp.i < len(lp.toks) }
func (lp *lineParser) peek() string { return lp.toks[lp.i] }
func (lp *lineParser) next() string { t := lp.toks[lp.i]; lp.i++; return t }

// word reports whether the next token is the keyword w, and takes it if so.
func (lp *lineParser) word(w string) bool {
	if lp.more() && strings.EqualFold(lp.peek(), w) {
		lp.i++
		return true
	}
	return false
}

// tokenKind classifies a token as orders read it: numbers are areas, single
// letters zones, a-b bridges, x>y fire pairs, anything else a unit.
type tokenKind int

const (
	tokUnit tokenKind = iota
	tokArea
	tokZone
	tokBridge
	tokPair
)

func classify(t string) tokenKind {
	switch {
	case isDigits(t):
		return tokArea
	case len(t) == 1 && isLetter(t[0]):
		return tokZone
	case strings.IndexByte(t, '>') >= 0:
		return tokPair
	}
	if a, b, ok := strings.Cut(t, "-"); ok && isDigits(a) && isDigits(b) {
		return tokBridge
	}
	return tokUnit
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isKeyword reports whether t is a word with a meaning inside an order line,
// which ends a list of units.
func isKeyword(t string) bool {
	if len(t) > 6 || len(t) < 2 || !isLetter(t[0]) {
		return false
	}
	for _, k := range [...]string{"ELSE", "WITH", "BY", "PREFER", "ALL", "NONE", "ACCEPT", "SEED"} {
		if strings.EqualFold(t, k) {
			return true
		}
	}
	return false
}

// units reads one or more unit ids up to the first token that is not a unit;
// what says what to write when there is none.
func (lp *lineParser) units(what Message) []string { return lp.unitsUntil(what, nil) }

// unitsUntil reads unit ids as units does, stopping also at a token for
// which stop is true.
func (lp *lineParser) unitsUntil(what Message, stop func(string) bool) []string {
	ids := make([]string, 0, len(lp.toks)-lp.i)
	for lp.more() && classify(lp.peek()) == tokUnit && !isKeyword(lp.peek()) && (stop == nil || !stop(lp.peek())) {
		t := lp.next()
		id, ok := lp.unit(t)
		if !ok {
			continue
		}
		if slices.ContainsFunc(ids, func(x string) bool { return strings.EqualFold(x, id) }) {
			lp.fail("%s is named twice", id)
			continue
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		if lp.nerrs == 0 {
			lp.fail("no unit given: %s", what)
		}
		return nil
	}
	return ids
}

// unit resolves a unit id as written to the scenario's id.
func (lp *lineParser) unit(t string) (string, bool) {
	s := lp.p.s
	if s == nil {
		return t, true
	}
	if u := s.OOB.Unit(t); u != nil && s.InPlay(u) {
		lp.seen = append(lp.seen, u)
		return u.ID, true
	}
	if u := s.OOB.Unit(t); u != nil {
		lp.fail("unit %s does not take part in %s", u.ID, s.TitleMessage())
		return "", false
	}
	// A unique ending after the formation, as CCA for 9AD/CCA, is accepted;
	// more than one is ambiguous.
	var match []string
	suffix := "/" + strings.ToLower(t)
	for _, u := range s.Units {
		if strings.HasSuffix(strings.ToLower(u.ID), suffix) {
			match = append(match, u.ID)
		}
	}
	switch {
	case len(match) == 1:
		lp.seen = append(lp.seen, s.OOB.Unit(match[0]))
		return match[0], true
	case len(match) > 1:
		lp.fail("unit %s is ambiguous: it could be %s; write the whole id", t, List(match))
		return "", false
	}
	lp.fail("unknown unit %s%s", t, lp.suggestUnit(t))
	return "", false
}

// place reads an area number or zone letter of the scenario's map.
func (lp *lineParser) place(t string) (Place, bool) {
	switch classify(t) {
	case tokArea:
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 || n > 999 {
			lp.fail("%s is not an area number (1-999)", t)
			return Place{}, false
		}
		p := AreaPlace(n)
		return p, lp.onMap(p, t)
	case tokZone:
		z := strings.ToUpper(t)
		if !isZoneID(z) {
			lp.fail("%s is not a zone: zones are the letters A to P", t)
			return Place{}, false
		}
		p := ZonePlace(z)
		return p, lp.onMap(p, t)
	}
	if n := digitLike(t); n != "" {
		lp.fail("%s is not an area number: did you mean %s?", t, n)
		return Place{}, false
	}
	lp.fail("%s is not an area number or zone letter: areas are written by number, zones by letter%s", t, lp.suggestArea(t))
	return Place{}, false
}

func (lp *lineParser) onMap(p Place, t string) bool {
	s := lp.p.s
	if s == nil {
		return true
	}
	if !s.Map.Has(p) {
		if p.IsZone() {
			lp.fail("there is no zone %s on the map%s", t, lp.suggestArea(t))
		} else {
			lp.fail("there is no area %s on the map%s", t, lp.suggestArea(t))
		}
		return false
	}
	if !s.WholeMap && !s.Uses(p) && !lp.outside {
		lp.fail("%s is outside the map of %s", s.Map.PlaceMessage(p), s.TitleMessage())
		return false
	}
	return true
}

// startOutside reports whether every unit named is one that sets up or
// arrives outside the scenario's map (the 5th Panzer scenario): its moves may
// pass through areas and zones outside the map on the way in, which the
// engine checks against where it stands.
func (lp *lineParser) startOutside(ids []string) bool {
	s := lp.p.s
	if s == nil || !s.RemoveUnsuppliedOutsiders || len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if u := lp.unitOf(id); u == nil || !s.StartsOutside(u) {
			return false
		}
	}
	return true
}

// area reads an area (not a zone): where a battle can be (9.17). what is
// the syntax read, as "ATTACK area".
func (lp *lineParser) area(what Message) (int, bool) {
	return lp.areaNoZone(what, M("there are no battles in zones (9.17)"))
}

// areaNoZone reads an area number as area does; a zone is refused for the
// reason given, with its rule.
func (lp *lineParser) areaNoZone(what, zoneWhy Message) (int, bool) {
	if !lp.more() {
		lp.fail("%s: an area number is missing", what)
		return 0, false
	}
	t := lp.next()
	p, ok := lp.place(t)
	if !ok {
		return 0, false
	}
	if p.IsZone() {
		lp.fail("%s: zone %s is not an area; %s", what, p.Zone, zoneWhy)
		return 0, false
	}
	return p.Area, true
}

// path reads places up to the first token that is not one. A number
// written with a letter for a digit, as 2O for 20, is read as a place and
// refused as one, rather than ending the path.
func (lp *lineParser) path() []Place {
	n := 0
	for j := lp.i; j < len(lp.toks) && lp.isPlace(lp.toks[j]); j++ {
		n++
	}
	if n == 0 {
		return nil
	}
	ps := make([]Place, 0, n)
	for lp.more() && lp.isPlace(lp.peek()) {
		if p, ok := lp.place(lp.next()); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// isPlace reports whether a path reads t as a place: an area number, a
// zone letter, or a number with a letter for a digit that is no unit's id.
func (lp *lineParser) isPlace(t string) bool {
	k := classify(t)
	return k == tokArea || k == tokZone || lp.misdigit(t)
}

// misdigit reports whether t is a number written with a letter for a digit
// (2O, 1l), and no unit's id or ending.
func (lp *lineParser) misdigit(t string) bool {
	if digitLike(t) == "" {
		return false
	}
	s := lp.p.s
	if s == nil {
		return true
	}
	if s.OOB.Unit(t) != nil {
		return false
	}
	suffix := "/" + strings.ToLower(t)
	for _, u := range s.Units {
		if strings.HasSuffix(strings.ToLower(u.ID), suffix) {
			return false
		}
	}
	return true
}

// digitLike returns the number t would be with its letters O and o read as
// 0 and I and l as 1, when t holds a digit and such a letter and nothing
// else; "" otherwise.
func digitLike(t string) string {
	if len(t) > 4 {
		return ""
	}
	b := []byte(t)
	digit, letter := false, false
	for i, c := range b {
		switch c {
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			digit = true
		case 'O', 'o':
			b[i], letter = '0', true
		case 'I', 'l':
			b[i], letter = '1', true
		default:
			return ""
		}
	}
	if !digit || !letter {
		return ""
	}
	return string(b)
}

// meanHint returns "; did you mean ATTACK?" with the words nearest to t
// (nearWords), or nothing (the zero Message) when none is near.
func meanHint(t string, words []string) Message {
	if near := nearWords(t, words); len(near) > 0 {
		return M("; did you mean %s?", OrList(near))
	}
	return Message{}
}

// nearWords returns the words nearest to t, as ATTACK, or ARTY and ATTACK,
// when one is near enough to be a slip of the keyboard; none otherwise.
func nearWords(t string, words []string) []string {
	if japaneseProse(t) {
		return nil // no keyword is written in kana or kanji: 山田 is not SF
	}
	limit := 1
	if len(t) > 5 {
		limit = 2
	}
	near := nearest(t, words, nil, limit)
	var out []string
	for _, n := range near {
		if n.dist == near[0].dist && n.dist > 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// wordHint returns "; did you mean WITH?" when t is near a word of the
// line's own syntax (WITH, ELSE, BY, ALL ...); nothing otherwise.
func (lp *lineParser) wordHint(t string) Message {
	if lp.k == nil {
		return Message{}
	}
	var words []string
	for _, w := range strings.FieldsFunc(lp.k.syntax, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		if len(w) > 1 && w != lp.k.keyword && !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return meanHint(t, words)
}

// bridge reads a bridge as a-b and checks that a road with a bridge joins
// the two areas (3.23).
func (lp *lineParser) bridge(t string) (Bridge, bool) {
	if classify(t) != tokBridge {
		hint := lp.wordHint(t)
		if x, y, ok := strings.Cut(t, "-"); ok && hint.Key == "" {
			if a, b := cmp.Or(digitLike(x), x), cmp.Or(digitLike(y), y); isDigits(a) && isDigits(b) {
				hint = M("; did you mean %s-%s?", a, b)
			}
		}
		lp.fail("%s is not a bridge: a bridge is written by its two areas, as 51-70%s", t, hint)
		return Bridge{}, false
	}
	x, y, _ := strings.Cut(t, "-")
	a, _ := strconv.Atoi(x)
	b, _ := strconv.Atoi(y)
	br := Bridge{min(a, b), max(a, b)}
	s := lp.p.s
	if s == nil {
		return br, true
	}
	if !lp.onMap(AreaPlace(a), x) || !lp.onMap(AreaPlace(b), y) {
		return Bridge{}, false
	}
	r := s.Map.Road(a, b)
	switch {
	case r == nil:
		lp.fail("no road joins %s and %s, so there is no bridge %s%s", s.Map.PlaceName(AreaPlace(a)), s.Map.PlaceName(AreaPlace(b)), t, lp.suggestBridge(a, b))
		return Bridge{}, false
	case !r.Bridge:
		lp.fail("the road %s - %s crosses no river, so it has no bridge%s", s.Map.PlaceName(AreaPlace(a)), s.Map.PlaceName(AreaPlace(b)), lp.suggestBridge(a, b))
		return Bridge{}, false
	}
	return br, true
}

// unitOf returns the scenario's unit, or nil when parsing without one.
func (lp *lineParser) unitOf(id string) *Unit {
	if lp.p.s == nil {
		return nil
	}
	for _, u := range lp.seen {
		if u.ID == id {
			return u
		}
	}
	return lp.p.s.OOB.Unit(id)
}

// own checks that the units belong to the writer, when his side is known.
func (lp *lineParser) own(ids []string) {
	side := lp.p.opt.Side
	for _, id := range ids {
		if u := lp.unitOf(id); u != nil && side != "" && u.Side != side {
			lp.failWith(sideUnit(id, u.Side, side))
		}
	}
}

// enemy checks that the units are the writer's enemies, when known.
func (lp *lineParser) enemy(ids []string) {
	side := lp.p.opt.Side
	for _, id := range ids {
		if u := lp.unitOf(id); u != nil && side != "" && u.Side == side {
			lp.fail("%s is one of your own units: a target must be an enemy unit", id)
		}
	}
}

// suggestUnit lists the scenario's unit ids and area names closest to t.
func (lp *lineParser) suggestUnit(t string) Message {
	s := lp.p.s
	if s == nil {
		return Message{}
	}
	cands := make([]string, 0, len(s.Units)+len(s.Map.Areas))
	for _, u := range s.Units {
		cands = append(cands, u.ID)
	}
	for _, a := range s.Map.Areas {
		if s.Uses(AreaPlace(a.ID)) {
			cands = append(cands, a.Label())
		}
	}
	near := suggestion(t, cands, func(c string) string {
		if i := strings.LastIndex(c, " ("); i > 0 {
			return c[:i] // an area's name, without its number
		}
		return c
	})
	for _, n := range near {
		if strings.Contains(n, " (") {
			return M("; closest: %s (areas are written by number)", List(near))
		}
	}
	return closestHint(near)
}

// suggestArea lists the areas whose names or numbers are closest to t.
func (lp *lineParser) suggestArea(t string) Message {
	s := lp.p.s
	if s == nil {
		return Message{}
	}
	var cands []string
	for _, a := range s.Map.Areas {
		if s.Uses(AreaPlace(a.ID)) {
			cands = append(cands, a.Label())
		}
	}
	return closestHint(suggestion(t, cands, func(c string) string {
		i := strings.LastIndex(c, " (")
		if isDigits(t) {
			return c[i+2 : len(c)-1] // the number
		}
		return c[:i]
	}))
}

// suggestBridge lists the bridges at either of two areas.
func (lp *lineParser) suggestBridge(a, b int) Message {
	var out []string
	for _, n := range []int{a, b} {
		for _, l := range lp.p.s.Map.Links(AreaPlace(n)) {
			if l.Road != nil && l.Road.Bridge && lp.p.s.Uses(l.To) {
				out = append(out, l.Road.ID())
			}
		}
	}
	if len(out) == 0 {
		return Message{}
	}
	return M("; bridges there: %s", List(out))
}

// suggestion returns the candidates nearest to t by edit distance
// (transpositions count one), compared through key, five at most.
func suggestion(t string, cands []string, key func(string) string) []string {
	near := nearest(t, cands, key, max(2, len(t)/3))
	if len(near) > 5 {
		near = near[:5]
	}
	parts := make([]string, len(near))
	for i, n := range near {
		parts[i] = n.name
	}
	return parts
}

// closestHint returns "; closest: x, y", or nothing for no names.
func closestHint(names []string) Message {
	if len(names) == 0 {
		return Message{}
	}
	return M("; closest: %s", List(names))
}

// movedOn returns the line on which the unit was moved, if it was.
func (p *parser) movedOn(id string, u *Unit) (int, bool) {
	if u != nil {
		n := p.movedUnit[u.index]
		return n, n > 0
	}
	n, ok := p.moved[strings.ToLower(id)]
	return n, ok // a nil map reads as empty
}

// setMoved records the line on which the unit moves.
func (p *parser) setMoved(id string, u *Unit, line int) {
	if u != nil {
		p.movedUnit[u.index] = line
		return
	}
	if p.moved == nil {
		p.moved = map[string]int{}
	}
	p.moved[strings.ToLower(id)] = line
}

// HasOrders reports whether a mail body holds any line the order parser
// would read: an empty body, or one of only quotes and comments, is a pass
// (B8).
func HasOrders(body string) bool {
	for _, l := range bodyLines(body) {
		if len(tokenize(nil, l.text)) > 0 {
			return true
		}
	}
	return false
}
