// The journal's verifier in the browser: it loads titm's verifier,
// compiled to WebAssembly (wasm_exec.js, loaded before this, defines Go),
// and runs it on the journal's export or on a file the reader chooses, in
// each element marked data-verifier. Nothing it shows comes from the
// server but the verifier itself and, if asked for, the export.
"use strict";
(() => {
  const wasmURL = "/verify/verify.wasm";
  let loading = null; // the verifier's promise, made at the first use

  // load fetches and starts the verifier once; it resolves to the
  // milliseconds it took.
  function load() {
    if (!loading) {
      loading = (async () => {
        const t0 = performance.now();
        const go = new Go();
        let inst;
        try {
          inst = await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject);
        } catch (e) {
          // A proxy that changed the Content-Type: read it whole.
          const resp = await fetch(wasmURL);
          if (!resp.ok) throw new Error(`the verifier could not be loaded: ${resp.status} ${resp.statusText}`);
          inst = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
        }
        go.run(inst.instance); // runs until the page goes, serving titmVerify
        if (typeof titmVerify !== "function") throw new Error("the verifier did not start");
        return performance.now() - t0;
      })();
      loading.catch(() => { loading = null; });
    }
    return loading;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // show writes a verdict: every text goes in as text, never as HTML,
  // since an export may hold anything.
  function show(out, r, from, ms, loadMs) {
    out.replaceChildren();
    out.dataset.ok = String(r.ok);
    out.dataset.seq = String(r.seq);
    out.dataset.head = r.head || "";
    out.dataset.ms = ms.toFixed(1);
    out.dataset.loadMs = loadMs.toFixed(1);
    const stamp = el("p", r.ok ? "stamp" : "stamp bad");
    stamp.append(r.ok ? `Verified in your browser (${from}): ` : `NOT verified in your browser (${from}): `);
    stamp.append(r.summary.replace(/^(NOT )?verified: /, "")); // said just before
    out.append(stamp);
    if (!r.ok && r.seq >= 0) {
      out.append(el("p", "", `The first record that fails is record ${r.seq}${r.record_kind ? " (" + r.record_kind + ")" : ""}: ${r.what}`));
    }
    if (r.ok) {
      const p = el("p", "", "The head of the log, as the verifier computed it from the records: ");
      p.append(el("span", "hash", r.head));
      p.append(r.head_found ? ". The head you gave is a record's hash of this log." : ". Compare it with the log head in the last mail you received of it.");
      out.append(p);
    }
    if (r.note) out.append(el("p", "muted", r.note));
    const of = r.id ? `${r.kind} ${r.id}: ${r.records} records, ` : "";
    out.append(el("p", "muted", `${of}checked in ${Math.round(ms)} ms (the verifier loaded in ${Math.round(loadMs)} ms).`));
  }

  async function run(box, from, bytesOf) {
    const out = box.querySelector(".verdict");
    const form = box.querySelector("form");
    out.replaceChildren(el("p", "", "Loading the verifier…"));
    delete out.dataset.ok;
    form.inert = true;
    try {
      const loadMs = await load();
      const bytes = await bytesOf();
      out.replaceChildren(el("p", "", `Verifying ${from}…`));
      // Let the page show it before the verifier takes the thread.
      await new Promise((done) => setTimeout(done, 0));
      const t0 = performance.now();
      const r = await titmVerify(bytes, form.elements.head.value);
      show(out, r, from, performance.now() - t0, loadMs);
    } catch (e) {
      out.replaceChildren(el("p", "stamp bad", `The verifier could not run: ${e.message}`));
      out.dataset.ok = "error";
    } finally {
      form.inert = false;
      form.elements.file.value = ""; // the same file chosen again is verified again
    }
  }

  for (const box of document.querySelectorAll("[data-verifier]")) {
    const form = box.querySelector("form");
    form.hidden = false;
    form.addEventListener("submit", (e) => e.preventDefault());
    // The verifier is some megabytes: fetched only for a reader who comes
    // near the form, and then at once, so that it is ready by his click.
    const early = () => load().then((ms) => { box.dataset.loaded = ms.toFixed(1); }, () => {}); // a failure is told at the click
    form.addEventListener("pointerenter", early, { once: true });
    form.addEventListener("focusin", early, { once: true });
    const url = box.dataset.export;
    const button = form.elements.fetch;
    if (url && button) {
      button.addEventListener("click", () => run(box, "the journal's export", async () => {
        const resp = await fetch(url);
        if (!resp.ok) throw new Error(`the export could not be fetched: ${resp.status} ${resp.statusText}`);
        return new Uint8Array(await resp.arrayBuffer());
      }));
    }
    const file = form.elements.file;
    file.addEventListener("change", () => {
      const f = file.files[0];
      if (f) run(box, `the file ${f.name}`, async () => new Uint8Array(await f.arrayBuffer()));
    });
  }
})();
