// PyScript's `interpreter` (see pyscript.toml): the vendored Pyodide, booted
// from a memory snapshot of this runtime + app version whenever there is one.
//
// Where the snapshot comes from, first found wins:
// 1. "stored"  — IndexedDB (snapshot-store.mjs), kept by an earlier visit;
// 2. "shipped" — web/vendor/snapshot-<build.version>.bin.gz, made at build time
//    (tools/make-snapshot.mjs), fetched and gunzipped as it arrives. A first
//    visit starts from it when it pays (a fast link: SHIPPED_BUDGET_MS); once
//    the app is ready and the page idle, a worker keeps the bytes in IndexedDB,
//    so later visits skip the download and gunzip;
// 3. none — normal boot; once the app is ready and the page idle, a worker
//    makes a snapshot (snapshot-worker.mjs) and stores it: the fallback when the
//    shipped one is missing or does not restore.
// Both are looked for in a worker (snapshot-find.mjs), off the page's thread.
// loadPyodide({_loadSnapshot}) restores the heap with the app's pure modules
// already imported; `random` is then reseeded from the OS entropy (the snapshot
// froze its state). A snapshot that fails to restore: normal boot; a stored one
// that failed while a normal boot works is deleted.
//
// - document.documentElement.dataset.boot = "snapshot" | "normal";
//   dataset.snapshot = "storing" | "making" | "saved" | "failed" | "off" (the
//   IndexedDB copy); globalThis.kosynkaPyodide is the interpreter (tests).
// - globalThis.kosynkaBootTiming: source ("stored" | "shipped" | "normal"),
//   snapshot_miss {stored, shipped} (why not), snapshot_bytes (sizes, ms the
//   worker took to read or fetch + gunzip them), ms marks from navigation start:
//   module_loaded, snapshot_ready (bytes in memory, or none found), boot_start
//   (PyScript asks for Pyodide), pyodide_loaded.
// - globalThis.KOSYNKA_BOOT = {snapshot: false} (set before this loads) turns
//   snapshots off; {shipped: false} skips the shipped one; {compress: true}
//   stores it gzipped (31 MB -> 6 MB, slower to read). A browser that blocks
//   storage restores the shipped one but keeps none.
import { loadPyodide as loadVendored, version } from "../vendor/pyodide/pyodide.mjs";
import build from "../vendor/build.mjs";
import { findSnapshot, deleteSnapshot } from "./snapshot-store.mjs";
import { whenReadyAndIdle } from "./when-ready.mjs";
import { REINIT } from "./snapshot-prepare.mjs";
import { indexURL, runtime, stdLibURL } from "./runtime.mjs";

export { version };

const html = document.documentElement;
const cfg = globalThis.KOSYNKA_BOOT || {};
const timing = (globalThis.kosynkaBootTiming ||= {});
const mark = (name) => (timing[name] = Math.round(performance.now()));

const useSnapshot = cfg.snapshot !== false;
// storage blocked (web/boot/paint.js found out): a snapshot could not be kept
const keep = useSnapshot && html.dataset.storage !== "blocked";
const miss = {};

// findSnapshot in a worker (snapshot-find.mjs); on the page if no worker starts.
function findInWorker(options) {
  let worker;
  try {
    worker = new Worker(new URL("./snapshot-find.mjs", import.meta.url), { type: "module" });
  } catch (e) {
    return findSnapshot(build, options, miss);
  }
  return new Promise((resolve) => {
    worker.onmessage = ({ data }) => {
      worker.terminate();
      Object.assign(miss, data.miss);
      resolve(data.snap);
    };
    worker.onerror = () => {
      worker.terminate();
      resolve(findSnapshot(build, options, miss));
    };
    worker.postMessage(options);
  });
}

