// What a Pyodide memory snapshot of Kosynka holds, the same wherever it is made:
// at build time under Node.js (tools/make-snapshot.mjs) or in the browser's
// fallback worker (snapshot-worker.mjs). `py` is a `_makeSnapshot` instance.
//
// The app bundle (web/vendor/app.zip) is unpacked where PyScript's [files]
// mapping puts it (the home directory, the current directory), so the imported
// modules' paths are the ones the page has after PyScript unpacks it again (the
// file system itself is not in a snapshot). Then the app's pure modules
// (build.snapshot_modules) are imported. Strings only cross back to JS: no JS
// object may be referenced from Python at snapshot time. The standard modules
// that the other app modules (web.app, web.view, …, web.main: they touch the DOM) import at
// module level are imported too, and importlib.metadata, which the page's
// importlib.invalidate_caches() after a restore pulls in.

export const HOME = "/home/pyodide";

const PRELUDE = `
def _kosynka_prepare(modules, rest):
    import ast, importlib.util, json, os, sys, types
    os.chdir(${JSON.stringify(HOME)})
    if ${JSON.stringify(HOME)} not in sys.path:
        sys.path.insert(0, ${JSON.stringify(HOME)})
    failed = []

    def load(name):
        try:
            importlib.import_module(name)
        except Exception as e:
            failed.append(f"{name}: {e!r}")

    for name in json.loads(modules):
        load(name)
    # the rest of the app (it touches the DOM): the standard modules it imports
    # and its compiled code, written next to it after a restore (a pyc checked
    # against the source's hash: a changed source is compiled as usual)
    pyc = {}
    for path in json.loads(rest):
        try:
            source = open(path, "rb").read()
            tree = ast.parse(source)
            code = compile(source, path, "exec", dont_inherit=True)
        except (OSError, SyntaxError, ValueError):
            continue
        pyc[importlib.util.cache_from_source(path)] = importlib._bootstrap_external._code_to_hash_pyc(
            code, importlib.util.source_hash(source), True)
        for node in tree.body:
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                if name.partition(".")[0] in sys.stdlib_module_names and name not in sys.modules:
                    load(name)
    mod = sys.modules["_kosynka_pyc"] = types.ModuleType("_kosynka_pyc")
    mod.files = pyc
    # what the page runs after restoring (it imports importlib.metadata)
    importlib.invalidate_caches()
    return "\\n".join(failed)
`;

// Run after a restore (the page and worker-pyodide.mjs): the compiled code kept
// by the snapshot goes to disk (PyScript unpacks the sources next to it later),
// the import caches are refreshed, \`random\` gets a new seed (the snapshot froze
// its state).
export const REINIT = `
def _kosynka_reinit():
    import importlib, os, random, sys
    for path, data in getattr(sys.modules.pop("_kosynka_pyc", None), "files", {}).items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    importlib.invalidate_caches()
    random.seed()
_kosynka_reinit()
del _kosynka_reinit
`;

// `modules`: build.snapshot_modules; `rest`: build.web_modules (those not in
// `modules` are parsed for their standard-library imports and compiled).
// -> "" or the modules that did not import, one per line
export function prepareSnapshot(py, zipBytes, modules, rest = []) {
  py.unpackArchive(zipBytes, "zip", { extractDir: HOME });
  py.runPython(PRELUDE);
  const files = rest.filter((m) => !modules.includes(m))
    .map((m) => `${HOME}/${m.replaceAll(".", "/")}.py`);
  const call = `_kosynka_prepare(${JSON.stringify(JSON.stringify(modules))}, ${JSON.stringify(JSON.stringify(files))})`;
  try {
    return py.runPython(call);
  } finally {
    py.runPython("del _kosynka_prepare");
  }
}
