package journal

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"titm/adjudicator/lang"
)

// The verifier for the browser: titm verify compiled to WebAssembly
// (internal/webverify), gzipped, with the wasm_exec.js of the Go that
// built it, which loads it. The daemon has no Go toolchain: the files are
// built by go generate and committed, and TestVerifierUpToDate in
// internal/webverify/gen checks that they are what the code builds.
//
//go:generate go run titm/internal/webverify/gen -o verifier
var (
	//go:embed verifier/verify.wasm.gz
	verifierWasmGz []byte
	//go:embed verifier/wasm_exec.js
	verifierExec []byte
	//go:embed templates/verify.js
	verifierScript []byte
)

// The verifier's URLs.
const (
	verifyURL       = "/verify"
	verifyWasmURL   = "/verify/verify.wasm"
	verifyExecURL   = "/verify/wasm_exec.js"
	verifyScriptURL = "/verify/verify.js"
)

const (
	typeJS   = "text/javascript; charset=utf-8"
	typeWasm = "application/wasm"
)

// The scripts are pages as any other, gzipped when asked; their ETags
// are made from their content, which changes only with the binary.
var (
	execPage   = newPage(verifierExec, typeJS, time.Time{}, "wasm-exec", digest(verifierExec))
	scriptPage = newPage(verifierScript, typeJS, time.Time{}, "verify-js", digest(verifierScript))
	// The module's digest names it; its ETags, plain and gzipped, are
	// those of one content sent two ways, as send tells its pages'.
	wasmDigest   = digest(verifierWasmGz)
	wasmPlainTag = etag("verify-wasm", wasmDigest)
	wasmGzTag    = wasmPlainTag + "-gz"
)

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// browserVerify is what the "verify it in your browser" section of a
// page needs: the export the journal offers to fetch (empty: only a file
// the reader chooses), what it is of, and the page's language, in which
// the verifier words its verdict and the script its own sentences.
type browserVerify struct {
	Export string // the URL of the export to fetch and verify
	Of     string // "game" or "tournament", or empty on the verifier's own page
	ID     string
	Lang   string // the page's language: en, ja
	Texts  string // the script's sentences in it, as JSON (verifyTexts)
}

// newBrowserVerify makes the section in the language code.
func newBrowserVerify(export, of, id, code string) browserVerify {
	p := lang.For(code)
	return browserVerify{Export: export, Of: of, ID: id, Lang: p.Code(), Texts: verifyTexts(p)}
}

// VerifyInBrowser is the section of a finished game's page that verifies
// its export in the reader's browser. Export is the one URL the page's
// verifier fetches.
func (v *gameView) VerifyInBrowser() browserVerify {
	return newBrowserVerify(v.Export, "game", v.ID, v.Lang)
}

// VerifyInBrowser is the section of a tournament's page that verifies its
// export in the reader's browser: the public export once it is over, or
// a file the reader has (titm tournament export writes it), for a
// tournament whose log holds its players' addresses and is not published.
func (v *tourView) VerifyInBrowser() browserVerify {
	return newBrowserVerify(v.Export, "tournament", v.ID, v.Lang)
}

// serveVerifyPage serves the verifier's own page, where a reader verifies
// an export file of his choice, of a game or of a tournament.
func (j *Journal) serveVerifyPage(w http.ResponseWriter, r *http.Request) {
	l := j.locOf(r)
	p, err := render(l, "verify.html", struct {
		Title, Feed, Here string
		Verify            browserVerify
	}{Title: l.p.Sprintf("Verify an export"), Here: verifyURL, Verify: newBrowserVerify("", "", "", l.code())}, time.Time{}, "verify-page-"+l.key(), wasmDigest)
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	j.send(w, r, p, "")
}

// serveWasm serves the verifier's WebAssembly module: the gzipped file as
// it is embedded to a browser that accepts gzip (every browser that runs
// WebAssembly does), unzipped as it goes to any other client.
func (j *Journal) serveWasm(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Vary", "Accept-Encoding")
	h.Set("Content-Type", typeWasm)
	gzipped := acceptsGzip(r)
	tag := wasmPlainTag
	if gzipped {
		tag = wasmGzTag
	}
	h.Set("ETag", strconv.Quote(tag))
	if inm := r.Header.Get("If-None-Match"); names(inm, wasmPlainTag) || names(inm, wasmGzTag) {
		// The client holds the module, in this encoding or the other:
		// as good.
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if gzipped {
		h.Set("Content-Encoding", "gzip")
		http.ServeContent(oneWrite{w}, r, "", time.Time{}, bytes.NewReader(verifierWasmGz))
		return
	}
	// A client without gzip is rare (every browser that runs WebAssembly
	// takes it): the module is unzipped as it goes rather than kept
	// unzipped in memory, and ranges are not offered.
	if r.Method == http.MethodHead {
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(verifierWasmGz))
	if err != nil {
		j.serverError(w, r, err)
		return
	}
	if _, err := io.Copy(w, zr); err != nil {
		j.log.Debug("journal: sending the verifier", "err", err)
	}
}

// names reports whether an If-None-Match header names the ETag tag.
func names(inm, tag string) bool {
	for _, t := range strings.Split(inm, ",") {
		if strings.TrimPrefix(strings.TrimSpace(t), "W/") == strconv.Quote(tag) {
			return true
		}
	}
	return false
}
