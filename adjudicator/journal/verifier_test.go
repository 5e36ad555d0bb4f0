package journal

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"titm/internal/playout"
	"titm/internal/waitfor"

	"titm/adjudicator"
	"titm/adjudicator/tournament"
	"titm/internal/browser"
	"titm/internal/golden"
	"titm/rules/scenarios"
)

// playedOut makes a game of a scenario and plays it to its end, every
// unit attacking where it can.
func playedOut(t testing.TB, scenario, id string) *memSource {
	t.Helper()
	g, log, err := playout.Game(scenario, id, 3)
	if err != nil {
		t.Fatal(err)
	}
	return &memSource{g: g, log: log}
}

// get asks the journal for path with the request's headers.
func get(j *Journal, method, path string, header map[string]string) *http.Response {
	r := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	j.ServeHTTP(w, r)
	return w.Result()
}

// The verifier is served: gzipped to a browser, as built; unzipped to a
// client that does not take gzip; not again to one that has it.
func TestVerifierServed(t *testing.T) {
	j := New(played(t, 2), nil)
	resp := get(j, "GET", verifyWasmURL, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	gz, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/wasm" || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gz, verifierWasmGz) {
		t.Fatalf("gzipped: %d %v, %d bytes", resp.StatusCode, resp.Header, len(gz))
	}
	t.Logf("the verifier: %d bytes gzipped", len(gz))
	if len(gz) > 4<<20 {
		t.Errorf("the verifier is %d bytes gzipped, over the budget of 4 MB", len(gz))
	}
	tag := resp.Header.Get("ETag")
	if resp := get(j, "GET", verifyWasmURL, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": tag}); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", resp.StatusCode)
	}
	resp = get(j, "GET", verifyWasmURL, nil)
	plain, _ := io.ReadAll(resp.Body)
	zr, err := gzip.NewReader(bytes.NewReader(verifierWasmGz))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(zr)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(plain, want) || !bytes.HasPrefix(plain, []byte("\x00asm")) {
		t.Errorf("plain: %d %v, %d bytes", resp.StatusCode, resp.Header, len(plain))
	}
	if resp.Header.Get("ETag") == tag {
		t.Error("the plain and the gzipped module have one ETag")
	}
	// A client that holds either encoding holds the module.
	for _, tt := range []struct{ encoding, tag string }{{"", tag}, {"", resp.Header.Get("ETag")}, {"gzip", resp.Header.Get("ETag")}, {"gzip", `"j0-other", W/` + tag}} {
		if resp := get(j, "GET", verifyWasmURL, map[string]string{"Accept-Encoding": tt.encoding, "If-None-Match": tt.tag}); resp.StatusCode != http.StatusNotModified {
			t.Errorf("Accept-Encoding %q, If-None-Match %s: %d", tt.encoding, tt.tag, resp.StatusCode)
		}
	}
	for _, path := range []string{verifyExecURL, verifyScriptURL} {
		resp := get(j, "GET", path, nil)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != typeJS || len(body) < 1000 {
			t.Errorf("%s: %d %v, %d bytes", path, resp.StatusCode, resp.Header, len(body))
		}
	}
	if resp := get(j, "HEAD", verifyWasmURL, map[string]string{"Accept-Encoding": "gzip"}); resp.StatusCode != 200 {
		t.Errorf("HEAD: %d", resp.StatusCode)
	}
}

// The pages that offer to verify in the browser: a finished game's, with
// its export's URL, and the verifier's own, with none; not a game in play,
// whose export is not published.
func TestVerifySection(t *testing.T) {
	for _, tt := range []struct {
		name, path string
		n          int
		want       string // the section's data-export, or "" for none
		section    bool
	}{
		{"a finished game", "/games/intro-1", -1, `data-export="/games/intro-1/export.json"`, true},
		{"a game in play", "/games/intro-1", 4, "", false},
		{"the verifier's page", "/verify", 4, `data-export=""`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, page := body(t, New(played(t, tt.n), nil), tt.path)
			if code != 200 {
				t.Fatalf("status %d", code)
			}
			if got := strings.Contains(page, "data-verifier"); got != tt.section {
				t.Fatalf("the section is there: %v", got)
			}
			if tt.section && (!strings.Contains(page, tt.want) || !strings.Contains(page, `src="/verify/verify.js"`) || !strings.Contains(page, `src="/verify/wasm_exec.js"`)) {
				t.Errorf("no %s or no scripts:\n%s", tt.want, page)
			}
		})
	}
}

