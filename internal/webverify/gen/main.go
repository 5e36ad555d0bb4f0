// Command gen builds the journal's verifier for the browser: the
// internal/webverify/wasm command compiled to WebAssembly and gzipped,
// with the wasm_exec.js of the same Go distribution, which loads it, the
// distribution's LICENSE, under which both are given, and the Go version
// that built them. adjudicator/journal runs it through go
// generate:
//
//	go run titm/internal/webverify/gen -o verifier
//
// The journal embeds the files and serves them; the daemon has no Go
// toolchain to build them when it runs. The build is reproducible
// (-trimpath, no VCS stamp, no symbol table), so the same Go version
// builds the same bytes, which gen's test checks against the files
// committed.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The files gen writes in its directory.
const (
	WasmFile    = "verify.wasm.gz"
	ExecFile    = "wasm_exec.js"
	VersionFile = "GOVERSION"
	// LicenseFile is the Go distribution's LICENSE, under which
	// wasm_exec.js and the Go runtime in the module are given: the file
	// wasm_exec.js names.
	LicenseFile = "LICENSE"
)

// Package is the command compiled to WebAssembly.
const Package = "titm/internal/webverify/wasm"

func main() {
	out := flag.String("o", "", "the directory to write "+WasmFile+", "+ExecFile+", "+LicenseFile+" and "+VersionFile+" in")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -o DIR")
		os.Exit(2)
	}
	b, err := Build(context.Background())
	if err == nil {
		err = b.Write(*out)
	}
	if err != nil {
		slog.Error("building the verifier for the browser", "err", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes of WebAssembly, %d gzipped, built by %s\n", filepath.Join(*out, WasmFile), len(b.Wasm), len(b.Gzipped), b.Version)
}

// A Built is the verifier as built.
type Built struct {
	Wasm    []byte // the WebAssembly module
	Gzipped []byte // Wasm gzipped, as the journal serves it
	Exec    []byte // the distribution's wasm_exec.js
	License []byte // the distribution's LICENSE
	Version string // the Go version that built it, as go1.26.8
}

// Build compiles the verifier with the go command on the PATH.
func Build(ctx context.Context) (*Built, error) {
	version, err := goEnv(ctx, "GOVERSION")
	if err != nil {
		return nil, err
	}
	root, err := goEnv(ctx, "GOROOT")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "titm-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	wasm := filepath.Join(dir, "verify.wasm")
	// -trimpath and -buildvcs=false keep the build directory and the
	// commit out of the binary, so that it is the same for everyone with
	// the same Go; -s -w drop the symbol table and DWARF, a third of its
	// size.
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", wasm, Package)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s: %w\n%s", Package, err, msg)
	}
	b := &Built{Version: version}
	if b.Wasm, err = os.ReadFile(wasm); err != nil {
		return nil, err
	}
	if b.Gzipped, err = Gzip(b.Wasm); err != nil {
		return nil, err
	}
	// wasm_exec.js sits in lib/wasm since Go 1.24, in misc/wasm before.
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if b.Exec, err = os.ReadFile(filepath.Join(root, p)); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the Go distribution's wasm_exec.js: %w", err)
	}
	if b.License, err = os.ReadFile(filepath.Join(root, "LICENSE")); err != nil {
		return nil, fmt.Errorf("the Go distribution's LICENSE: %w", err)
	}
	return b, nil
}

// Gzip compresses data as the journal serves it: the best compression,
// and no name or time in the header, so that the same data gives the same
// file.
func Gzip(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes the files into dir.
func (b *Built) Write(dir string) error {
	for name, data := range map[string][]byte{WasmFile: b.Gzipped, ExecFile: b.Exec, LicenseFile: b.License, VersionFile: []byte(b.Version + "\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func goEnv(ctx context.Context, name string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
