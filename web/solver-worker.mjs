// The solver off the page (issue 4 item 9): a module Web Worker with its own
// Pyodide runs kosynka.solver for the page, so a long search never blocks taps.
// Needs no cross-origin isolation (it never touches the DOM; messages only).
//
// Requests (postMessage), answered with the same id:
//   {id, kind: "deal",  start, draw, redeals}      -> {id, number, states}
//       V1: the first verified deal at or after `start` (kosynka.solver.verified_deal)
//   {id, kind: "solve", position, draw, redeals, max_states, max_seconds}
//                                                   -> {id, result, moves, states}
//       F2: decide a position (deal JSON of kosynka.position.Position.to_json)
// A failure answers {id, error}. The first message after boot is {ready: true}
// (or {ready: false, error}).
import { loadAppPyodide } from "./boot/worker-pyodide.mjs";

let py = null;
let bootKind = null;

const booted = (async () => {
  // restored from the page's memory snapshot when one is stored, else a normal boot
  ({ py, boot: bootKind } = await loadAppPyodide());
  py.runPython(`
import json
from kosynka.position import Position, Rules
from kosynka.solver import verified_deal, solve

def _kosynka_request(text):
    q = json.loads(text)
    rules = Rules(q["draw"], q["redeals"])
    if q["kind"] == "deal":
        number, res = verified_deal(q["start"], rules)
        return json.dumps({"number": number, "states": res.states})
    pos = Position.from_json(q["position"], rules)
    res = solve(pos, max_states=q.get("max_states"), max_seconds=q.get("max_seconds"))
    return json.dumps({"result": res.result, "moves": res.moves, "states": res.states,
                       "seconds": res.seconds})
`);
})();

booted.then(
  () => self.postMessage({ ready: true, boot: bootKind }),
  (e) => self.postMessage({ ready: false, error: String((e && e.stack) || e) }),
);

self.onmessage = async ({ data }) => {
  const id = data && data.id;
  try {
    await booted;
    const fn = py.globals.get("_kosynka_request");
    const out = JSON.parse(fn(JSON.stringify(data)));
    self.postMessage({ id, ...out });
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
};