// Read now, while PyScript is still setting up, not when it asks for Pyodide.
// No service worker controls the page yet: most likely a first visit, so the
// shipped file is fetched beside the IndexedDB read, not after it — and kept
// only if it pays: due within SHIPPED_BUDGET_MS of its start. On loopback it is
// in within ~0.5 s (gunzip included) and saves 1.5-2 s of booting; through a
// 20 Mbit/s link its 7.9 MB take 3+ s beside the runtime's own files, later than
// a normal boot (bench/firstvisit.py, issue 23 item 3), and the page makes its
// own snapshot once ready (no bytes moved).
// Issue 31 item 3: on a first visit it is not even asked for when the standard
// library (preloaded by the head, 1.61 MB: a fifth of the snapshot) took longer
// than SLOW_LIB_MS: the link is then slower than ~20 Mbit/s (shared with the
// wasm: 1.26-2.0 s at 20 Mbit/s in bench/firstvisit.py), where the snapshot
// cannot pay (it pays above ~40), and a dropped download still moved 0.9-2 MB
// (what the server had pushed into the link's buffers before the probe,
// fetchShippedSnapshot, dropped it). Not less: on a loaded machine a loopback
// download takes a few hundred ms too (60-180 ms at load 10, 4x throttled).
const SHIPPED_BUDGET_MS = 1500;
const SLOW_LIB_MS = 1200;
const first = !navigator.serviceWorker?.controller;
// index.html's head preloads the trimmed library on a first visit (the full one,
// when the build names none, is preloaded after the first paint: preloadRuntime)
const libPreloaded = stdLibURL.endsWith("/vendor/stdlib.zip");

// -> null when the link looks fast enough for the shipped snapshot, else why not
function slowLink() {
  return new Promise((resolve) => {
    const judge = (e) => {
      const ms = e.responseEnd - e.requestStart;
      resolve(e.transferSize && ms > SLOW_LIB_MS
        ? `slow link: the standard library took ${Math.round(ms)} ms` : null);
    };
    const done = performance.getEntriesByName(stdLibURL)[0];
    if (done) return judge(done);
    const obs = new PerformanceObserver((list) => {
      const e = list.getEntriesByName(stdLibURL)[0];
      if (e) {
        obs.disconnect();
        judge(e);
      }
    });
    obs.observe({ type: "resource" });
    // Not in yet: a library the head preloaded left before this module ran, so it
    // has taken longer than SLOW_LIB_MS by then — a slow link (was: the snapshot
    // asked for after SHIPPED_BUDGET_MS, and at 8 Mbit/s its dropped download
    // still moved 0.3 MB; bench/firstvisit.py, 2026-12-06). Not preloaded (the
    // build names no trimmed library): the download's own probe judges.
    setTimeout(() => {
      obs.disconnect();
      resolve(libPreloaded ? `slow link: the standard library not in after ${SLOW_LIB_MS} ms` : null);
    }, libPreloaded ? SLOW_LIB_MS : SHIPPED_BUDGET_MS);
  });
}

const pending = useSnapshot
  ? (first && cfg.shipped !== false ? slowLink() : Promise.resolve(null)).then((slow) => {
    if (slow) miss.shipped = slow;
    // the budget on later visits too: one that finds no stored snapshot (the page
    // closed before its own was made) downloaded all 8 MB of the shipped one
    return findInWorker({
      stored: keep, shipped: cfg.shipped !== false && !slow, early: first,
      budget: SHIPPED_BUDGET_MS,
    });
  }).then((snap) => {
    mark("snapshot_ready");
    return snap;
  })
  : Promise.resolve(null);
mark("module_loaded");

// On a first visit the runtime's wasm and standard library are preloaded by
// index.html's head (issue 31 item 5: they leave in the first round trip after the
// HTML, and need no work on the page's thread); the page the service worker serves
// has no such preloads (sw.js laterVisits: a preloaded wasm misses V8's code
// cache). The runtime's script and lockfile are fetched once the table is
// painted, not when PyScript asks for Pyodide (~1 s later at 4x throttle): a
// modulepreload in the head would parse 1.25 MB of script before the first paint
// (measured ~+0.2 s at 4x throttle).
function preloadRuntime() {
  const files = [[indexURL + "pyodide.asm.mjs", "modulepreload"], [indexURL + "pyodide-lock.json"]];
  // the full library, when the build names no trimmed one (a first visit's head
  // preloads that)
  if (!libPreloaded) files.push([stdLibURL]);
  for (const [href, rel = "preload"] of files) {
    const link = document.createElement("link");
    link.rel = rel;
    link.href = href;
    if (rel === "preload") {
      link.as = "fetch";
      link.crossOrigin = "anonymous";
    }
    document.head.append(link);
  }
}
requestAnimationFrame(() => setTimeout(preloadRuntime));

