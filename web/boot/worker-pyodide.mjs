// Pyodide with the app for a Web Worker of ours (e.g. web/solver-worker.mjs):
//
//   import { loadAppPyodide } from "./boot/worker-pyodide.mjs";
//   const { py, boot } = await loadAppPyodide();   // boot: "snapshot" | "normal"
//   // {snapshot: false}: no snapshot; {shipped: false}: only a stored one;
//   // {shipped: "cached"}: the shipped one only if the page downloaded it (HTTP cache)
//
// Restores the memory snapshot of this runtime + app version (kosynka and the
// pure web modules already imported): the page's copy in IndexedDB, else the
// one shipped with the build; boots normally when there is none. Either way
// unpacks web/vendor/app.zip in the home directory (the file system is not in a
// snapshot), makes it the current directory and the first entry of sys.path,
// and reseeds `random`. Never touches the DOM.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
import build from "../vendor/build.mjs";
import { findSnapshot } from "./snapshot-store.mjs";
import { HOME, REINIT } from "./snapshot-prepare.mjs";
import { runtime } from "./runtime.mjs";

const vendor = new URL("../vendor/", import.meta.url);

export async function loadAppPyodide({ snapshot = true, shipped = true } = {}) {
  const zip = fetch(new URL("app.zip", vendor)).then((r) => {
    if (!r.ok) throw new Error(`app.zip: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  let py = null, boot = "normal";
  const snap = snapshot ? await findSnapshot(build, { shipped }) : null;
  if (snap) {
    try {
      py = await loadPyodide({ ...runtime, _loadSnapshot: snap.bytes });
      boot = "snapshot";
    } catch (e) {
      py = null;
    }
  }
  if (!py) py = await loadPyodide(runtime);
  py.unpackArchive(await zip, "zip", { extractDir: HOME });
  // a restored heap has the home directory set up already
  py.runPython(boot === "snapshot" ? REINIT : `
import os, sys
os.chdir(${JSON.stringify(HOME)})
sys.path.insert(0, ${JSON.stringify(HOME)})
`);
  return { py, boot };
}
