package lang

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"

	"titm/rules/scenarios"
)

var update = flag.Bool("update", false, "write catalog/en/*.toml from the code's keys")

// TestCatalogsLoad: the embedded catalogs parse, with no key in two files.
func TestCatalogsLoad(t *testing.T) {
	if err := Err(); err != nil {
		t.Fatal(err)
	}
}

// A catalog file with an error is left out and named, and so is a key
// given twice; the rest is kept.
func TestCatalogLoadErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"catalog/ja/a.toml": {Data: []byte("\"one\" = \"一\"\n\"two\" = \"二\"\n")},
		"catalog/ja/b.toml": {Data: []byte("\"three\" = \n")},
		"catalog/ja/c.toml": {Data: []byte("\"two\" = \"に\"\n\"four\" = \"四\"\n")},
	}
	got, err := loadFS(fsys, Japanese)
	if got["one"].text != "一" || got["two"].text != "二" || got["four"].text != "四" {
		t.Errorf("the good entries are not all kept: %v", got)
	}
	for _, want := range []string{"catalog/ja/b.toml", `"two" is also in ja/a.toml`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error %v does not name %q", err, want)
		}
	}
}

// TestCatalogsComplete: every key of the code is in the English catalog,
// in the file of its domain, and nothing else is; the Japanese catalog has
// exactly the English keys; and each translation has its key's
// placeholders, for the same arguments (a translation may take them in
// another order, as %[2]s).
func TestCatalogsComplete(t *testing.T) {
	keys, bad := scan(t, "../..")
	for _, b := range bad {
		t.Error(b)
	}
	// A text of the data that the code also names is the data's.
	keys = append(dataKeys(t), keys...)
	want := map[string]map[string]string{} // file → key → where
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k.key] {
			continue
		}
		seen[k.key] = true
		if want[k.file] == nil {
			want[k.file] = map[string]string{}
		}
		want[k.file][k.key] = k.pos
	}
	en, err := Load(English)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		writeEnglish(t, want, en)
		if en, err = loadFS(os.DirFS("."), English); err != nil {
			t.Fatal(err)
		}
	}
	for file, ks := range want {
		for k, pos := range ks {
			e, ok := en[k]
			switch {
			case !ok:
				t.Errorf("%s: %q is not in the English catalog (go test ./adjudicator/lang -update)", pos, k)
			case filepath.Base(e.file) != file:
				t.Errorf("%s: %q is in en/%s, not en/%s (-update)", pos, k, filepath.Base(e.file), file)
			}
		}
	}
	for k, e := range en {
		if _, ok := want[filepath.Base(e.file)][k]; !ok {
			t.Errorf("%s: %q is not used by the code (-update)", e.file, k)
		}
	}
	ja, err := Load(Japanese)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range sortedKeys(en) {
		j, ok := ja[k]
		if !ok {
			t.Errorf("ja/%s: %q has no translation", filepath.Base(en[k].file), k)
			continue
		}
		if filepath.Base(j.file) != filepath.Base(en[k].file) {
			t.Errorf("ja/%s: %q belongs in ja/%s", filepath.Base(j.file), k, filepath.Base(en[k].file))
		}
		want := placeholders(k)
		for _, e := range []entry{en[k], j} {
			for c, text := range e.texts() {
				if got := placeholders(text); !slices.Equal(got, want) {
					t.Errorf("%s: %q%s: the placeholders %v differ from the key's %v", e.file, k, c, got, want)
				}
				// A player reads the same rule numbers in every language.
				if got, want := sortedRefs(text), sortedRefs(k); !slices.Equal(got, want) {
					t.Errorf("%s: %q%s: cites the rules %v, the key %v", e.file, k, c, got, want)
				}
			}
		}
	}
	for _, k := range sortedKeys(ja) {
		if _, ok := en[k]; !ok {
			t.Errorf("%s: %q is not an English message", ja[k].file, k)
		}
	}
}

