// Package golden compares what a test made with a golden file kept in the
// repository, and on a difference fails the test with a unified diff, so
// that the change can be read in the test's output instead of by running
// the test again with -update and asking git.
//
// A test binary that imports it has the -update flag: with it Check writes
// what the test made to the golden file instead of comparing.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files with what the tests make")

// Check compares got with the golden file at path (relative to the test's
// package directory, where go test runs it). With -update it writes got to
// the file instead. On a difference it marks the test failed and logs a
// unified diff from the file to got; the test goes on.
func Check(t testing.TB, path, got string) {
	t.Helper()
	check(t, path, got, *update)
}

func check(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, rerun(t))
	}
	if d := Diff(path, "got", string(want), got); d != "" {
		t.Errorf("%s differs from what the test made; if the change is meant, %s rewrites it:\n%s", path, rerun(t), d)
	}
}

// rerun returns the command that runs the test again with -update.
func rerun(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test %s -run '^%s$' -update", packageDir(), name)
}

// packageDir returns the test's package directory as go test names it from
// the module's root ("./rules"), or "." if the root is not found.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