function booted(py, source) {
  html.dataset.boot = source === "normal" ? "normal" : "snapshot";
  timing.source = source;
  globalThis.kosynkaPyodide = py;
  mark("pyodide_loaded");
  return py;
}

export async function loadPyodide(options = {}) {
  mark("boot_start");
  const snap = await pending;
  if (Object.keys(miss).length) timing.snapshot_miss = miss;
  if (snap) {
    timing.snapshot_bytes = snap.meta;
    try {
      const py = await loadVendored({ ...options, ...runtime, _loadSnapshot: snap.bytes });
      py.runPython(REINIT);
      if (snap.source === "shipped" && keep) whenReadyAndIdle(() => keepSnapshot(snap.bytes));
      else html.dataset.snapshot = keep ? "saved" : "off";
      return booted(py, snap.source);
    } catch (e) {
      console.warn(`kosynka: ${snap.source} snapshot did not restore, booting normally`, e);
      timing.snapshot_miss = { ...miss, [snap.source]: String(e && e.message || e).slice(0, 200) };
    }
  }
  const py = await loadVendored({ ...options, ...runtime });
  // a normal boot works: the stored snapshot was the trouble (not the network)
  if (snap?.source === "stored") await deleteSnapshot();
  if (keep) whenReadyAndIdle(() => keepSnapshot(null));
  else html.dataset.snapshot = "off";
  return booted(py, "normal");
}

// In a worker, never competing with the boot: store `bytes` (the shipped
// snapshot, handed over without a copy) or, when null, make one.
function keepSnapshot(bytes) {
  html.dataset.snapshot = bytes ? "storing" : "making";
  const url = new URL("./snapshot-worker.mjs", import.meta.url);
  let worker;
  try {
    worker = new Worker(url, { type: "module" });
  } catch (e) {
    html.dataset.snapshot = "failed";
    return;
  }
  worker.onmessage = ({ data }) => {
    worker.terminate();
    html.dataset.snapshot = data.ok ? "saved" : "failed";
    timing.snapshot = data;
    if (!data.ok) console.warn("kosynka: snapshot not kept:", data.error);
    else if (data.failed) console.warn("kosynka: snapshot skipped modules:", data.failed);
    html.dispatchEvent(new CustomEvent("kosynka:snapshot", { detail: data }));
  };
  worker.onerror = (e) => {
    worker.terminate();
    html.dataset.snapshot = "failed";
    workerFailure(e, url).then((error) => {
      timing.snapshot = { ok: false, error };
      console.warn(`kosynka: snapshot worker failed: ${error}`);
    });
  };
  const compress = !!cfg.compress;
  if (bytes) worker.postMessage({ bytes, compress }, [bytes.buffer]);
  else worker.postMessage({ compress });
}

// What an "error" event of a module worker at `url` means, in words (issue 31
// item 6: Firefox logged "snapshot worker failed undefined"). An ErrorEvent names
// an error thrown in the worker and where; a bare Event (Firefox, for a module
// that did not load) names nothing, so the module and its static imports are
// fetched again and the first that does not answer 200 with a script is named.
export async function workerFailure(e, url) {
  if (e && e.message) return `${e.message} (${e.filename || url}:${e.lineno || 0})`;
  const seen = new Set();
  const check = async (href) => {
    if (seen.has(href)) return null;
    seen.add(href);
    let text;
    try {
      const r = await fetch(href, { cache: "no-store" });
      const type = r.headers.get("Content-Type") || "";
      if (!r.ok || !/javascript/.test(type)) return `${href}: HTTP ${r.status} ${type}`;
      text = await r.text();
    } catch (err) {
      return `${href}: ${err && err.message || err}`;
    }
    for (const [, spec] of text.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/gm)) {
      const bad = await check(new URL(spec, href).href);
      if (bad) return bad;
    }
    return null;
  };
  const bad = await check(new URL(url).href);
  return `${e && e.type || "error"} without a message (${e && e.constructor && e.constructor.name}): ` +
    (bad ? `did not load: ${bad}` : `its modules load now: ${url}`);
}
