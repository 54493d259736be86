// The standard library the app runs (issue 31 item 1): Pyodide's
// python_stdlib.zip cut down to what the page, its workers and PyScript import,
// given to loadPyodide as `stdLibURL` (web/boot/runtime.mjs).
//
//   node tools/make-stdlib.mjs ROOT ROOTS.json
//
// ROOTS.json (written by tools/stdlib.py): {"roots": [module names the app's
// code names in any import, its own ones and PyScript's], "out": path}. Here,
// in the vendored Pyodide (Python 3.14, which parses its own library), the
// roots grow by what running the app's start imports: every module in
// sys.modules once Pyodide is up, the snapshot's preparation has run
// (snapshot-prepare.mjs: the app's pure modules and the standard imports of
// the rest) and every module of app.zip has been imported (those that touch
// the DOM fail in Node, after their standard imports). Then every module
// reached from them by any import statement, function-level ones included, is
// kept with its parent packages (not those under `if __name__ == "__main__"`
// or `if TYPE_CHECKING`: they never run here). Writes the zip, each member deflated as in
// Pyodide's (a static host sends a .zip as it is; stored and compressed whole by
// the server it would be ~25 % smaller there and 3x larger elsewhere), and
// prints one JSON line:
// {modules, kept, full, size, ms}. Any failure: a message on stderr, exit 1.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(process.argv[2] || ".");
const vendor = path.join(root, "web", "vendor");
const t0 = performance.now();

const CLOSURE = `
def _kosynka_stdlib(roots, app, out):
    import ast, importlib, json, sys, zipfile
    lib = "/lib/python%d%d.zip" % sys.version_info[:2]
    for name in json.loads(app):
        try:
            importlib.import_module(name)
        except BaseException:
            pass  # a module that touches the DOM: its standard imports ran
    src = zipfile.ZipFile(lib)
    files = {}
    for info in src.infolist():
        if info.filename.endswith(".py"):
            parts = info.filename[:-3].split("/")
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = info.filename

    def known(name):
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name

    never = {"__name__ == '__main__'", "TYPE_CHECKING", "typing.TYPE_CHECKING"}

    def run(tree):  # every node but those under a test that is never true here
        todo = [tree]
        while todo:
            node = todo.pop()
            yield node
            todo += [c for c in ast.iter_child_nodes(node)
                     if not (isinstance(c, ast.If) and ast.unparse(c.test) in never)]

    def imported(name):
        arc = files[name]
        here = name.split(".") if arc.endswith("__init__.py") else name.split(".")[:-1]
        for node in run(ast.parse(src.read(arc), arc)):
            if isinstance(node, ast.Import):
                yield from (a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                yield mod
                yield from (mod + "." + a.name for a in node.names if a.name != "*")

    todo = [known(n) for n in json.loads(roots) + sorted(sys.modules)]
    keep = set()
    while todo:
        name = todo.pop()
        if not name or name in keep:
            continue
        keep.add(name)
        parts = name.split(".")
        todo += [known(".".join(parts[:i])) for i in range(1, len(parts))]
        todo += [known(n) for n in imported(name)]
    arcs = {files[n] for n in keep}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for info in src.infolist():
            if info.filename in arcs:
                z.writestr(info, src.read(info), zipfile.ZIP_DEFLATED, 9)
    return json.dumps({"modules": sorted(keep), "kept": len(keep), "full": len(files)})
`;

try {
  const { roots, out } = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
  const build = JSON.parse(fs.readFileSync(path.join(vendor, "build.json"), "utf8"));
  const { loadPyodide } = await import(pathToFileURL(path.join(vendor, "pyodide", "pyodide.mjs")).href);
  const { prepareSnapshot, REINIT } = await import(
    pathToFileURL(path.join(root, "web", "boot", "snapshot-prepare.mjs")).href);
  const py = await loadPyodide({ indexURL: path.join(vendor, "pyodide") + path.sep });
  const zip = new Uint8Array(fs.readFileSync(path.join(vendor, "app.zip")));
  prepareSnapshot(py, zip, build.snapshot_modules, build.web_modules);
  py.runPython(REINIT);
  py.runPython(CLOSURE);
  const made = "/tmp/stdlib.zip";
  const info = JSON.parse(py.runPython(`_kosynka_stdlib(${JSON.stringify(JSON.stringify(roots))}, ` +
    `${JSON.stringify(JSON.stringify(build.modules.concat(build.web_modules)))}, "${made}")`));
  const bytes = py.FS.readFile(made);
  const tmp = out + ".tmp";
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, out);
  console.log(JSON.stringify({ ...info, size: bytes.length, ms: Math.round(performance.now() - t0) }));
  process.exit(0);
} catch (e) {
  console.error(`make-stdlib: ${(e && e.message) || e}`.split("\n")[0]);
  process.exit(1);
}
