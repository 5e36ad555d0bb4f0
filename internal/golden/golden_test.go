package golden

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"from empty", "", "a\nb\n", "@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"to empty", "a\n", "", "@@ -1 +0,0 @@\n-a\n"},
		{"one line changed", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"insertion at the start", "a\nb\nc\nd\ne\n", "new\na\nb\nc\nd\ne\n",
			"@@ -1,3 +1,4 @@\n+new\n a\n b\n c\n"},
		{"deletion at the end", "a\nb\nc\nd\ne\n", "a\nb\nc\nd\n",
			"@@ -2,4 +2,3 @@\n b\n c\n d\n-e\n"},
		{"changes six apart share a hunk", "x\n1\n2\n3\n4\n5\n6\ny\n", "X\n1\n2\n3\n4\n5\n6\nY\n",
			"@@ -1,8 +1,8 @@\n-x\n+X\n 1\n 2\n 3\n 4\n 5\n 6\n-y\n+Y\n"},
		{"changes seven apart make two hunks", "x\n1\n2\n3\n4\n5\n6\n7\ny\n", "X\n1\n2\n3\n4\n5\n6\n7\nY\n",
			"@@ -1,4 +1,4 @@\n-x\n+X\n 1\n 2\n 3\n@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-y\n+Y\n"},
		{"newline at the end lost", "a\nb\n", "a\nb",
			"@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"},
		{"newline at the end added", "a", "a\n",
			"@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Diff("old", "new", c.from, c.to)
			want := c.want
			if want != "" {
				want = "--- old\n+++ new\n" + want
			}
			if got != want {
				t.Errorf("Diff(%q, %q):\n%s\nwant:\n%s", c.from, c.to, got, want)
			}
		})
	}
}

// TestDiffRandom checks on random texts that applying the diff to the first
// text gives the second, and that the edit script is a shortest one.
func TestDiffRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(strconv.Itoa(r.IntN(4)) + "\n")
		}
		return b.String()
	}
	for i := range 2000 {
		a, b := text(), text()
		d := Diff("a", "b", a, b)
		got, err := patch(a, d)
		if err != nil || got != b {
			t.Fatalf("case %d: patching %q with\n%s\ngives %q, %v; want %q", i, a, d, got, err, b)
		}
		la, lb := lines(a), lines(b)
		changes := 0
		for _, e := range script(la, lb) {
			if e.kind != ' ' {
				changes++
			}
		}
		if want := len(la) + len(lb) - 2*lcs(la, lb); changes != want {
			t.Fatalf("case %d: %d changes from %q to %q; the shortest has %d", i, changes, a, b, want)
		}
	}
}

// patch applies a unified diff made by Diff, checking every line it keeps
// or deletes.
func patch(from, diff string) (string, error) {
	if diff == "" {
		return from, nil
	}
	src := lines(from)
	dl := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")[2:]
	var out []string
	next := 0 // the next line of src not yet copied
	for len(dl) > 0 {
		var start, n, s2, n2 int
		if _, err := fmt.Sscanf(normalRange(dl[0]), "@@ -%d,%d +%d,%d @@", &start, &n, &s2, &n2); err != nil {
			return "", fmt.Errorf("hunk header %q: %v", dl[0], err)
		}
		if n > 0 {
			start-- // to the 0-based index of the hunk's first line
		}
		out = append(out, src[next:start]...)
		next = start
		dl = dl[1:]
		for len(dl) > 0 && !strings.HasPrefix(dl[0], "@@") {
			l := dl[0][1:] + "\n"
			if len(dl) > 1 && dl[1] == `\ No newline at end of file` {
				l = dl[0][1:]
				dl = dl[1:]
			}
			switch dl[0][0] {
			case ' ', '-':
				if next >= len(src) || src[next] != l {
					return "", fmt.Errorf("line %d is %q, the diff has %q", next+1, src[next:], l)
				}
				if dl[0][0] == ' ' {
					out = append(out, l)
				}
				next++
			case '+':
				out = append(out, l)
			}
			dl = dl[1:]
		}
	}
	return strings.Join(append(out, src[next:]...), ""), nil
}

// normalRange gives a hunk header's ranges both numbers, as "-3" for "-3,1".
func normalRange(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2; i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.Join(f, " ")
}

// lcs returns the length of a longest common subsequence of a and b.
func lcs(a, b []string) int {
	l := make([][]int, len(a)+1)
	for i := range l {
		l[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	return l[0][0]
}

// recorder is a testing.TB that keeps what a test reports, and like
// testing.T ends the goroutine on Fatal.
type recorder struct {
	testing.TB
	name   string
	errors []string
	fatal  bool
}

func (r *recorder) Name() string { return r.name }
func (r *recorder) Helper()      {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
	runtime.Goexit()
}

// run calls check as a test named TestThing/case would, and returns what it
// reported.
func run(path, got string, update bool) *recorder {
	r := &recorder{name: "TestThing/case"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r, path, got, update)
	}()
	<-done
	return r
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.txt")
	changed := filepath.Join(dir, "changed.txt")
	for _, f := range []string{same, changed} {
		if err := os.WriteFile(f, []byte("one\ntwo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name      string
		path, got string
		update    bool
		fatal     bool
		report    []string // what the one report must contain; none if nil
		file      string   // what the file must hold afterwards
	}{
		{name: "same", path: same, got: "one\ntwo\n", file: "one\ntwo\n"},
		{name: "differs", path: changed, got: "one\n2\n",
			report: []string{changed + " differs", "go test ./internal/golden -run '^TestThing$' -update",
				"--- " + changed + "\n+++ got\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"},
			file: "one\ntwo\n"},
		{name: "missing", path: filepath.Join(dir, "missing.txt"), got: "x\n", fatal: true,
			report: []string{"missing.txt", "-update"}},
		{name: "update", path: changed, got: "one\n2\n", update: true, file: "one\n2\n"},
		{name: "update writes a new file", path: filepath.Join(dir, "new.txt"), got: "x\n", update: true, file: "x\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(c.path, c.got, c.update)
			if r.fatal != c.fatal {
				t.Errorf("fatal %v, want %v", r.fatal, c.fatal)
			}
			switch {
			case c.report == nil && len(r.errors) > 0:
				t.Errorf("reported %q", r.errors)
			case c.report != nil && len(r.errors) != 1:
				t.Errorf("reported %q, want one report", r.errors)
			case c.report != nil:
				for _, s := range c.report {
					if !strings.Contains(r.errors[0], s) {
						t.Errorf("report %q lacks %q", r.errors[0], s)
					}
				}
			}
			if c.fatal {
				return
			}
			b, err := os.ReadFile(c.path)
			if err != nil || string(b) != c.file {
				t.Errorf("the file holds %q, %v; want %q", b, err, c.file)
			}
		})
	}
}
