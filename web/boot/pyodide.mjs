// PyScript's `interpreter` (see pyscript.toml): the vendored Pyodide, booted
// from a memory snapshot when one of this runtime + app version is stored.
//
// - First launch: normal boot; once the page is ready and idle, a Web Worker
//   makes a snapshot (snapshot-worker.mjs) and stores it in IndexedDB.
// - Next launches: loadPyodide({_loadSnapshot}) restores the heap with the app's
//   pure modules already imported; `random` is reseeded from the OS entropy
//   (the snapshot froze its state). Any failure -> normal boot, snapshot dropped.
// - document.documentElement.dataset.boot = "snapshot" | "normal";
//   dataset.snapshot = "making" | "saved" | "failed" | "off" (status of the
//   background snapshot); globalThis.kosynkaPyodide is the interpreter (tests).
// - globalThis.KOSYNKA_BOOT = {snapshot: false} (set before this loads) turns
//   snapshots off; so does a browser that blocks storage. {compress: true}
//   stores it gzipped (CompressionStream; 31 MB -> 6 MB, slower to read).
import { loadPyodide as loadVendored, version } from "../vendor/pyodide/pyodide.mjs";
import build from "../vendor/build.mjs";
import { snapshotKey, readSnapshot, deleteSnapshot } from "./snapshot-store.mjs";

export { version };

const indexURL = new URL("../vendor/pyodide/", import.meta.url).href;
const html = document.documentElement;
const cfg = globalThis.KOSYNKA_BOOT || {};
const timing = (globalThis.kosynkaBootTiming ||= {});
const mark = (name) => (timing[name] = Math.round(performance.now()));

const REINIT = `
import importlib, random
importlib.invalidate_caches()
random.seed()
`;

// storage blocked (web/boot/paint.js found out): a snapshot could not be kept
const useSnapshot = cfg.snapshot !== false && html.dataset.storage !== "blocked";
const key = snapshotKey(build);
// read it now, while PyScript is still setting up, not when it asks for Pyodide
const miss = {};
const pending = useSnapshot ? readSnapshot(key, miss) : Promise.resolve(null);
mark("module_loaded");

export async function loadPyodide(options = {}) {
  mark("boot_start");
  const snap = await pending;
  mark("snapshot_read");
  if (miss.why) timing.snapshot_miss = miss.why;
  if (snap) {
    try {
      const py = await loadVendored({ ...options, indexURL, _loadSnapshot: snap.bytes });
      py.runPython(REINIT);
      html.dataset.boot = "snapshot";
      html.dataset.snapshot = "saved";
      globalThis.kosynkaPyodide = py;
      mark("pyodide_loaded");
      return py;
    } catch (e) {
      console.warn("kosynka: snapshot restore failed, booting normally", e);
      await deleteSnapshot();
    }
  }
  const py = await loadVendored({ ...options, indexURL });
  html.dataset.boot = "normal";
  globalThis.kosynkaPyodide = py;
  mark("pyodide_loaded");
  if (useSnapshot) scheduleSnapshot(key);
  else html.dataset.snapshot = "off";
  return py;
}

// Make the snapshot after the app is ready and the page is idle, never
// competing with the first boot.
function scheduleSnapshot(key) {
  const start = () => {
    const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
    idle(() => makeSnapshot(key), { timeout: 3000 });
  };
  const ready = () => ["ready", "won"].includes(document.body?.dataset.state);
  if (ready()) return start();
  const obs = new MutationObserver(() => {
    if (ready()) {
      obs.disconnect();
      start();
    }
  });
  obs.observe(html, { attributes: true, subtree: true, attributeFilter: ["data-state"] });
}

function makeSnapshot(key) {
  html.dataset.snapshot = "making";
  let worker;
  try {
    worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
  } catch (e) {
    html.dataset.snapshot = "failed";
    return;
  }
  worker.onmessage = ({ data }) => {
    worker.terminate();
    html.dataset.snapshot = data.ok ? "saved" : "failed";
    timing.snapshot = data;
    if (!data.ok) console.warn("kosynka: snapshot not made:", data.error);
    else if (data.failed) console.warn("kosynka: snapshot skipped modules:", data.failed);
    html.dispatchEvent(new CustomEvent("kosynka:snapshot", { detail: data }));
  };
  worker.onerror = (e) => {
    worker.terminate();
    html.dataset.snapshot = "failed";
    console.warn("kosynka: snapshot worker failed", e.message);
  };
  worker.postMessage({ key, compress: !!cfg.compress });
}
