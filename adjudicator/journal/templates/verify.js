// The journal's verifier in the browser: it loads titm's verifier,
// compiled to WebAssembly (wasm_exec.js, loaded before this, defines Go),
// and runs it on the journal's export or on a file the reader chooses, in
// each element marked data-verifier. Nothing it shows comes from the
// server but the verifier itself, the sentences it says around the
// verdict (data-texts, in the page's language, data-lang, in which the
// verifier words the verdict) and, if asked for, the export.
"use strict";
(() => {
  const wasmURL = "/verify/verify.wasm";
  let loading = null; // the verifier's promise, made at the first use

  // parts fills a sentence of data-texts: each {n} in it is the n-th
  // argument, a string or an element. It returns the pieces, for
  // Element.append, in the order the language puts them.
  function parts(text, ...args) {
    return text.split(/(\{\d+\})/).filter((s) => s !== "").map((s) => {
      const m = /^\{(\d+)\}$/.exec(s);
      return m ? args[+m[1]] : s;
    });
  }

  // say is a sentence filled in, as a string.
  function say(text, ...args) {
    return parts(text, ...args).join("");
  }

  // load fetches and starts the verifier once; it resolves to the
  // milliseconds it took.
  function load(texts) {
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
          if (!resp.ok) throw new Error(say(texts.notLoaded, String(resp.status)));
          inst = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
        }
        go.run(inst.instance); // runs until the page goes, serving titmVerify
        if (typeof titmVerify !== "function") throw new Error(texts.notStarted);
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
  function show(out, texts, r, from, ms, loadMs) {
    out.replaceChildren();
    out.dataset.ok = String(r.ok);
    out.dataset.seq = String(r.seq);
    out.dataset.head = r.head || "";
    out.dataset.ms = ms.toFixed(1);
    out.dataset.loadMs = loadMs.toFixed(1);
    out.lang = r.lang || "";
    const stamp = el("p", r.ok ? "stamp" : "stamp bad");
    stamp.append(...parts(r.ok ? texts.verified : texts.notVerified, from, r.finding));
    out.append(stamp);
    if (!r.ok && r.failing) out.append(el("p", "", r.failing));
    if (r.ok) {
      const p = el("p");
      p.append(...parts(r.head_found ? texts.headFound : texts.head, el("span", "hash", r.head)));
      out.append(p);
    }
    if (r.note) out.append(el("p", "muted", r.note));
    const took = [String(Math.round(ms)), String(Math.round(loadMs))];
    const of = { game: texts.game, tournament: texts.tournament }[r.kind];
    out.append(el("p", "muted", r.id && of ? say(of, r.id, String(r.records), ...took) : say(texts.checked, ...took)));
  }

  async function run(box, texts, from, bytesOf) {
    const out = box.querySelector(".verdict");
    const form = box.querySelector("form");
    out.replaceChildren(el("p", "", texts.loading));
    delete out.dataset.ok;
    form.inert = true;
    try {
      const loadMs = await load(texts);
      const bytes = await bytesOf();
      out.replaceChildren(el("p", "", say(texts.verifying, from)));
      // Let the page show it before the verifier takes the thread.
      await new Promise((done) => setTimeout(done, 0));
      const t0 = performance.now();
      const r = await titmVerify(bytes, form.elements.head.value, box.dataset.lang || "en");
      show(out, texts, r, from, performance.now() - t0, loadMs);
    } catch (e) {
      out.replaceChildren(el("p", "stamp bad", say(texts.failed, e.message)));
      out.dataset.ok = "error";
    } finally {
      form.inert = false;
      form.elements.file.value = ""; // the same file chosen again is verified again
    }
  }

  for (const box of document.querySelectorAll("[data-verifier]")) {
    const texts = JSON.parse(box.dataset.texts);
    const form = box.querySelector("form");
    form.hidden = false;
    form.addEventListener("submit", (e) => e.preventDefault());
    // The verifier is some megabytes: fetched only for a reader who comes
    // near the form, and then at once, so that it is ready by his click.
    const early = () => load(texts).then((ms) => { box.dataset.loaded = ms.toFixed(1); }, () => {}); // a failure is told at the click
    form.addEventListener("pointerenter", early, { once: true });
    form.addEventListener("focusin", early, { once: true });
    const url = box.dataset.export;
    const button = form.elements.fetch;
    if (url && button) {
      button.addEventListener("click", () => run(box, texts, texts.export, async () => {
        const resp = await fetch(url);
        if (!resp.ok) throw new Error(say(texts.notFetched, String(resp.status)));
        return new Uint8Array(await resp.arrayBuffer());
      }));
    }
    const file = form.elements.file;
    file.addEventListener("change", () => {
      const f = file.files[0];
      if (f) run(box, texts, say(texts.file, f.name), async () => new Uint8Array(await f.arrayBuffer()));
    });
  }
})();
