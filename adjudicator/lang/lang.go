// Package lang gives a player the texts of titm in his language: English or
// Japanese. Every text a player reads goes through a Printer, which looks
// the text up in the message catalogs of the language and formats it with
// the plural and number rules of that language.
//
// A message's key is its English format, as the code writes it:
// p.Sprintf("%s cannot move: it is spent for the turn (9.14)", id). The
// catalogs, catalog/en/*.toml and catalog/ja/*.toml, give every key's text
// in each language, as a string or, where the number decides the form, as
// a table of plural cases:
//
//	"%d hits" = "%dヒット"
//
//	["%d hits"]
//	one = "%d hit"
//	other = "%d hits"
//	arg = 1          # the argument the case is chosen by (1, the first, when absent)
//
// The English catalog is made from the code (go test ./adjudicator/lang
// -update); the Japanese one is written by hand in the rulebook's words
// (docs/japanese.md). A test fails when a key of the code is missing from a
// catalog, or when a translation's placeholders differ from its key's.
package lang

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"titm/rules"
)

// The languages a player may choose, by their codes.
const (
	English  = "en"
	Japanese = "ja"
)

// Codes are the languages' codes, the default first.
var Codes = []string{English, Japanese}

// Parse returns the code of the language s names ("en", "ja", "English",
// "japanese", "日本語"), or an error naming the choices.
func Parse(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "en", "english", "英語":
		return English, nil
	case "ja", "jp", "japanese", "日本語":
		return Japanese, nil
	}
	return "", fmt.Errorf("unknown language %q: want en (English) or ja (Japanese)", s)
}

// Name returns the language's name in itself: "English", "日本語".
func Name(code string) string {
	if code == Japanese {
		return "日本語"
	}
	return "English"
}

//go:embed catalog
var files embed.FS

// A Printer formats texts in one language. It is safe for concurrent use.
type Printer struct {
	code string
	p    *message.Printer
	// msgs are the catalog's messages, by key: looked up once a message,
	// as a report makes a thousand of them.
	msgs map[string]msg
	// german and allied are the sides' names, which most texts name.
	german, allied string
}

var (
	loadOnce sync.Once
	printers map[string]*Printer
	loadErr  error
)

// A msg is a message of a printer's catalog: a plain text, which fmt
// formats (the catalog's printer is asked only for the plural tables, as
// most messages are plain), or a table of plural cases.
type msg struct {
	text   string
	fill   *fill // the text read once for Fill, when its verbs are all %s
	plural bool
	exact  *exact // the plural table, when its cases are all numbers (=1) but other
}

// An exact is a plural table whose cases are all numbers, but its other
// case (第一, 第二, 第三 by the impulse's number): chosen by the number
// itself, as the catalog's printer chooses it, and formatted by fmt, as
// a plain text is, without the catalog's printer.
type exact struct {
	arg   int // the argument the case is chosen by, from 0
	cases map[int64]string
	other string
}

// readExact reads e's cases into an exact; nil when a case is a plural
// category (one, few ...), which the language's rules choose.
func readExact(e entry) *exact {
	x := &exact{arg: max(e.arg, 1) - 1, cases: map[int64]string{}}
	for c, t := range e.cases {
		if c == "other" {
			x.other = t
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(c, "="), 10, 64)
		if err != nil || !strings.HasPrefix(c, "=") {
			return nil
		}
		x.cases[n] = t
	}
	return x
}

// text returns the case args choose: false when the argument is no whole
// number, which the catalog's printer is left to choose by.
func (x *exact) text(args []any) (string, bool) {
	if x == nil || x.arg >= len(args) {
		return "", false
	}
	var n int64
	switch a := args[x.arg].(type) {
	case int:
		n = int64(a)
	case int64:
		n = a
	case int32:
		n = int64(a)
	case uint8:
		n = int64(a)
	default:
		return "", false
	}
	if t, ok := x.cases[n]; ok {
		return t, true
	}
	return x.other, true
}

// For returns the printer of the language code; of English for "" or an
// unknown code.
func For(code string) *Printer {
	loadOnce.Do(load)
	if p, ok := printers[code]; ok {
		return p
	}
	return printers[English]
}

// EN is the English printer: the texts for the operator, the logs and
// every reader who chose no language.
func EN() *Printer { return For(English) }

