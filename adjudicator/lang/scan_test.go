package lang

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// keyArgs are the functions and methods whose argument at the index given
// is a message key: the places where code hands a text to a Printer or
// makes a rules.Message. A call of one of them with a key that is not a
// string constant is an error of the scan: a key must be findable.
var keyArgs = map[string]int{
	"Sprintf": 0, // a Printer's, not fmt's
	"Fprintf": 1, // likewise
	"M":       0, // rules.M
	"Fill":    0, // a Printer's, with string arguments
	"FillIn":  0, // likewise, the key of the text around the inner one

	"translated": 0, // a die's purpose read as its message (adjudicator/purpose.go)
}

// rulesKeyArgs are more of them, in package rules alone.
var rulesKeyArgs = map[string]int{
	"refuse":   2, // game.refuse(line, ord, format, args...)
	"errorf":   0, // lineParser.errorf(format, args...)
	"fail":     0, // lineParser.fail(format, args...)
	"modifier": 1, // modifier(value, why, rules...): a key without arguments
}

// domains are the source trees scanned and the catalog file each one's
// keys go to. A file in none of them is not scanned.
var domains = []struct{ dir, file string }{
	{"rules/orders_help.go", "help.toml"}, // HELP
	{"rules", "rules.toml"},
	{"adjudicator/lang", "lang.toml"},
	{"adjudicator/picture", "picture.toml"},
	{"adjudicator/referee", "referee.toml"},
	{"adjudicator/purpose.go", "dice.toml"},               // the dice's purposes, shown translated
	{"adjudicator/tournament", "tournament.toml"},         // bids refused, the standings, the settings' words
	{"adjudicator/journal/verifytexts.go", "verify.toml"}, // the verifier's script in the browser
	{"adjudicator/journal", "journal.toml"},               // the web journal's pages and feeds
	{"adjudicator", "report.toml"},                        // the rest of adjudicator: the report, CHECK
	{"mail", "mail.toml"},
	{"internal/webverify", "verify.toml"}, // the verifier's verdicts in the browser
}

// skipDirs are trees of the domains above whose texts no player reads.
var skipDirs = []string{"rules/scenarios"}

// A found key: where it is and the catalog file it belongs in.
type found struct {
	key  string
	pos  string
	file string
}

// scan finds every message key of the code, from the module's root.
func scan(t *testing.T, root string) ([]found, []string) {
	t.Helper()
	var keys []found
	var bad []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			for _, s := range skipDirs {
				if rel == s {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		file := domainOf(rel)
		if file == "" {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name, recv := callee(call)
			i, ok := keyArgs[name]
			if j, in := rulesKeyArgs[name]; in && strings.HasPrefix(rel, "rules/") {
				i, ok = j, true
			}
			if !ok || recv == "fmt" || recv == "errors" || len(call.Args) <= i {
				return true
			}
			pos := fset.Position(call.Pos())
			where := rel + ":" + strconv.Itoa(pos.Line)
			key, ok := constant(call.Args[i])
			if !ok && forwards(call.Args[i]) {
				return true
			}
			if !ok {
				bad = append(bad, where+": the key of "+name+" is not a string constant")
				return true
			}
			keys = append(keys, found{key, where, file})
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	keys = append(keys, templateKeys(t, root)...)
	// A key the journal shares with the mails (a result, a promptness)
	// belongs to the mails' catalog: the journal's keys come last, so
	// that the first place a key is found is the mails'.
	slices.SortStableFunc(keys, func(a, b found) int {
		return cmp.Compare(journalRank(a.file), journalRank(b.file))
	})
	return keys, bad
}

func journalRank(file string) int {
	if file == journalFile {
		return 1
	}
	return 0
}

// journalFile is the catalog of the web journal's texts.
const journalFile = "journal.toml"

// templateKey finds the texts the journal's templates translate: the
// first argument of t, a string constant: {{t "Games"}}, (t "%d dice" .N).
var templateKey = regexp.MustCompile(`[{(]\s*t\s+("(?:[^"\\]|\\.)*")`)

// templateKeys returns the keys of the journal's templates.
func templateKeys(t *testing.T, root string) []found {
	dir := filepath.Join(root, "adjudicator/journal/templates")
	names, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	var out []found
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range templateKey.FindAllStringSubmatch(line, -1) {
				key, err := strconv.Unquote(m[1])
				if err != nil {
					t.Fatalf("%s:%d: %v", name, i+1, err)
				}
				out = append(out, found{key, "adjudicator/journal/templates/" + filepath.Base(name) + ":" + strconv.Itoa(i+1), journalFile})
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no text found in the journal's templates in %s", dir)
	}
	return out
}

func domainOf(rel string) string {
	for _, d := range domains {
		if rel == d.dir || strings.HasPrefix(rel, d.dir+"/") {
			return d.file
		}
	}
	return ""
}

// callee returns the name of the function called and, for a selector, the
// name of what it is selected from.
func callee(c *ast.CallExpr) (name, recv string) {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name, ""
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			recv = id.Name
		}
		return f.Sel.Name, recv
	}
	return "", ""
}

// constant returns the value of a string literal or a concatenation of
// them.
func constant(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := constant(e.X)
		b, ok2 := constant(e.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return constant(e.X)
	}
	return "", false
}

// forwards reports whether a key is a wrapper's own key handed on: the
// parameter key or format, or a message's Key.
func forwards(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "key" || e.Name == "format"
	case *ast.SelectorExpr:
		return e.Sel.Name == "Key"
	}
	return false
}