// ruleRefs finds the rule numbers a text cites: (8.34), (9.52, 9.54),
// (6.0 IX, 12.11), (9.14, B5).
var ruleRefs = regexp.MustCompile(`\b(?:\d+\.\d+(?: [IVX]+)?|B\d+)\b`)

// sortedRefs returns the rule numbers a text cites, in order of number
// (a translation may cite them in another order).
func sortedRefs(s string) []string {
	return slices.Sorted(slices.Values(ruleRefs.FindAllString(s, -1)))
}

// dataKeys are the texts of the shipped scenarios that a player reads
// (Printer.Data): their titles, special rules and results.
func dataKeys(t *testing.T) []found {
	var out []found
	for _, n := range scenarios.Names {
		s, err := scenarios.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		texts := append([]string{s.Title}, s.Rules...)
		for _, o := range s.Victory.Outcomes {
			texts = append(texts, o.Result)
		}
		for _, l := range s.Victory.Levels {
			texts = append(texts, l.Result)
		}
		for _, g := range s.OOB.Groups {
			texts = append(texts, g.Name)
		}
		for _, x := range texts {
			out = append(out, found{x, "rules/scenarios/" + n + ".toml", dataFile})
		}
	}
	return out
}

// dataFile is the catalog of the scenarios' texts.
const dataFile = "scenarios.toml"

// texts are the texts of an entry by their plural case ("" for a plain
// text). A case other than "other" may leave out the count ("one hit").
func (e entry) texts() map[string]string {
	if e.cases == nil {
		return map[string]string{"": e.text}
	}
	return map[string]string{" other": e.cases["other"]}
}

// placeholders returns the verbs of a format with the argument each takes
// ("1:d", "2:s"), sorted: the same for a translation that takes them in
// another order.
func placeholders(f string) []string {
	var out []string
	arg := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		for i < len(f) && strings.IndexByte("+-# 0123456789.*", f[i]) >= 0 {
			i++
		}
		if i < len(f) && f[i] == '[' {
			j := strings.IndexByte(f[i:], ']')
			if j > 0 {
				if n, err := strconv.Atoi(f[i+1 : i+j]); err == nil {
					arg = n - 1
				}
				i += j + 1
			}
		}
		for i < len(f) && strings.IndexByte("+-# 0123456789.*", f[i]) >= 0 {
			i++
		}
		if i < len(f) {
			arg++
			out = append(out, fmt.Sprintf("%d:%c", arg, f[i]))
		}
	}
	sort.Strings(out)
	return out
}

func sortedKeys(m map[string]entry) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// writeEnglish writes the English catalog: each file its domain's keys,
// sorted, as themselves, but for the plural tables it has already.
func writeEnglish(t *testing.T, want map[string]map[string]string, en map[string]entry) {
	t.Helper()
	for _, d := range append(domains, struct{ dir, file string }{"rules/scenarios", dataFile}) {
		var b bytes.Buffer
		fmt.Fprintf(&b, "# The English texts of %s. Made by go test ./adjudicator/lang -update\n", d.dir)
		b.WriteString("# from the code's keys: edit only the plural tables (see package lang).\n")
		var ks []string
		for k := range want[d.file] {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		var tables []string
		for _, k := range ks {
			if e, ok := en[k]; ok && e.cases != nil {
				tables = append(tables, k)
				continue
			}
			fmt.Fprintf(&b, "%s = %s\n", quote(k), quote(k))
		}
		for _, k := range tables {
			e := en[k]
			fmt.Fprintf(&b, "\n[%s]\n", quote(k))
			if e.arg > 1 {
				fmt.Fprintf(&b, "arg = %d\n", e.arg)
			}
			for _, c := range sortedCases(e.cases) {
				fmt.Fprintf(&b, "%s = %s\n", quote(c), quote(e.cases[c]))
			}
		}
		if len(ks) == 0 {
			continue
		}
		if err := os.WriteFile(filepath.Join("catalog/en", d.file), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// quote writes s as a TOML basic string.
func quote(s string) string {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(map[string]string{"k": s}); err != nil {
		panic(err)
	}
	_, v, _ := strings.Cut(strings.TrimSpace(b.String()), " = ")
	return v
}