// Err returns the error that loading the catalogs met, if any. The
// catalogs are embedded, so a test calls it once; a printer of a catalog
// that did not load prints the English keys.
func Err() error {
	loadOnce.Do(load)
	return loadErr
}

// Code returns the printer's language code.
func (p *Printer) Code() string { return p.code }

// Sprintf formats the message key with args in the printer's language.
// Arguments that are messages themselves (rules.Message) or that name a
// side are given in the same language.
func (p *Printer) Sprintf(key string, args ...any) string {
	m, ok := p.msgs[key]
	if m.plural {
		if f, ok := m.exact.text(args); ok {
			return fmt.Sprintf(f, p.args(args)...)
		}
		return p.p.Sprintf(key, p.args(args)...)
	}
	f := m.text
	if !ok {
		f = key // as the catalogs fall back: to the English key
	}
	if len(args) == 0 && !strings.Contains(f, "%") {
		return f
	}
	return fmt.Sprintf(f, p.args(args)...)
}

// Fill formats the message key, whose verbs are all %s (or %[n]s),
// with string arguments: what Sprintf gives, without its cost, for the
// texts a report makes by the dozen (a die's purpose). A key of other
// verbs goes to Sprintf.
func (p *Printer) Fill(key string, args ...string) string {
	if out, ok := p.fillOf(key).apply(args); ok {
		return out
	}
	anys := make([]any, len(args))
	for i, a := range args {
		anys[i] = a
	}
	return p.Sprintf(key, anys...)
}

// FillIn is Fill of the message format with args, but for the argument at
// index at, which is the text Fill gives for the message key and keyArgs:
// written in its place, not made as a text of its own first, for a line of
// two messages that a report writes by the dozen (a die's purpose in its
// line). An index beyond args gives Fill of format and args.
func (p *Printer) FillIn(format string, at int, key string, keyArgs []string, args ...string) string {
	if at < 0 || at >= len(args) {
		return p.Fill(format, args...)
	}
	f, in := p.fillOf(format), p.fillOf(key)
	n, ok := f.sizeIn(args, at, in, keyArgs)
	if !ok {
		// Not all %s: Fill's way, the inner text made first.
		outer := slices.Clone(args)
		outer[at] = p.Fill(key, keyArgs...)
		return p.Fill(format, outer...)
	}
	var b strings.Builder
	b.Grow(n)
	for i, a := range f.args {
		b.WriteString(f.lits[i])
		if a == at {
			in.write(&b, keyArgs)
		} else {
			b.WriteString(args[a])
		}
	}
	b.WriteString(f.lits[len(f.args)])
	return b.String()
}

// sizeIn is size for FillIn: the bytes of the text with args, and the
// text of in with innerArgs for the argument at.
func (t *fill) sizeIn(args []string, at int, in *fill, innerArgs []string) (int, bool) {
	m, ok := in.size(innerArgs)
	if !ok || t == nil {
		return 0, false
	}
	n := t.n
	for _, a := range t.args {
		switch {
		case a == at:
			n += m
		case a >= len(args):
			return 0, false
		default:
			n += len(args[a])
		}
	}
	return n, true
}

// fillOf returns the reading of key's text for Fill: nil when its verbs
// are not all %s or it is a plural table.
func (p *Printer) fillOf(key string) *fill {
	m, ok := p.msgs[key]
	if !ok {
		return parseFill(key) // as the catalogs fall back: to the English key
	}
	return m.fill
}

// A fill is a text whose verbs are all %s or %[n]s, read into its
// literal stretches and the arguments between them.
type fill struct {
	lits []string // lits[i] comes before argument args[i]; the last after all
	args []int
	n    int // the literal stretches' bytes
}

