// Finds the memory snapshot off the page (a worker of web/boot/pyodide.mjs):
// reading 31 MB back from IndexedDB, or gunzipping the shipped 7 MB into them,
// takes the page's thread about half a second at 4x CPU throttling, just while
// PyScript sets itself up. Request: findSnapshot's options; answer
// {snap: {bytes, meta, source} | null, miss} (bytes transferred).
import build from "../vendor/build.mjs";
import { findSnapshot } from "./snapshot-store.mjs";

self.onmessage = async ({ data }) => {
  const miss = {};
  const snap = await findSnapshot(build, data, miss);
  self.postMessage({ snap, miss }, snap ? [snap.bytes.buffer] : []);
};
