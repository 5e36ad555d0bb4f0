package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"titm/adjudicator/journal"
	"titm/adjudicator/tournament"
	"titm/internal/browser"
	"titm/internal/tamper"
	"titm/internal/waitfor"
	"titm/store"
)

// publicChain is how a tournament's export chains its records, for a
// forger who rebuilds it after a change.
var publicChain = tamper.Chain{Records: "records", Head: "head", Hash: func(rec map[string]any) (string, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	var r tournament.Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return "", err
	}
	return tournament.RecordHash(r), nil
}}

// A tournament played to its end by the commands, served by the journal
// from the real store: its page in headless Chromium offers its public
// export, and the verifier the journal serves, compiled to WebAssembly,
// fetches it and verifies it in the browser to the tournament's head. The
// export holds no address. Forged copies of it (a side decision's die
// changed, a pairing changed to pair a player with himself), their chains
// rebuilt, chosen as files on /verify, are rejected naming the record
// changed, as titm verify rejects them; the export itself, chosen there
// as a downloaded file, verifies. The verification's time in the browser
// is logged.
func TestJournalTournamentVerifiesInBrowser(t *testing.T) {
	fixClock(t)
	db, id, games := playPublicCup(t, t.TempDir())

	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var head string
	if err := st.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		if tr.Status != tournament.Over {
			return fmt.Errorf("tournament %s is %s, want over", id, tr.Status)
		}
		head = tr.Head
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(journal.New(storeJournal{st: st, log: slog.New(slog.DiscardHandler)}, nil))
	defer srv.Close()

	// The export as the page fetches it, fetched here too.
	exportURL := "/tournaments/" + id + "/export.json"
	resp, err := http.Get(srv.URL + exportURL)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", exportURL, resp.StatusCode, err)
	}
	noAddress(t, "the journal's export of the tournament", data)
	x, err := tournament.ReadExport(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if x.Head != head || len(x.Games) != len(games) {
		t.Fatalf("the export's head %s and %d games, want the tournament's head %s and %d games", x.Head, len(x.Games), head, len(games))
	}
	// What the verifier checks of it, natively: the browser's must say
	// the same, the dice checked with the seed revealed.
	checked, err := tournament.Verify(x)
	if err != nil || !checked.DiceChecked || checked.Games != len(games) || checked.Dice == 0 {
		t.Fatalf("tournament.Verify of the journal's export: %+v, %v", checked, err)
	}
	summary := fmt.Sprintf("tournament %s: %d records, %d side decisions, %d games with %d impulses, %d dice",
		id, checked.Records, checked.Sides, checked.Games, checked.Impulses, checked.Dice)

	b := browser.Require(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	// poll evaluates js until it gives something other than null, for two
	// minutes at most, on a machine shared with other work.
	poll := func(what, js string, out any) {
		t.Helper()
		var raw json.RawMessage
		waitfor.Until(t, 2*time.Minute, func() bool {
			if err := b.Eval(ctx, js, &raw); err != nil {
				t.Fatal(err)
			}
			return string(raw) != "null"
		}, what)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatal(err)
		}
	}
	type verdict struct {
		OK     string  // "true", "false", or "error" when the verifier could not run
		Seq    int     // the record that fails, -1 for none
		Head   string  // the head computed
		MS     float64 // the verification, in milliseconds
		LoadMS float64 // the verifier's loading and start, in milliseconds
		Text   string
	}
	// wait waits for the verdict that follows what act does.
	wait := func(act func()) verdict {
		t.Helper()
		if err := b.Eval(ctx, `delete document.querySelector("[data-verifier] .verdict").dataset.ok`, nil); err != nil {
			t.Fatal(err)
		}
		act()
		var v verdict
		poll("the verdict", `(() => {
			const out = document.querySelector("[data-verifier] .verdict");
			return out.dataset.ok ? {OK: out.dataset.ok, Seq: +(out.dataset.seq ?? -2), Head: out.dataset.head || "",
				MS: +(out.dataset.ms || 0), LoadMS: +(out.dataset.loadMs || 0), Text: out.innerText} : null;
		})()`, &v)
		return v
	}

	// The time the page's main thread spends, counted in its own CPU
	// time, which other programs on the machine do not lengthen as they
	// do the time on the clock.
	busy := func() float64 {
		t.Helper()
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

	// The tournament's page offers its export, and the page verifies it.
	if err := b.Navigate(ctx, srv.URL+"/tournaments/"+id); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, "Performance.enable", map[string]any{"timeDomain": "threadTicks"}, nil); err != nil {
		t.Fatal(err)
	}
	var section struct {
		Export string
		Button bool
	}
	if err := b.Eval(ctx, `(() => {
		const box = document.querySelector("[data-verifier]");
		return box ? {Export: box.dataset.export, Button: !!box.querySelector("button[name=fetch]")} : {};
	})()`, &section); err != nil {
		t.Fatal(err)
	}
	if section.Export != exportURL || !section.Button {
		t.Fatalf("the tournament's page offers to verify %q (a button to fetch it: %v), want %s", section.Export, section.Button, exportURL)
	}
	cpu := busy()
	v := wait(func() {
		if err := b.Click(ctx, "[data-verifier] button[name=fetch]"); err != nil {
			t.Fatal(err)
		}
	})
	cpu = busy() - cpu
	if v.OK != "true" || v.Seq != -1 || v.Head != head || !strings.Contains(v.Text, "Verified in your browser (the journal's export): "+summary+"\n") ||
		!strings.Contains(v.Text, head) || strings.Contains(v.Text, "taken as logged") {
		t.Fatalf("the journal's export of tournament %s verified in the browser: %+v, want %q and its head %s", id, v, summary, head)
	}
	// What the page verified is what it fetched from the journal: the
	// export, as many bytes as the journal sends here.
	var fetched []struct {
		Name string
		Size float64
	}
	if err := b.Eval(ctx, `performance.getEntriesByType("resource").filter(e => e.initiatorType === "fetch" && !e.name.endsWith(".wasm")).map(e => ({Name: e.name, Size: e.decodedBodySize}))`, &fetched); err != nil {
		t.Fatal(err)
	}
	if len(fetched) != 1 || fetched[0].Name != srv.URL+exportURL || int(fetched[0].Size) != len(data) {
		t.Errorf("the page fetched %+v, want %s, %d bytes", fetched, srv.URL+exportURL, len(data))
	}
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("tournament %s's public export (%s; %d bytes) verified in Chromium in %.0f ms (the main thread busy %.0f ms of its CPU time, the verifier's loading and the export's fetch included); the verifier loaded in %.0f ms; load average %s",
		id, summary, len(data), v.MS, cpu, v.LoadMS, strings.TrimSpace(string(load)))

	// Forgeries of the export, their chains rebuilt, chosen as files on
	// the verifier's own page.
	dir := t.TempDir()
	forge := func(name, kind string, change func(rec map[string]any) bool) (string, int) {
		t.Helper()
		d, err := tamper.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		seq := -1
		for i, r := range d["records"].([]any) {
			if rec := r.(map[string]any); rec["kind"] == kind && change(rec) {
				seq = i
				break
			}
		}
		if seq < 0 {
			t.Fatalf("%s: no %s record to change", name, kind)
		}
		if err := publicChain.Rebuild(d, seq); err != nil {
			t.Fatal(err)
		}
		if d["head"] == x.Head {
			t.Fatalf("%s: the head is as it was", name)
		}
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		// The chain holds: only the replay can tell.
		fx, err := tournament.ReadExport(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range fx.Records {
			if r.Hash != tournament.RecordHash(r) || i > 0 && r.Prev != fx.Records[i-1].Hash {
				t.Fatalf("%s: the chain is broken at record %d", name, i)
			}
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, out, 0o600); err != nil {
			t.Fatal(err)
		}
		return path, seq
	}
	die, dieSeq := forge("die.json", tournament.KindSides, func(rec map[string]any) bool {
		dice, _ := rec["dice"].([]any)
		if len(dice) == 0 {
			return false
		}
		roll := dice[0].(map[string]any)
		n, err := roll["roll"].(json.Number).Int64()
		if err != nil {
			t.Fatal(err)
		}
		// Another value the die can show: one less, or one more than a 1.
		if n > 1 {
			n--
		} else {
			n++
		}
		roll["roll"] = json.Number(fmt.Sprint(n))
		return true
	})
	self, selfSeq := forge("self.json", tournament.KindPaired, func(rec map[string]any) bool {
		for _, p := range rec["pairs"].([]any) {
			if p := p.([]any); p[1] != json.Number("-1") {
				p[1] = p[0] // a player paired with himself
				return true
			}
		}
		return false
	})

	if err := b.Navigate(ctx, srv.URL+"/verify"); err != nil {
		t.Fatal(err)
	}
	// chooseFile gives the page's file input a file, as a reader choosing
	// it does; the page verifies it on the change.
	chooseFile := func(path string) func() {
		return func() {
			var r struct {
				Result struct {
					ObjectID string `json:"objectId"`
				} `json:"result"`
			}
			if err := b.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `document.querySelector("[data-verifier] input[type=file]")`}, &r); err != nil || r.Result.ObjectID == "" {
				t.Fatalf("the file input: %v %+v", err, r)
			}
			if err := b.Call(ctx, "DOM.setFileInputFiles", map[string]any{"files": []string{path}, "objectId": r.Result.ObjectID}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The export the journal sent, as a file the reader downloaded: it
	// verifies on /verify as well, the verifier loaded and warm.
	saved := filepath.Join(dir, id+".json")
	if err := os.WriteFile(saved, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := b.Call(ctx, "Performance.enable", map[string]any{"timeDomain": "threadTicks"}, nil); err != nil {
		t.Fatal(err)
	}
	cpu = busy()
	if v := wait(chooseFile(saved)); v.OK != "true" || v.Head != head || !strings.Contains(v.Text, "Verified in your browser (the file "+id+".json): "+summary+"\n") {
		t.Errorf("the downloaded export on /verify: %+v", v)
	} else {
		t.Logf("verified again, from the downloaded file on /verify, in %.0f ms (the main thread busy %.0f ms, the verifier's loading included)", v.MS, busy()-cpu)
	}
	for _, f := range []struct {
		name, path, kind string
		seq              int
	}{
		{"a side decision's die changed", die, tournament.KindSides, dieSeq},
		{"a player paired with himself", self, tournament.KindPaired, selfSeq},
	} {
		// titm verify refuses it, naming the record, as the browser must.
		if code, out, _ := runT(t, "verify", f.path); code != exitProblems || !strings.Contains(out, fmt.Sprintf("record %d", f.seq)) {
			t.Errorf("titm verify of the export with %s at record %d: exit %d\n%s", f.name, f.seq, code, out)
		}
		v := wait(chooseFile(f.path))
		want := fmt.Sprintf("The first record that fails is record %d (%s)", f.seq, f.kind)
		if v.OK != "false" || v.Seq != f.seq || v.Head != "" || !strings.Contains(v.Text, "NOT verified in your browser (the file "+filepath.Base(f.path)+"): ") || !strings.Contains(v.Text, want) {
			t.Errorf("the export with %s at record %d, on /verify: %+v", f.name, f.seq, v)
			continue
		}
		t.Logf("the export with %s rejected in Chromium in %.0f ms: %s", f.name, v.MS, strings.SplitN(v.Text, "\n", 2)[0])
	}
}