// The page gives the verifier's script its language and its sentences in
// it: the Japanese with no English word, each with the slots the English
// has, which the script fills in.
func TestVerifyTexts(t *testing.T) {
	sc, err := scenarios.Load("intro")
	if err != nil {
		t.Fatal(err)
	}
	j := New(played(t, 4), nil)
	texts := map[string]map[string]string{}
	for _, tt := range []struct{ code, path, header string }{{"en", "/verify", ""}, {"ja", "/verify", "ja"}, {"ja", "/verify?lang=ja", "en"}} {
		resp := get(j, "GET", tt.path, map[string]string{"Accept-Language": tt.header})
		page, _ := io.ReadAll(resp.Body)
		m := regexp.MustCompile(`data-lang="([a-z]*)" data-texts="([^"]*)"`).FindSubmatch(page)
		if resp.StatusCode != 200 || m == nil {
			t.Fatalf("%s (Accept-Language %q): %d, no data-lang and data-texts", tt.path, tt.header, resp.StatusCode)
		}
		if string(m[1]) != tt.code {
			t.Fatalf("%s (Accept-Language %q): the verifier in %q, want %q", tt.path, tt.header, m[1], tt.code)
		}
		var got map[string]string
		if err := json.Unmarshal([]byte(html.UnescapeString(string(m[2]))), &got); err != nil {
			t.Fatalf("%s: data-texts: %v", tt.path, err)
		}
		texts[tt.code] = got
	}
	slots := regexp.MustCompile(`\{\d+\}`)
	if len(texts["en"]) < 10 || len(texts["en"]) != len(texts["ja"]) {
		t.Fatalf("%d English sentences, %d Japanese", len(texts["en"]), len(texts["ja"]))
	}
	for name, en := range texts["en"] {
		ja := texts["ja"][name]
		if en == "" || ja == "" || en == ja {
			t.Errorf("%s: %q, %q", name, en, ja)
		}
		a, b := slots.FindAllString(en, -1), slots.FindAllString(ja, -1)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) || strings.Contains(en, "%") || strings.Contains(ja, "%") {
			t.Errorf("%s: the slots of %q and %q differ", name, en, ja)
		}
		if w := golden.EnglishWords(slots.ReplaceAllString(ja, " "), sc); len(w) > 0 {
			t.Errorf("%s: English in %q: %q", name, ja, w)
		}
	}
}

// forgeDie changes the first die of the first impulse that rolled one,
// and rebuilds the hash chain after it (every hash, prev and the head),
// so that only the replay can tell. It returns the record changed.
func forgeDie(t testing.TB, x *adjudicator.Export) int {
	t.Helper()
	seq := -1
	for i, r := range x.Records {
		if r.Kind == adjudicator.KindImpulse && len(r.Dice) > 0 {
			r.Dice = append([]adjudicator.Roll(nil), r.Dice...)
			r.Dice[0].Value = r.Dice[0].Value%6 + 1
			x.Records[i], seq = r, i
			break
		}
	}
	if seq < 0 {
		t.Fatal("no impulse rolled a die")
	}
	prev := ""
	for i := range x.Records {
		x.Records[i].Prev = prev
		x.Records[i].Hash = adjudicator.RecordHash(x.Records[i])
		prev = x.Records[i].Hash
	}
	x.Head = prev
	return seq
}

// verdict is what the page's verifier shows, as the test reads it.
type verdict struct {
	OK     string  // "true", "false", or "error" when the verifier could not run
	Seq    int     // the record that fails, -1 for none
	Head   string  // the head computed
	MS     float64 // the verification, in milliseconds
	LoadMS float64 // the verifier's loading and start, in milliseconds
	Text   string
}

