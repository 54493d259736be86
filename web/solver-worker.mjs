// The solver off the page (issue 4 item 9): a module Web Worker with its own
// Pyodide runs kosynka.solver for the page, so a long search never blocks taps.
// Needs no cross-origin isolation (it never touches the DOM; messages only).
//
// The protocol (versioned envelopes {v, id, kind}, JSON text both ways) and the
// jobs are Python: web/solver_protocol.py. This script only carries messages and
// runs the jobs in slices from its event loop, so a "cancel" arrives between
// slices and stops the search.
import { loadAppPyodide } from "./boot/worker-pyodide.mjs";

let jobs = null;
let running = false;

const booted = (async () => {
  // restored from the page's memory snapshot when one is stored, or from the
  // shipped one if the page downloaded it (never downloaded again: issue 23
  // item 2), else a normal boot
  const { py, boot } = await loadAppPyodide({ shipped: "cached" });
  const protocol = py.pyimport("web.solver_protocol");
  jobs = protocol.Jobs();
  return protocol.ready(String(boot));
})();

booted.then(
  (ready) => self.postMessage(ready),
  // Python is not there to build this one: the same envelope, by hand (protocol v1)
  (e) => self.postMessage(JSON.stringify(
    { v: 1, id: 0, kind: "failed", error: String((e && e.stack) || e) })),
);

function run() {
  running = false;
  for (const answer of jobs.step().toJs()) self.postMessage(answer);
  schedule();
}

function schedule() {
  if (!running && jobs.busy) {
    running = true;
    setTimeout(run, 0);
  }
}

self.onmessage = async ({ data }) => {
  try {
    await booted;
  } catch (e) {
    return; // "failed" was sent
  }
  const answer = jobs.receive(String(data));
  if (answer !== undefined && answer !== null) self.postMessage(answer);
  schedule();
};