// parseFill reads f; nil if f has another verb.
func parseFill(f string) *fill {
	t := &fill{}
	var lit strings.Builder
	next := 0
	for {
		k := strings.IndexByte(f, '%')
		if k < 0 {
			lit.WriteString(f)
			break
		}
		lit.WriteString(f[:k])
		f = f[k+1:]
		if f != "" && f[0] == '%' {
			lit.WriteByte('%')
			f = f[1:]
			continue
		}
		if f != "" && f[0] == '[' {
			j := strings.IndexByte(f, ']')
			if j < 2 {
				return nil
			}
			k, err := strconv.Atoi(f[1:j])
			if err != nil || k < 1 {
				return nil
			}
			next, f = k-1, f[j+1:]
		}
		if f == "" || f[0] != 's' {
			return nil
		}
		t.lits = append(t.lits, lit.String())
		t.n += lit.Len()
		lit.Reset()
		t.args = append(t.args, next)
		f = f[1:]
		next++
	}
	t.lits = append(t.lits, lit.String())
	t.n += lit.Len()
	return t
}

// apply writes the text with args in its verbs; false if it is nil or
// names an argument args lacks.
func (t *fill) apply(args []string) (string, bool) {
	n, ok := t.size(args)
	if !ok {
		return "", false
	}
	var b strings.Builder
	b.Grow(n)
	t.write(&b, args)
	return b.String(), true
}

// size returns the bytes of the text with args; false if t is nil or
// names an argument args lacks.
func (t *fill) size(args []string) (int, bool) {
	if t == nil {
		return 0, false
	}
	n := t.n
	for _, a := range t.args {
		if a >= len(args) {
			return 0, false
		}
		n += len(args[a])
	}
	return n, true
}

// write writes the text with args, which size has found whole, to b.
func (t *fill) write(b *strings.Builder, args []string) {
	for i, a := range t.args {
		b.WriteString(t.lits[i])
		b.WriteString(args[a])
	}
	b.WriteString(t.lits[len(t.args)])
}

// Text returns the message m in the printer's language.
func (p *Printer) Text(m rules.Message) string { return p.Sprintf(m.Key, m.Args...) }

// Sentence returns the message m as a sentence of its own: begun with a
// capital (in a language that has them) and ended by the language's full
// stop. A refusal is a clause after what it refuses ("JOIN: ..."), or a
// reply's sentence.
func (p *Printer) Sentence(m rules.Message) string {
	t := p.Text(m)
	if r, size := utf8.DecodeRuneInString(t); unicode.IsLower(r) {
		t = string(unicode.ToUpper(r)) + t[size:]
	}
	return p.Sprintf("%s.", t)
}

// Data returns a text of the game's data files (a scenario's title,
// special rules and results) in the printer's language: its translation in
// the catalog scenarios.toml, or the text itself where there is none (a
// scenario file of the operator's own).
func (p *Printer) Data(text string) string { return p.Text(rules.DataMessage(text)) }

// Error returns an error in an order mail as the player reads it:
// "line 3: "MOVE 116/60 62": ..." with its message in his language.
func (p *Printer) Error(e rules.OrderError) string {
	msg := e.Msg
	if e.Why.Key != "" {
		msg = p.Text(e.Why)
	}
	if e.Text == "" {
		return p.Sprintf("line %d: %s", e.Line, msg)
	}
	return p.Sprintf("line %d: %q: %s", e.Line, e.Text, msg)
}

// Side returns the side's name as a title: German, Allied; ドイツ軍, 連合軍.
func (p *Printer) Side(s rules.Side) string {
	switch s {
	case rules.German:
		if p.german != "" {
			return p.german
		}
		return p.Sprintf("German")
	case rules.Allied:
		if p.allied != "" {
			return p.allied
		}
		return p.Sprintf("Allied")
	}
	return string(s)
}

// args gives the arguments that are texts of their own in the language
// (messages, sides), and whole numbers as integers, which print their
// digits alone.
func (p *Printer) args(args []any) []any {
	var out []any
	for i, a := range args {
		var v any
		switch a := a.(type) {
		case rules.Message:
			v = p.Text(a)
		case rules.Side:
			if a == "" {
				continue
			}
			v = p.Side(a)
		case int:
			v = integer(a)
		case int64:
			v = integer(a)
		case int32:
			v = integer(a)
		case uint8:
			v = integer(a)
		default:
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = v
	}
	if out == nil {
		return args
	}
	return out
}

// An integer is a whole number as a message prints it: its digits alone,
// as fmt prints them, never grouped (a year, a game's number, a count of
// bytes read the same in every language), while the message's plural case
// is chosen by the language's rules (CLDR's, in package plural).
type integer int64

// Format implements fmt.Formatter, with the flags and width of the verb.
func (n integer) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), int64(n))
}

