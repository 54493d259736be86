// Where every Pyodide of the app loads its runtime from: the vendored folder,
// and the standard library the app runs (web/vendor/stdlib.zip, made by
// tools/stdlib.py: issue 31 item 1) when the build names one, else Pyodide's
// full python_stdlib.zip. The page, its workers and the build's snapshot
// (tools/make-snapshot.mjs) all load the same one: a heap restored over another
// zip would read it at the wrong offsets.
import build from "../vendor/build.mjs";

const vendor = new URL("../vendor/", import.meta.url);
export const indexURL = new URL("pyodide/", vendor).href;
export const stdLibURL = build.stdlib ? new URL(build.stdlib, vendor).href
  : indexURL + "python_stdlib.zip";
// spread into loadPyodide's options
export const runtime = { indexURL, stdLibURL };
