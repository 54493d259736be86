// Node test of web/race/relay.mjs (issue 30 item 1), run by tests/test_race_web_relay.py:
// two pages' hubs over a fake set of relays that lose, repeat and reorder events —
// every message arrives once, whole and in order; the relays see no plain text;
// a forged event is dropped; the rate stays at one event per GAP_MS per link; a
// goodbye drops the other end. The Trystero modules are stood in for by
// fake_trystero.mjs (hooks.mjs maps the import names), so nothing is vendored.
import assert from "node:assert/strict";
import { relays, stats } from "./fake_trystero.mjs";

const { hub, GAP_MS } = await import("../../web/race/relay.mjs");
const secret = "00112233445566778899aabbccddeeff";
const urls = ["ws://a", "ws://b"];
const host = hub({ secret, relays: urls, selfId: "HOST", accept: true, own: false });
const friend = hub({ secret, relays: urls, selfId: "FRIEND", accept: false, own: false });
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (what, ms = 20000) => {
  const t0 = Date.now();
  while (!what()) {
    if (Date.now() - t0 > ms) throw new Error("timed out");
    await wait(20);
  }
};

let served = null;
const heard = [];
host.onpeer = (ch) => {
  served = ch;
  ch.onmessage = (t) => heard.push(t);
};
const link = friend.connect("HOST");
const got = [];
const statuses = [];
link.onmessage = (t) => got.push(t);
link.onstatus = (s) => statuses.push(s);
await until(() => link.connected && served);

relays.loss = 0.3;          // from now on: a third lost, some repeated, all reordered
relays.dup = 0.3;
relays.jitter = 300;
const big = "é".repeat(5000) + JSON.stringify({ q: "\"quoted\"", n: [1, 2, 3] });   // in parts
const sent = [];
for (let i = 0; i < 30; i++) {
  const text = i === 7 ? big : `{"kind":"move","id":${i}}`;
  sent.push(text);
  served.send(text);
  link.send(`pong ${i}`);
  await wait(20);
}
await until(() => got.length >= 30 && heard.length >= 30, 60000);
assert.deepEqual(got, sent);                         // once each, whole, in order
assert.deepEqual(heard, sent.map((_, i) => `pong ${i}`));
for (const e of relays.events) {                     // the relays see no plain text
  assert.ok(!e.content.includes("move") && !e.content.includes("pong") && !e.content.includes("FRIEND"));
  assert.ok(e.kind >= 20000 && e.kind < 30000);      // ephemeral: not stored
}
// per link and direction (an inbox's tag): never two events closer than GAP_MS
let rate = 0;
for (const tag of new Set(relays.events.map((e) => e.tags[0][1]))) {
  const ts = relays.events.filter((e) => e.tags[0][1] === tag).map((e) => e.t);
  const gaps = ts.slice(1).map((t, i) => t - ts[i]);
  assert.ok(Math.min(...gaps) >= GAP_MS - 5, `gaps ${gaps}`);
  rate = Math.max(rate, (ts.length - 1) / ((ts.at(-1) - ts[0]) / 1000));
}

// a forged event (not sealed with the table's key) changes nothing
relays.loss = relays.dup = relays.jitter = 0;
relays.forge(await (async () => {
  const other = hub({ secret: "ff".repeat(16), relays: urls, selfId: "X", accept: false, own: false });
  await other.ready;
  return other;
})(), "FRIEND");
await wait(300);
assert.equal(got.length, 30);

// goodbye: the host closes its end, the friend's drops
served.close();
await until(() => statuses.includes("dropped"));
console.log(JSON.stringify({ ok: true, events: relays.events.length, rate: +rate.toFixed(2), lost: stats.lost }));
host.close();
friend.close();
process.exit(0);