// PluralForm implements plural.Interface.
func (n integer) PluralForm(t language.Tag, scale int) (plural.Form, int) {
	i := int64(n)
	if i < 0 {
		i = -i
	}
	return plural.Cardinal.MatchPlural(t, int(i), 0, 0, 0, 0), int(n)
}

// An entry is one message of a catalog file: its text, or its plural
// cases.
type entry struct {
	file  string
	text  string
	cases map[string]string // "one", "other", "=0" ...
	arg   int
}

// load reads the catalogs into printers. A file with an error is left
// out, the others kept: English prints the keys of what it lacks, and
// another language falls back to English (Err tells every error).
func load() {
	var errs []error
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	printers = map[string]*Printer{}
	for _, code := range Codes {
		tag := language.Make(code)
		cat, err := Load(code)
		if err != nil {
			errs = append(errs, err)
		}
		pr := &Printer{code: code, msgs: make(map[string]msg, len(cat))}
		for key, e := range cat {
			if err := set(b, tag, key, e); err != nil {
				errs = append(errs, fmt.Errorf("catalog %s: %q: %w", e.file, key, err))
			}
			if e.cases != nil {
				pr.msgs[key] = msg{plural: true, exact: readExact(e)}
			} else {
				pr.msgs[key] = msg{text: e.text, fill: parseFill(e.text)}
			}
		}
		pr.p = message.NewPrinter(tag, message.Catalog(b))
		pr.german, pr.allied = pr.Side(rules.German), pr.Side(rules.Allied)
		printers[code] = pr
	}
	loadErr = errors.Join(errs...)
}

func set(b *catalog.Builder, tag language.Tag, key string, e entry) error {
	if e.cases == nil {
		return b.SetString(tag, key, e.text)
	}
	var cases []any
	// "other" last, as plural.Selectf wants it.
	for _, c := range sortedCases(e.cases) {
		cases = append(cases, c, e.cases[c])
	}
	return b.Set(tag, key, plural.Selectf(max(e.arg, 1), "", cases...))
}

func sortedCases(m map[string]string) []string {
	var cs []string
	for c := range m {
		if c != "other" {
			cs = append(cs, c)
		}
	}
	slices.Sort(cs)
	if _, ok := m["other"]; ok {
		cs = append(cs, "other")
	}
	return cs
}

// Load reads the catalog of a language: every message of its files, by
// key. A key given in two files is an error.
func Load(code string) (map[string]entry, error) { return loadFS(files, code) }

// loadFS reads the catalog of a language from catalog/CODE in fsys: the
// embedded files, or (for a test that has just written them) the
// package's directory.
func loadFS(fsys fs.FS, code string) (map[string]entry, error) {
	names, err := fs.Glob(fsys, "catalog/"+code+"/*.toml")
	if err != nil {
		return nil, err
	}
	out := map[string]entry{}
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		es, err := parseFile(path.Base(name), data)
		if err != nil {
			errs = append(errs, fmt.Errorf("catalog %s: %w", name, err))
			continue
		}
		for k, e := range es {
			if o, ok := out[k]; ok {
				errs = append(errs, fmt.Errorf("catalog %s: %q is also in %s", name, k, o.file))
				continue
			}
			e.file = path.Join(code, path.Base(name))
			out[k] = e
		}
	}
	return out, errors.Join(errs...)
}

func parseFile(name string, data []byte) (map[string]entry, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, err
	}
	out := make(map[string]entry, len(raw))
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[k] = entry{text: v}
		case map[string]any:
			e := entry{cases: map[string]string{}}
			for c, t := range v {
				switch t := t.(type) {
				case string:
					e.cases[c] = t
				case int64:
					if c != "arg" {
						return nil, fmt.Errorf("%q: %s: a plural case is a string", k, c)
					}
					e.arg = int(t)
				default:
					return nil, fmt.Errorf("%q: %s: want a string", k, c)
				}
			}
			if _, ok := e.cases["other"]; !ok {
				return nil, fmt.Errorf("%q: a plural table needs an \"other\" case", k)
			}
			out[k] = e
		default:
			return nil, fmt.Errorf("%q: want a string or a table of plural cases", k)
		}
	}
	return out, nil
}
