// Keeps a memory snapshot in IndexedDB (snapshot-store.mjs) off the page, under
// the runtime + app version. Two requests:
//   {bytes}  the snapshot the page restored from the file shipped with the
//            build: stored as it is (transferred, so the page copies nothing);
//   {}       the fallback, when the shipped one is missing or failed: load
//            Pyodide with `_makeSnapshot` (such an instance cannot touch the
//            DOM, hence a worker), prepare it as the build does
//            (snapshot-prepare.mjs) and snapshot the heap.
// Answers {ok, size, stored, gzip, failed, ms} or {ok: false, error}.
// {compress: true} stores it gzipped.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import build from "../vendor/build.mjs";
import { snapshotKey, writeSnapshot } from "./snapshot-store.mjs";
import { prepareSnapshot } from "./snapshot-prepare.mjs";
import { runtime } from "./runtime.mjs";

const vendor = new URL("../vendor/", import.meta.url);

async function make() {
  const py = await loadPyodide({ ...runtime, _makeSnapshot: true });
  const zip = await fetch(new URL("app.zip", vendor));
  if (!zip.ok) throw new Error(`app.zip: HTTP ${zip.status}`);
  const failed = prepareSnapshot(py, await zip.arrayBuffer(), build.snapshot_modules, build.web_modules);
  return { bytes: py.makeMemorySnapshot(), failed };
}

self.onmessage = async ({ data }) => {
  const t0 = performance.now();
  try {
    const { bytes, failed } = data?.bytes ? { bytes: data.bytes, failed: "" } : await make();
    const { stored, gzip } = await writeSnapshot(snapshotKey(build), bytes, { compress: !!data?.compress });
    self.postMessage({
      ok: true, size: bytes.length, stored, gzip, failed: failed || "",
      ms: Math.round(performance.now() - t0),
    });
  } catch (e) {
    self.postMessage({ ok: false, error: String(e && e.stack || e) });
  }
};