// TestVerifyInBrowser runs the journal's verifier in headless Chromium on
// a whole campaign game: the journal's export of it verifies, and shows
// the head the verifier computed, which is the game's; the same export
// from a file verifies; the export with a die changed and its hash chain
// rebuilt, from a file, is rejected, naming the record; a tournament's
// export verifies on /verify, and the forgery fails there too, and so does
// a file that is no export; a head given is looked for in the log. It logs how long the verification took in
// the browser (the budget is 2 s for a campaign), by the clock and in the
// main thread's CPU time, and how long the verifier took to load; with
// TITM_SCREENSHOTS set, it saves screenshots of the verdicts there.
func TestVerifyInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole campaign and runs Chromium (-short)")
	}
	start := time.Now()
	src := playedOut(t, "campaign", "campaign-1")
	x := adjudicator.MakeExport(src.g, src.log)
	t.Logf("a campaign played out in %v: %d records", time.Since(start).Round(time.Millisecond), len(x.Records))
	srv := httptest.NewServer(New(src, nil))
	defer srv.Close()

	b := browser.Require(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	if err := b.Navigate(ctx, srv.URL+"/games/campaign-1"); err != nil {
		t.Fatal(err)
	}
	// shot saves a screenshot of the page into $TITM_SCREENSHOTS, when
	// set, to be looked at.
	shot := func(name string) {
		if dir := os.Getenv("TITM_SCREENSHOTS"); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := b.Screenshot(ctx, filepath.Join(dir, name+".png")); err != nil {
				t.Fatal(err)
			}
		}
	}
	vp := verifyPage{t, b, ctx}
	poll, wait, clickFetch, chooseFile := vp.poll, vp.wait, vp.clickFetch, vp.chooseFile

	// The verifier is fetched as the reader comes near the form (here,
	// the mouse moved onto it), and is ready by his click.
	var at struct{ X, Y float64 }
	if err := b.Eval(ctx, `(() => {
		const f = document.querySelector("[data-verifier] form");
		f.scrollIntoView();
		const r = f.getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2};
	})()`, &at); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": at.X, "y": at.Y}, nil); err != nil {
		t.Fatal(err)
	}
	var loaded float64
	poll("the verifier loaded as the mouse came onto the form", `+document.querySelector("[data-verifier]").dataset.loaded || null`, &loaded)
	// The time the page's main thread spends, counted in its own CPU time,
	// which other programs on the machine do not lengthen as they do the
	// time on the clock.
	if err := b.Call(ctx, "Performance.enable", map[string]any{"timeDomain": "threadTicks"}, nil); err != nil {
		t.Fatal(err)
	}
	busy := func() float64 {
		var r struct {
			Metrics []struct {
				Name  string
				Value float64
			}
		}
		if err := b.Call(ctx, "Performance.getMetrics", nil, &r); err != nil {
			t.Fatal(err)
		}
		for _, m := range r.Metrics {
			if m.Name == "TaskDuration" {
				return m.Value * 1000
			}
		}
		t.Fatal("no TaskDuration among the page's metrics")
		return 0
	}

	// The journal's export, fetched by the page.
	cpu := busy()
	v := wait(clickFetch)
	cpu = busy() - cpu
	if v.OK != "true" || v.Head != x.Head || v.Seq != -1 || !strings.Contains(v.Text, "Verified in your browser") || !strings.Contains(v.Text, x.Head) {
		t.Fatalf("the journal's export of a campaign: %+v", v)
	}
	// The budget is 2 s for a campaign: logged, not asserted, as the time
	// on the clock says more of the machine's load than of the code. The
	// main thread's CPU time and the load average go with it.
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("the campaign's export (%d records) verified in Chromium in %.0f ms (the main thread busy %.0f ms of its CPU time, the export's fetch included); the verifier loaded in %.0f ms; load average %s",
		len(x.Records), v.MS, cpu, loaded, strings.TrimSpace(string(load)))

	dir := t.TempDir()
	write := func(name string, x *adjudicator.Export) string {
		data, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// The same export as a file of the reader's.
	real := write("campaign-1.json", x)
	cpu = busy()
	v = wait(chooseFile(real))
	cpu = busy() - cpu
	if v.OK != "true" || v.Head != x.Head || !strings.Contains(v.Text, "the file campaign-1.json") {
		t.Fatalf("the export from a file: %+v", v)
	}
	t.Logf("verified again, from a file, in %.0f ms (the main thread busy %.0f ms)", v.MS, cpu)

	// Forged, with the chain rebuilt.
	forged := adjudicator.MakeExport(src.g, src.log)
	forged.Records = append([]adjudicator.Record(nil), forged.Records...)
	seq := forgeDie(t, forged)
	if forged.Head == x.Head {
		t.Fatal("the forgery did not change the head")
	}
	bad := write("forged.json", forged)
	v = wait(chooseFile(bad))
	if v.OK != "false" || v.Seq != seq || v.Head != "" || !strings.Contains(v.Text, "NOT verified in your browser") || !strings.Contains(v.Text, fmt.Sprintf("record %d (impulse", seq)) {
		t.Fatalf("a die of record %d changed, the chain rebuilt: %+v", seq, v)
	}
	t.Logf("the forgery rejected: %s", strings.SplitN(v.Text, "\n", 2)[0])

	// A tournament's export, on the verifier's own page.
	if err := b.Navigate(ctx, srv.URL+"/verify"); err != nil {
		t.Fatal(err)
	}
	tx := tourExport(t)
	data, err := json.Marshal(tx)
	if err != nil {
		t.Fatal(err)
	}
	tour := filepath.Join(dir, "t-1.json")
	if err := os.WriteFile(tour, data, 0o600); err != nil {
		t.Fatal(err)
	}
	v = wait(chooseFile(tour))
	if v.OK != "true" || v.Head != tx.Head || !strings.Contains(v.Text, "Verified in your browser (the file t-1.json): tournament t-1: ") {
		t.Fatalf("a tournament's export: %+v", v)
	}
	t.Logf("a tournament's export verified in %.0f ms", v.MS)
	shot("verify-tournament")
	// The forgery there too; the page is small enough to picture whole.
	if v = wait(chooseFile(bad)); v.OK != "false" || v.Seq != seq {
		t.Fatalf("the forgery on /verify: %+v", v)
	}
	shot("verify-forged")
	// A file that is no export: it says so.
	junk := filepath.Join(dir, "page.html")
	if err := os.WriteFile(junk, []byte("<html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v = wait(chooseFile(junk)); v.OK != "false" || v.Seq != -1 || !strings.Contains(v.Text, "not an export") {
		t.Fatalf("a file that is no export: %+v", v)
	}
	// A receipt: the head a report printed, through which the log passes;
	// and one of another log.
	for _, tt := range []struct {
		head, ok, want string
	}{
		{x.Records[10].Hash, "true", "The head you gave is a record's hash of this log."},
		{strings.Repeat("ab", 32), "false", "no record of the log has the hash " + strings.Repeat("ab", 32)},
	} {
		if err := b.Eval(ctx, fmt.Sprintf(`document.querySelector("[data-verifier] input[name=head]").value = %q`, tt.head), nil); err != nil {
			t.Fatal(err)
		}
		if v = wait(chooseFile(real)); v.OK != tt.ok || !strings.Contains(v.Text, tt.want) {
			t.Errorf("the head %s: %+v", tt.head, v)
		}
	}
}

// TestVerifyInBrowserJapanese: a Japanese reader's browser (Accept-Language:
// ja) verifies a finished game's export on its page, and the verdict is
// Japanese, with no English word but the ids the export writes; a forgery,
// the chain rebuilt, is refused in Japanese naming its record; on /verify
// with ?lang=ja (the browser asking for English) a tournament's export
// verifies, and a head not in the log is refused, in Japanese. With
// TITM_SCREENSHOTS set, it saves screenshots of these two verdicts there
// (the page is small enough to picture whole).
func TestVerifyInBrowserJapanese(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game and runs Chromium (-short)")
	}
	sc, err := scenarios.Load("three-days")
	if err != nil {
		t.Fatal(err)
	}
	src := playedOut(t, "three-days", "three-1")
	x := adjudicator.MakeExport(src.g, src.log)
	srv := httptest.NewServer(New(src, nil))
	defer srv.Close()
	b := browser.Require(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	language := func(l string) {
		if err := b.Call(ctx, "Network.enable", map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Call(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": l}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	vp := verifyPage{t, b, ctx}
	// japanese checks a verdict: what it says, and no English in it but
	// the ids given.
	japanese := func(what string, v verdict, want []string, ids ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(v.Text, w) {
				t.Errorf("%s: no %q in the verdict:\n%s", what, w, v.Text)
			}
		}
		if words := golden.EnglishWords(v.Text, sc, ids...); len(words) > 0 {
			t.Errorf("%s: English in the Japanese verdict: %q\n%s", what, words, v.Text)
		}
	}

	language("ja")
	if err := b.Navigate(ctx, srv.URL+"/games/three-1"); err != nil {
		t.Fatal(err)
	}
	var page struct{ HTML, Box string }
	if err := b.Eval(ctx, `({HTML: document.documentElement.lang, Box: document.querySelector("[data-verifier]").dataset.lang})`, &page); err != nil {
		t.Fatal(err)
	}
	if page.HTML != "ja" || page.Box != "ja" {
		t.Fatalf("the page is in %q, its verifier in %q", page.HTML, page.Box)
	}
	v := vp.wait(vp.clickFetch)
	if v.OK != "true" || v.Head != x.Head || v.Seq != -1 {
		t.Fatalf("the journal's export: %+v", v)
	}
	japanese("the journal's export", v, []string{"ブラウザで検証済み (ジャーナルのエクスポート): ゲーム three-1: インパルス", "検証プログラムがレコードから計算したログヘッド: " + x.Head + "。最後に受け取ったメールのログヘッドと比べてください。", "three-1: " + strconv.Itoa(len(x.Records)) + "レコード、確認に"}, "three-1")

	dir := t.TempDir()
	forged := adjudicator.MakeExport(src.g, src.log)
	forged.Records = append([]adjudicator.Record(nil), forged.Records...)
	seq := forgeDie(t, forged)
	data, err := json.Marshal(forged)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "forged.json")
	if err := os.WriteFile(bad, data, 0o600); err != nil {
		t.Fatal(err)
	}
	v = vp.wait(vp.chooseFile(bad))
	if v.OK != "false" || v.Seq != seq || v.Head != "" {
		t.Fatalf("a die of record %d changed, the chain rebuilt: %+v", seq, v)
	}
	japanese("the forgery", v, []string{"ブラウザで【検証失敗】 (ファイル forged.json): ゲーム three-1: レコード" + strconv.Itoa(seq) + " (impulse ",
		"最初に一致しないのはレコード" + strconv.Itoa(seq) + " (impulse) です: dice[0].roll がシードから出るダイスの目と異なります"},
		"three-1", "forged.json", "impulse", "dice[0].roll")
	t.Logf("the forgery refused in Japanese: %s", strings.SplitN(v.Text, "\n", 2)[0])

	// ?lang=ja wins over the browser's English.
	language("en")
	if err := b.Navigate(ctx, srv.URL+"/verify?lang=ja"); err != nil {
		t.Fatal(err)
	}
	tx := tourExport(t)
	if data, err = json.Marshal(tx); err != nil {
		t.Fatal(err)
	}
	tour := filepath.Join(dir, "t-1.json")
	if err := os.WriteFile(tour, data, 0o600); err != nil {
		t.Fatal(err)
	}
	v = vp.wait(vp.chooseFile(tour))
	if v.OK != "true" || v.Head != tx.Head {
		t.Fatalf("a tournament's export: %+v", v)
	}
	japanese("a tournament's export", v, []string{"ブラウザで検証済み (ファイル t-1.json): 大会 t-1: " + strconv.Itoa(len(tx.Records)) + "レコード、陣営決定", "大会のシードは大会終了時に公開されます"}, "t-1.json", "t-1")
	vp.shot("verify-ja-tournament")
	other := strings.Repeat("ab", 32)
	if err := b.Eval(ctx, fmt.Sprintf(`document.querySelector("[data-verifier] input[name=head]").value = %q`, other), nil); err != nil {
		t.Fatal(err)
	}
	v = vp.wait(vp.chooseFile(tour))
	if v.OK != "false" || v.Head != "" {
		t.Fatalf("a head not in the log: %+v", v)
	}
	japanese("a head not in the log", v, []string{"ブラウザで【検証失敗】 (ファイル t-1.json): 大会 t-1: ハッシュが " + other + " のレコードはログにありません"}, "t-1.json", "t-1")
	vp.shot("verify-ja-head")
}

// verifyPage drives the section of a page that verifies in the browser.
type verifyPage struct {
	t   *testing.T
	b   *browser.Browser
	ctx context.Context
}

// poll evaluates js until it gives something other than null, for two
// minutes at most: a whole campaign on a machine shared with other work
// can take seconds.
func (p verifyPage) poll(what, js string, out any) {
	p.t.Helper()
	var raw json.RawMessage
	waitfor.Until(p.t, 2*time.Minute, func() bool {
		if err := p.b.Eval(p.ctx, js, &raw); err != nil {
			p.t.Fatal(err)
		}
		return string(raw) != "null"
	}, what)
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatal(err)
	}
}

// wait waits for the verdict that follows what act does: a click, or a
// file chosen.
func (p verifyPage) wait(act func()) verdict {
	p.t.Helper()
	if err := p.b.Eval(p.ctx, `delete document.querySelector("[data-verifier] .verdict").dataset.ok`, nil); err != nil {
		p.t.Fatal(err)
	}
	act()
	var v verdict
	p.poll("the verdict", `(() => {
		const out = document.querySelector("[data-verifier] .verdict");
		return out.dataset.ok ? {OK: out.dataset.ok, Seq: +(out.dataset.seq ?? -2), Head: out.dataset.head || "",
			MS: +(out.dataset.ms || 0), LoadMS: +(out.dataset.loadMs || 0), Text: out.innerText} : null;
	})()`, &v)
	return v
}

// shot saves a screenshot of the page into $TITM_SCREENSHOTS, when set,
// to be looked at.
func (p verifyPage) shot(name string) {
	if dir := os.Getenv("TITM_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			p.t.Fatal(err)
		}
		if err := p.b.Screenshot(p.ctx, filepath.Join(dir, name+".png")); err != nil {
			p.t.Fatal(err)
		}
	}
}

