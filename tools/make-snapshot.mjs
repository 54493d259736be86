// The memory snapshot shipped with the build (issue 15): Pyodide under Node.js,
// prepared exactly as the browser's fallback worker prepares it
// (web/boot/snapshot-prepare.mjs), written gzipped as a static file the page
// restores on a first visit (web/boot/pyodide.mjs).
//
//   node tools/make-snapshot.mjs [ROOT]
//
// Reads ROOT/web/vendor/build.json (runtime, app bundle, modules to import),
// writes ROOT/web/vendor/snapshot-<build.version>.bin.gz (the service worker's
// content version: a new deploy is a new URL) and deletes the snapshots of
// other versions. Prints one JSON line: {file, raw, gzip, ms, make_ms, gzip_ms,
// failed}. Any failure: a message on stderr, exit status 1, nothing written
// (the page then boots normally and makes its own snapshot).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const root = path.resolve(process.argv[2] || ".");
const vendor = path.join(root, "web", "vendor");
const t0 = performance.now();

try {
  const build = JSON.parse(fs.readFileSync(path.join(vendor, "build.json"), "utf8"));
  const { loadPyodide } = await import(pathToFileURL(path.join(vendor, "pyodide", "pyodide.mjs")).href);
  const { prepareSnapshot } = await import(
    pathToFileURL(path.join(root, "web", "boot", "snapshot-prepare.mjs")).href);
  // the standard library the page loads (web/boot/runtime.mjs)
  const stdLibURL = build.stdlib ? path.join(vendor, build.stdlib) : undefined;
  const py = await loadPyodide({
    indexURL: path.join(vendor, "pyodide") + path.sep, stdLibURL, _makeSnapshot: true,
  });
  const zip = new Uint8Array(fs.readFileSync(path.join(vendor, "app.zip")));
  const failed = prepareSnapshot(py, zip, build.snapshot_modules, build.web_modules);
  const bytes = py.makeMemorySnapshot();
  const t1 = performance.now();
  // level 6: within 1 % of level 9's size, three times faster
  const gz = zlib.gzipSync(bytes, { level: 6 });
  const t2 = performance.now();
  const name = `snapshot-${build.version}.bin.gz`;
  const tmp = path.join(vendor, name + ".tmp");
  fs.writeFileSync(tmp, gz);
  fs.renameSync(tmp, path.join(vendor, name));
  for (const old of fs.readdirSync(vendor)) {
    if (/^snapshot-.*\.bin\.gz(\.tmp)?$/.test(old) && old !== name) fs.rmSync(path.join(vendor, old));
  }
  const round = Math.round;
  console.log(JSON.stringify({
    file: `web/vendor/${name}`, raw: bytes.length, gzip: gz.length, failed: failed || "",
    ms: round(t2 - t0), make_ms: round(t1 - t0), gzip_ms: round(t2 - t1),
  }));
  process.exit(0);
} catch (e) {
  console.error(`make-snapshot: ${(e && e.message) || e}`.split("\n")[0]);
  process.exit(1);
}
