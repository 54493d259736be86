// Where the Pyodide memory snapshot lives: one IndexedDB record, keyed by the
// runtime and app versions (web/vendor/build.mjs), so a new deploy or a new
// runtime never restores an old heap; and the gzip file shipped with the build.
// Every function here fails soft: it resolves to null/false when storage is
// blocked (private mode) or broken, or the file is missing.

const DB = "kosynka-boot";
const STORE = "snapshot";
const RECORD = "current";

function open() {
  return new Promise((resolve, reject) => {
    let req;
    try {
      req = indexedDB.open(DB, 1);
    } catch (e) {
      reject(e);
      return;
    }
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error("indexedDB blocked"));
  });
}

function tx(db, mode, fn) {
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const out = fn(t.objectStore(STORE));
    t.oncomplete = () => resolve(out.result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error || new Error("aborted"));
  });
}

export const snapshotKey = (build) => `${build.runtime}|app-${build.app}`;

async function gunzip(stream) {
  const out = stream.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(out).arrayBuffer());
}

export async function gzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return await new Response(stream).blob();
}

// -> {bytes: Uint8Array, meta: {size, stored, gzip, ms}} or null; `miss`
// (optional object) gets why not
export async function readSnapshot(key, miss = {}) {
  const t0 = performance.now();
  try {
    const db = await open();
    try {
      const rec = await tx(db, "readonly", (s) => s.get(RECORD));
      if (!rec || rec.key !== key || !rec.data) {
        miss.why = !rec ? "none" : rec.key !== key ? "other version" : "no data";
        return null;
      }
      const data = rec.data instanceof Blob ? new Uint8Array(await rec.data.arrayBuffer()) : rec.data;
      const bytes = rec.gzip ? await gunzip(new Blob([data]).stream()) : data;
      if (bytes.length !== rec.size) {
        miss.why = "short";
        return null;
      }
      const ms = Math.round(performance.now() - t0);
      return { bytes, meta: { size: rec.size, stored: data.byteLength, gzip: !!rec.gzip, ms } };
    } finally {
      db.close();
    }
  } catch (e) {
    miss.why = String(e && (e.name || e.message) || e);
    return null;
  }
}

// The snapshot shipped with the build (tools/make-snapshot.mjs) at `url`: a gzip
// file, decompressed here as it arrives, unless the server already decoded it
// (Content-Encoding: gzip). -> {bytes, meta: {size, sent, ms (fetch + gunzip)}}
// or null; `miss.why` says why not. Options:
// - `budget` (ms): used only if it pays (issue 23 item 3). PROBE_MS after the
//   answer starts, the bytes in so far (counted as they arrive, not as fast as
//   they are gunzipped) project when the whole file will be;
//   later than `budget` ms after the fetch began (a slow link: a normal boot is
//   sooner), the download is dropped.
// - `cached`: only from the HTTP cache (what the page downloaded), never the network.
const PROBE_MS = 400;

export async function fetchShippedSnapshot(url, miss = {}, { signal, budget, cached } = {}) {
  const ctl = new AbortController();
  signal?.addEventListener("abort", () => ctl.abort());
  let probe;
  try {
    const t0 = performance.now();
    const r = await fetch(url, cached ? { signal: ctl.signal, cache: "only-if-cached", mode: "same-origin" }
      : { signal: ctl.signal });
    if (!r.ok) {
      miss.why = `HTTP ${r.status}`;
      return null;
    }
    const decoded = /gzip/i.test(r.headers.get("Content-Encoding") || "");
    const sent = +r.headers.get("Content-Length") || null;
    let body = r.body;
    if (budget && sent && !decoded) {
      // bytes counted as they arrive, whatever the pace of the gunzip
      const [counted, rest] = body.tee();
      body = rest;
      let got = 0;
      const reader = counted.getReader();
      (async () => {
        for (let c = await reader.read(); !c.done; c = await reader.read()) got += c.value.byteLength;
      })().catch(() => {});
      probe = setTimeout(() => {
        const ms = performance.now() - t0;
        if ((got ? ms * sent / got : Infinity) > budget) {
          miss.why = `slow link: ${got} of ${sent} bytes in ${Math.round(ms)} ms`;
          ctl.abort();
        }
      }, PROBE_MS);
    }
    const bytes = decoded ? new Uint8Array(await new Response(body).arrayBuffer()) : await gunzip(body);
    const meta = { size: bytes.length, sent, ms: Math.round(performance.now() - t0) };
    return { bytes, meta };
  } catch (e) {
    miss.why ||= String(e && (e.name || e.message) || e);
    return null;
  } finally {
    clearTimeout(probe);
  }
}

const shippedURL = (build) =>
  new URL(`../vendor/snapshot-${build.version}.bin.gz`, import.meta.url);

// The snapshot of this build, the first found: "stored" (IndexedDB, unless
// `stored` is false), else "shipped" (shippedURL, unless `shipped` is false;
// `shipped: "cached"` takes it only from the HTTP cache). With `early` the
// shipped one is fetched at once, beside the IndexedDB read (dropped if that
// finds one); `budget` as for fetchShippedSnapshot. -> {bytes, meta, source} or
// null; `miss.stored`, `miss.shipped` say why not.
export async function findSnapshot(build, { stored = true, shipped = true, early = false, budget } = {},
  miss = {}) {
  const why = {}, ctl = new AbortController();
  const get = () => fetchShippedSnapshot(shippedURL(build), why,
    { signal: ctl.signal, budget, cached: shipped === "cached" });
  const file = shipped && early ? get() : null;
  if (stored) {
    const no = {};
    const snap = await readSnapshot(snapshotKey(build), no);
    if (snap) {
      ctl.abort();
      return { ...snap, source: "stored" };
    }
    miss.stored = no.why;
  }
  if (!shipped) return null;
  const snap = await (file || get());
  if (snap) return { ...snap, source: "shipped" };
  miss.shipped = why.why;
  return null;
}

// Stored raw by default (31 MB; reading it back takes ~40 ms against ~200 ms
// to gunzip 6 MB); gzip when asked or when the raw copy does not fit. Stored as
// bytes, not as a Blob: a Blob made in a worker that ends at once could not be
// read back by the next page (NotReadableError, seen in Chromium's in-memory
// profiles).
export async function writeSnapshot(key, bytes, { compress = false } = {}) {
  const put = async (compress) => {
    const data = compress ? new Uint8Array(await (await gzip(bytes)).arrayBuffer()) : bytes;
    const db = await open();
    try {
      await tx(db, "readwrite", (s) =>
        s.put({ key, size: bytes.length, gzip: compress, data, made: Date.now() }, RECORD));
    } finally {
      db.close();
    }
    return { stored: data.byteLength, gzip: compress };
  };
  try {
    return await put(compress);
  } catch (e) {
    if (compress) throw e;
    return await put(true);
  }
}

export async function hasSnapshot(key) {
  try {
    const db = await open();
    try {
      const rec = await tx(db, "readonly", (s) => s.get(RECORD));
      return !!rec && rec.key === key;
    } finally {
      db.close();
    }
  } catch (e) {
    return false;
  }
}

export async function deleteSnapshot() {
  try {
    const db = await open();
    try {
      await tx(db, "readwrite", (s) => s.delete(RECORD));
    } finally {
      db.close();
    }
    return true;
  } catch (e) {
    return false;
  }
}