// clickFetch clicks the button that verifies the journal's export.
func (p verifyPage) clickFetch() {
	if err := p.b.Click(p.ctx, "[data-verifier] button[name=fetch]"); err != nil {
		p.t.Fatal(err)
	}
}

// chooseFile gives the page's file input a file, as a reader choosing it
// does; the page verifies it on the change.
func (p verifyPage) chooseFile(path string) func() {
	return func() {
		var r struct {
			Result struct {
				ObjectID string `json:"objectId"`
			} `json:"result"`
		}
		if err := p.b.Call(p.ctx, "Runtime.evaluate", map[string]any{"expression": `document.querySelector("[data-verifier] input[type=file]")`}, &r); err != nil || r.Result.ObjectID == "" {
			p.t.Fatalf("the file input: %v %+v", err, r)
		}
		if err := p.b.Call(p.ctx, "DOM.setFileInputFiles", map[string]any{"files": []string{path}, "objectId": r.Result.ObjectID}, nil); err != nil {
			p.t.Fatal(err)
		}
	}
}

// tourExport makes a Swiss tournament of four, paired, with the bids of
// its first round in and its sides decided: an export with no game yet.
func tourExport(t testing.TB) *tournament.Export {
	return tournament.MakeExport(newTour(t), nil)
}

// newTour makes the tournament of tourExport.
func newTour(t testing.TB) *tournament.Tournament {
	t.Helper()
	tr, err := playout.BidTournament()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// tourSource is a memSource that holds one tournament too.
type tourSource struct {
	*memSource
	t *tournament.Tournament
}

func (s tourSource) Tournaments() ([]*tournament.Tournament, error) {
	return []*tournament.Tournament{s.t.Public()}, nil
}

func (s tourSource) Tournament(id string) (*tournament.Tournament, error) {
	if id != s.t.ID {
		return nil, fmt.Errorf("tournament %s: %w", id, ErrNotFound)
	}
	return s.t.Public(), nil
}

// A tournament's page offers to verify a file of its export: the journal
// serves none to fetch.
func TestVerifySectionTournament(t *testing.T) {
	code, page := body(t, New(tourSource{played(t, 2), newTour(t)}, nil), "/tournaments/t-1")
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{`data-verifier data-export="" data-of="tournament" data-id="t-1"`, `<input type="file"`, `src="/verify/verify.js"`} {
		if !strings.Contains(page, want) {
			t.Errorf("no %s", want)
		}
	}
	if strings.Contains(page, `name="fetch"`) {
		t.Error("a button to fetch an export the journal does not serve")
	}
}
