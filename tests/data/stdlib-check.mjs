// tests/test_stdlib.py: imports the given modules, in order, in the vendored
// Pyodide under each standard library, the app's bundle unpacked where the page
// has it (web/boot/snapshot-prepare.mjs's HOME, the current directory).
//   node tests/data/stdlib-check.mjs ROOT NAMES.json
// -> one JSON line: {"full": {name: outcome}, "trimmed": {name: outcome}};
// outcome "ok" or "ExceptionType: message".
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(process.argv[2]);
const vendor = path.join(root, "web", "vendor");
const names = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const build = JSON.parse(fs.readFileSync(path.join(vendor, "build.json"), "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(vendor, "pyodide", "pyodide.mjs")).href);
const { HOME } = await import(pathToFileURL(path.join(root, "web", "boot", "snapshot-prepare.mjs")).href);
const zip = new Uint8Array(fs.readFileSync(path.join(vendor, "app.zip")));

const CHECK = `
def _check(names):
    import importlib, json, os, sys
    os.chdir(${JSON.stringify(HOME)})
    sys.path.insert(0, ${JSON.stringify(HOME)})
    out = {}
    for name in json.loads(names):
        try:
            importlib.import_module(name)
            out[name] = "ok"
        except BaseException as e:
            out[name] = f"{type(e).__name__}: {e}"
    return json.dumps(out)
`;

async function run(stdLibURL) {
  const py = await loadPyodide({ indexURL: path.join(vendor, "pyodide") + path.sep, stdLibURL });
  py.unpackArchive(zip, "zip", { extractDir: HOME });
  py.runPython(CHECK);
  return JSON.parse(py.runPython(`_check(${JSON.stringify(JSON.stringify(names))})`));
}

const full = await run(path.join(vendor, "pyodide", "python_stdlib.zip"));
const trimmed = await run(path.join(vendor, build.stdlib));
console.log(JSON.stringify({ full, trimmed }));
process.exit(0);
