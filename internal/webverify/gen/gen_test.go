package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// committed is where adjudicator/journal keeps the files gen writes.
var committed = filepath.Join("..", "..", "..", "adjudicator", "journal", "verifier")

// The verifier the journal serves is the one the code builds: built
// again, the WebAssembly is the same to the byte, and so are wasm_exec.js
// and the LICENSE.
// A Go build is reproducible for one version of Go, so the test is
// skipped, saying why, when the go command is of another version than
// the one that built the files; with the same version a difference fails:
// go generate ./adjudicator/journal was not run after a change.
func TestVerifierUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("building the verifier takes a minute (-short)")
	}
	v, err := os.ReadFile(filepath.Join(committed, VersionFile))
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimSpace(string(v))
	have, err := goEnv(t.Context(), "GOVERSION")
	if err != nil {
		t.Skipf("no go command to build with: %v", err)
	}
	if have != version {
		t.Skipf("the verifier was built by %s and this is %s: only the same version builds the same bytes", version, have)
	}
	readSources(t)
	b, err := Build(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	gz, err := os.ReadFile(filepath.Join(committed, WasmFile))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatalf("%s: %v", WasmFile, err)
	}
	wasm, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", WasmFile, err)
	}
	if !bytes.Equal(wasm, b.Wasm) {
		t.Errorf("%s is not what the code builds (%d bytes, built %d): run go generate ./adjudicator/journal", WasmFile, len(wasm), len(b.Wasm))
	}
	for name, want := range map[string][]byte{ExecFile: b.Exec, LicenseFile: b.License} {
		have, err := os.ReadFile(filepath.Join(committed, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, want) {
			t.Errorf("%s is not the one of %s: run go generate ./adjudicator/journal", name, version)
		}
	}
	t.Logf("%s: %d bytes of WebAssembly, %d gzipped (the budget is 4 MB)", WasmFile, len(wasm), len(gz))
	if len(gz) > 4<<20 {
		t.Errorf("the verifier is %d bytes gzipped, over the budget of 4 MB", len(gz))
	}
}

// readSources reads every file of the module the verifier is built from.
// The build runs in a go command of its own, whose reads go test does not
// see: without these, a cached pass of this test would stand after a
// change to any of them. go test keeps a result only while the files the
// test's own process read are unchanged.
func readSources(t *testing.T) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", "list", "-deps", "-f",
		`{{if not .Standard}}{{range .GoFiles}}{{$.Dir}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$.Dir}}/{{.}}
{{end}}{{end}}`, Package)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing the verifier's sources: %v", err)
	}
	n := 0
	// A line a file: a path may hold spaces.
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f == "" {
			continue
		}
		if _, err := os.ReadFile(f); err != nil {
			t.Fatalf("reading the verifier's sources: %v", err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("the verifier is built from no file of the module")
	}
}

// Gzip gives the same bytes for the same data: no time or name in the
// header.
func TestGzipReproducible(t *testing.T) {
	data := bytes.Repeat([]byte("titm verify "), 1000)
	a, err := Gzip(data)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Gzip(data)
	if !bytes.Equal(a, b) {
		t.Error("two gzips of the same data differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("header %+v", zr.Header)
	}
	got, _ := io.ReadAll(zr)
	if !bytes.Equal(got, data) {
		t.Error("the data does not come back")
	}
}
