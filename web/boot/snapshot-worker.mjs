// Makes the Pyodide memory snapshot off the page (a `_makeSnapshot` instance
// cannot touch the DOM): load Pyodide, unpack the app bundle where PyScript
// puts it (the home directory), import the pure modules the app needs
// (build.snapshot_modules, computed by tools/serve.py), snapshot the heap and
// store it in IndexedDB under the runtime + app version.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import build from "../vendor/build.mjs";
import { snapshotKey, writeSnapshot } from "./snapshot-store.mjs";

const vendor = new URL("../vendor/", import.meta.url);

self.onmessage = async ({ data }) => {
  const t0 = performance.now();
  try {
    const py = await loadPyodide({
      indexURL: new URL("pyodide/", vendor).href,
      _makeSnapshot: true,
    });
    const zip = await fetch(new URL("app.zip", vendor));
    if (!zip.ok) throw new Error(`app.zip: HTTP ${zip.status}`);
    py.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide" });
    const mods = JSON.stringify(build.snapshot_modules);
    // Strings only: no JS object may be referenced from Python at snapshot time.
    const failed = py.runPython(`
import importlib, json, os, sys
os.chdir("/home/pyodide")
if "" not in sys.path and "/home/pyodide" not in sys.path:
    sys.path.insert(0, "/home/pyodide")
_failed = []
for _m in json.loads(${JSON.stringify(mods)}):
    try:
        importlib.import_module(_m)
    except Exception as _e:
        _failed.append(f"{_m}: {_e!r}")
del _m
"\\n".join(_failed)
`);
    const bytes = py.makeMemorySnapshot();
    const { stored, gzip } = await writeSnapshot(snapshotKey(build), bytes, { compress: !!data?.compress });
    self.postMessage({
      ok: true, size: bytes.length, stored, gzip, failed: failed || "",
      ms: Math.round(performance.now() - t0),
    });
  } catch (e) {
    self.postMessage({ ok: false, error: String(e && e.stack || e) });
  }
};
