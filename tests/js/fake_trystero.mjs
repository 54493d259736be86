// Stand-ins for Trystero's Nostr strategy in tests/js/relay_link.mjs: createEvent
// makes an event (no signature: the fake relays do not check), getRelaySockets
// gives one fake socket per relay URL, all of them delivering every event to every
// socket subscribed to its tag — losing, repeating and delaying some on demand.
export const stats = { lost: 0 };
const sockets = {};
export const relays = {
  loss: 0, dup: 0, jitter: 0, events: [],
  publish(url, ev) {
    for (const s of Object.values(sockets)) {
      if (s.url !== url) continue;
      for (const [sub, tag] of s.subs) {
        if (!ev.tags.some((t) => t[0] === "x" && t[1] === tag)) continue;
        const copies = Math.random() < this.loss ? 0 : Math.random() < this.dup ? 2 : 1;
        if (!copies) stats.lost++;
        for (let i = 0; i < copies; i++) {
          setTimeout(() => s.listeners.forEach((fn) => fn({ data: JSON.stringify(["EVENT", sub, ev]) })),
            Math.random() * this.jitter);
        }
      }
    }
  },
  forge(hub, to) {
    hub.inbox(to).then((tag) => hub.seal({ f: "HOST", t: to, s: "x", a: 0, m: [[1, "forged"]] })
      .then((content) => this.publish("ws://a", { id: "forged", kind: 20001, tags: [["x", tag]], content })));
  },
};
let n = 0;
class FakeSocket {
  constructor(url) {
    this.url = url;
    this.readyState = 1;
    this.subs = new Map();
    this.listeners = [];
  }
  addEventListener(_type, fn) { this.listeners.push(fn); }
  send(data) {
    const msg = JSON.parse(data);
    if (msg[0] === "REQ") this.subs.set(msg[1], msg[2]["#x"][0]);
    else if (msg[0] === "EVENT") relays.publish(this.url, msg[1]);
  }
  close() { this.readyState = 3; }
}
export const createEvent = async (topic, content) => {
  const ev = { id: `e${n++}`, kind: [...topic].reduce((a, c) => a + c.charCodeAt(0), 0) % 10000 + 20000,
    tags: [["x", topic]], content, t: Date.now() };
  relays.events.push(ev);
  return JSON.stringify(["EVENT", ev]);
};
// the two pages of the test share the sockets (each hub hears only its own
// subscription's events, as on a real relay)
export const getRelaySockets = () => {
  const out = {};
  for (const url of ["ws://a", "ws://b"]) out[url] = sockets[url] ??= new FakeSocket(url);
  return out;
};
export const makeSocket = () => { throw new Error("not in this test"); };
