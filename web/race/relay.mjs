// The race through the relays (issue 30 item 1): when a friend's page and the
// host's have no direct WebRTC path, their messages go over the table's public
// Nostr relays, as a Channel (rtc.mjs) like any other — web/race/rtc.py wraps it
// as a kosynka.race.transport.Link under the same contract (reliable, in order
// while up; "dropped" when the other side goes; a new link for a comeback).
//
// - The relay protocol is Trystero's (npm, pinned and vendored, see room.mjs): its
//   Nostr strategy's signed events (createEvent: the page's own ephemeral key,
//   an ephemeral kind 20000–29999 derived from the topic, so relays keep nothing)
//   over its own relay sockets (getRelaySockets: one connection per relay per
//   page, the one its room already has); a relay it has no socket to (a browser
//   without WebRTC never joins a Trystero room) gets one made by its makeSocket.
// - Every message is end to end encrypted and authenticated: AES-GCM (WebCrypto),
//   the key derived by HKDF-SHA-256 from the 16-byte secret of the table link's
//   fragment. A relay sees neither moves nor names, only that someone's inbox got
//   an event. Each page's inbox is a topic derived from the same secret and its
//   Trystero peer id: a page subscribes to its own only.
// - Each event goes to every relay of the table at once; the copies are dropped by
//   the event's id, and the frames in it by their number.
// - Reliable and in order over relays that may lose or reorder: frames are
//   numbered, acknowledged (cumulatively, in every event) and sent again after
//   RESEND_MS until acknowledged; a message over PART_CHARS goes in parts.
// - Rate: at most one event every GAP_MS per link (4 a second): what is waiting
//   goes in one event (the host's views, pings and answers coalesced).
// - A link opens when the other side answers its hello; it drops when the other
//   says goodbye (close()), or has not been heard for DEAD_MS.

import { createEvent, getRelaySockets } from "@trystero-p2p/nostr";
import { makeSocket } from "@trystero-p2p/core";
import { Channel } from "./rtc.mjs";

export const GAP_MS = 250;           // one event per link at most this often
const RESEND_MS = 2000;             // a frame not acknowledged by then goes again
const HELLO_MS = 1000;              // a link's hello, until answered
const OPEN_MS = 15000;              // a hello not answered by then: the link is dropped
const DEAD_MS = 20000;              // the other side not heard this long: dropped
// An event's content stays within 4,000 characters: relays limit it (nostr-relay's
// default is 4,096), and one that refuses an event is dropped by Trystero for good.
// The frames are compressed (deflate-raw) before they are sealed: a view's JSON
// shrinks about 4 times, so several fit in one event.
const CONTENT_MAX = 4000;
const PART_CHARS = 900;             // a message's part: fits CONTENT_MAX however it compresses
const EVENT_CHARS = 24000;          // the frames tried in one event (fewer if they do not fit)
const WINDOW = 1024;                // frames ahead of the next one expected, at most
const MAX_SESSIONS = 16;            // links a page takes from others at once
const SEEN = 512;                   // event ids remembered (copies from other relays)
const SALT = new TextEncoder().encode("kosynka-race-relay-1");

const b64 = (bytes) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
// deflate-raw through the browser's CompressionStream or DecompressionStream
const squeeze = async (bytes, how) => new Uint8Array(await new Response(
  new Blob([bytes]).stream().pipeThrough(new globalThis[how]("deflate-raw"))).arrayBuffer());
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const rand = () => hex(crypto.getRandomValues(new Uint8Array(8)));

async function derive(secretHex) {
  const base = await crypto.subtle.importKey(
    "raw", Uint8Array.from(secretHex.match(/../g), (h) => parseInt(h, 16)), "HKDF", false,
    ["deriveKey", "deriveBits"]);
  const info = (s) => new TextEncoder().encode(s);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: info("key") }, base,
    { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const inboxes = new Map();
  const inbox = (peerId) => {
    if (!inboxes.has(peerId)) {
      inboxes.set(peerId, crypto.subtle.deriveBits(
        { name: "HKDF", hash: "SHA-256", salt: SALT, info: info("inbox:" + peerId) }, base, 128)
        .then((bits) => "kosynka-" + hex(new Uint8Array(bits))));
    }
    return inboxes.get(peerId);
  };
  return { key, inbox };
}

// The relays of one page at one table: its inbox subscribed on each, the events to
// and from its links.
export class Hub {
  constructor({ secret, relays, selfId, accept, own }) {
    this.relays = [...relays];
    this.bases = new Set(this.relays.map(base));
    this.mine = own;                 // no Trystero room on this page: sockets of our own
    this.selfId = selfId;
    this.accept = accept;            // the host's page: takes links others open
    this.onpeer = null;              // (RelayChannel) => void
    this.onknock = null;             // (peer id, name) => void: a friend joining
    this.links = new Map();          // "peer/session" → RelayChannel
    this.ended = new Set();          // links ended here: their late events open nothing
    this.byes = new Map();           // an ended link → when it was last told goodbye again
    this.seen = [];
    this.seenSet = new Set();
    this.own = {};                   // relay → a client of ours (Trystero has no socket there)
    this.subscribed = new WeakSet(); // sockets our inbox is asked for on
    this.listened = new WeakSet();
    this.subId = "kr" + rand();
    this.sent = 0;                   // events published (each to every relay)
    this.closed = false;
    this.ready = derive(secret).then(async ({ key, inbox }) => {
      this.key = key;
      this.inbox = inbox;
      this.topic = await inbox(selfId);
      this._maintain();
    });
    this.timer = setInterval(() => this._maintain(), 1000);
  }

  // the sockets to the table's relays: Trystero's (every one its room has, a fresh
  // address of a relay too, see room.mjs probe()), or, with no Trystero room on this
  // page, ours made by Trystero's makeSocket (its reconnecting and back-off)
  sockets() {
    if (this.mine) {
      if (!this.closed) {
        for (const url of this.relays) {
          this.own[url] ??= makeSocket(url, (data) => this._message(data), () => {});
        }
      }
      return Object.values(this.own).map((c) => c.socket).filter(Boolean);
    }
    return Object.entries(getRelaySockets())
      .filter(([url, s]) => s && this.bases.has(base(url)))
      .map(([, s]) => s);
  }

  openCount() {
    return this.sockets().filter((s) => s.readyState === 1).length;
  }

  // our inbox asked for on every open socket (a reconnected relay is a new socket),
  // and the links' clocks: a hello again, a resend, a peer not heard
  _maintain() {
    if (this.closed || !this.topic) return;
    for (const s of this.sockets()) {
      if (s.readyState !== 1 || this.subscribed.has(s)) continue;
      if (!this.mine && !this.listened.has(s)) {
        s.addEventListener("message", (e) => this._message(String(e.data)));
        this.listened.add(s);
      }
      this.subscribed.add(s);
      s.send(JSON.stringify(["REQ", this.subId, {
        kinds: [kindOf(this.topic)], "#x": [this.topic], since: Math.floor(Date.now() / 1000) - 5 }]));
    }
    for (const link of [...this.links.values()]) link._clock();
  }

  async _message(data) {
    if (this.closed || !this.key || data.indexOf(this.subId) < 0) return;
    let ev;
    try {
      const [type, sub, event] = JSON.parse(data);
      if (type !== "EVENT" || sub !== this.subId || !event || typeof event.id !== "string") return;
      ev = event;
    } catch (e) { return; }
    if (this.seenSet.has(ev.id)) return;         // the same event from another relay
    this.seenSet.add(ev.id);
    this.seen.push(ev.id);
    if (this.seen.length > SEEN) this.seenSet.delete(this.seen.shift());
    let p;
    try {
      const raw = unb64(String(ev.content));
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: raw.slice(0, 12) }, this.key, raw.slice(12));
      p = JSON.parse(new TextDecoder().decode(await squeeze(new Uint8Array(plain), "DecompressionStream")));
    } catch (e) { return; }                      // not ours, or forged: nothing
    if (!p || p.t !== this.selfId || typeof p.f !== "string") return;
    if (typeof p.k === "string") {           // a friend's page says it is joining
      if (this.accept && this.onknock) this.onknock(p.f, p.k.slice(0, 64));
      return;
    }
    if (typeof p.s !== "string") return;
    const id = p.f + "/" + p.s;
    let link = this.links.get(id);
    if (!link && this.ended.has(id)) {     // a link ended here (its goodbye may have been
      const last = this.byes.get(id) || 0;  // lost): goodbye again, once a second at most
      if (Date.now() - last >= 1000 && !p.b) {
        this.byes.set(id, Date.now());
        this.seal({ f: this.selfId, t: p.f, s: p.s, a: 0, m: [], b: 1 })
          .then((c) => this.publish(p.f, c)).catch(() => {});
      }
      return;
    }
    if (!link) {
      if (!this.accept || !p.h || this.links.size >= MAX_SESSIONS) return;
      link = new RelayChannel(this, p.f, p.s, false);
      this.links.set(id, link);
      if (this.onpeer) this.onpeer(link);
      link._opened();
    }
    link._take(p);
  }

  // a friend's page tells the host's that it is joining, under name (issue 30 item
  // 3: the host's lobby shows it at once, and whether it failed)
  knock(peerId, name, tries = 40) {
    if (this.closed) return;
    if (!this.openCount()) {                 // (the relays' sockets may be opening still)
      if (tries > 0) setTimeout(() => this.knock(peerId, name, tries - 1), 250);
      return;
    }
    this.seal({ f: this.selfId, t: peerId, k: name })
      .then((c) => this.publish(peerId, c)).catch(() => {});
  }

  // a link to peerId opened by this page (a friend's to the host's)
  connect(peerId) {
    const link = new RelayChannel(this, peerId, rand(), true);
    this.links.set(link.key, link);
    this.ready.then(() => link._send());
    return link;
  }

  // a payload compressed, encrypted and authenticated: an event's content
  async seal(payload) {
    await this.ready;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const packed = await squeeze(new TextEncoder().encode(JSON.stringify(payload)), "CompressionStream");
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, this.key, packed));
    const body = new Uint8Array(12 + sealed.length);
    body.set(iv);
    body.set(sealed, 12);
    return b64(body);
  }

  async publish(to, content) {
    const event = await createEvent(await this.inbox(to), content);
    this.sent++;
    for (const s of this.sockets()) if (s.readyState === 1) s.send(event);
  }

  _ended(link) {
    this.links.delete(link.key);
    this.ended.add(link.key);
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    for (const link of [...this.links.values()]) link.close();
    for (const s of this.sockets()) {
      if (s.readyState === 1 && this.subscribed.has(s)) s.send(JSON.stringify(["CLOSE", this.subId]));
    }
    setTimeout(() => { for (const c of Object.values(this.own)) c.close(); }, 1000);
  }
}

// a relay's URL without the "k" of a fresh address (room.mjs variant())
function base(url) {
  try {
    const u = new URL(url);
    u.searchParams.delete("k");
    return u.href;
  } catch (e) { return url; }
}

// Trystero's nostr strategy derives an event's kind from its topic the same way
// (strToNum(topic, 1e4) + 2e4: ephemeral, relays do not store it)
function kindOf(topic) {
  return [...topic].reduce((a, c) => a + c.charCodeAt(0), 0) % 10000 + 20000;
}

export class RelayChannel extends Channel {
  constructor(hub, peer, session, opener) {
    super();
    this.hub = hub;
    this.peer = peer;
    this.session = session;
    this.key = peer + "/" + session;
    this.opener = opener;            // this page opened it (says hello until answered)
    this.way = "relay";
    this.out = [];                   // frames not acknowledged: {n, text, more, at}
    this.next = 1;                   // the next frame's number
    this.got = 0;                    // frames delivered in order so far
    this.ahead = new Map();          // frames that came before their turn
    this.part = "";                  // a message's parts so far
    this.owe = false;                // an acknowledgement is due
    this.last = 0;                   // our last event (ms)
    this.heard = Date.now();
    this.born = Date.now();
    this.timer = 0;
    this.events = 0;                 // events sent (each to every relay)
    this.sending = false;            // an event being sealed (then "again": another)
    this.again = false;
    this.bye = false;                // a goodbye to send (close())
  }

  send(text) {
    if (!this.connected) return;
    for (let i = 0; i === 0 || i < text.length; i += PART_CHARS) {
      const more = i + PART_CHARS < text.length;
      this.out.push({ n: this.next++, text: text.slice(i, i + PART_CHARS), more, at: 0 });
    }
    this._kick(0);
  }

  _kick(delay) {
    if (this.timer || !["new", "open"].includes(this.state)) return;
    const wait = Math.max(delay, this.last + GAP_MS - Date.now(), 0);
    this.timer = setTimeout(() => {
      this.timer = 0;
      // an event may have gone since this was set (one being sealed then)
      if (this.last + GAP_MS > Date.now()) this._kick(0);
      else this._send();
    }, wait);
  }

  // one event: the frames due (new, or not acknowledged within RESEND_MS) as many
  // as fit, our acknowledgement, a hello until answered, a goodbye when closing
  async _send() {
    if (this.sending) return void (this.again = true);
    const bye = this.bye;
    this.sending = true;
    try {
      const now = Date.now();
      const due = [];
      let size = 0;
      for (const f of this.out) {
        if (f.at && now - f.at < RESEND_MS) continue;
        if (size + f.text.length > EVENT_CHARS && due.length) break;
        size += f.text.length;
        due.push(f);
      }
      const hello = this.opener && this.state === "new";
      if (!due.length && !this.owe && !hello && !bye) return;
      let n = due.length;
      let content;
      for (;;) {
        const p = { f: this.hub.selfId, t: this.peer, s: this.session, a: this.got,
          m: due.slice(0, n).map((f) => (f.more ? [f.n, f.text, 1] : [f.n, f.text])) };
        if (hello) p.h = 1;
        if (bye) p.b = 1;
        content = await this.hub.seal(p);
        if (content.length <= CONTENT_MAX || n === 0) break;
        n = n > 1 ? Math.ceil(n / 2) : 0;   // (a part always fits; else it waits)
      }
      for (const f of due.slice(0, n)) f.at = now;
      this.owe = false;
      this.events++;
      if (bye) this.bye = false;
      await this.hub.publish(this.peer, content);
      this.last = Date.now();       // (sealing takes a while: the gap counts from the event)
    } catch (e) {
      console.warn("race relay link: not sent", e);
    } finally {
      this.sending = false;
    }
    if (this.again && this.bye) this._send();
    else if (this.again || this.out.some((f) => !f.at)) this._kick(0);
    this.again = false;
  }

  // each second (Hub._maintain): hello again, frames again, a peer gone quiet
  _clock() {
    const now = Date.now();
    if (this.state === "new") {
      if (now - this.born > OPEN_MS) return this._drop();
      if (now - this.last >= HELLO_MS) this._send();
    } else if (this.state === "open") {
      if (now - this.heard > DEAD_MS) return this._drop();
      if (this.out.some((f) => now - f.at >= RESEND_MS)) this._kick(0);
    }
  }

  _take(p) {
    if (this.state === "closed" || this.state === "dropped") return;
    this.heard = Date.now();
    if (this.opener) this._opened();         // answered: the link is open
    if (Number.isSafeInteger(p.a)) this.out = this.out.filter((f) => f.n > p.a);
    const frames = Array.isArray(p.m) ? p.m : [];
    for (const f of frames) {
      if (!Array.isArray(f) || !Number.isSafeInteger(f[0]) || typeof f[1] !== "string") continue;
      this.owe = true;
      if (f[0] > this.got && f[0] <= this.got + WINDOW) this.ahead.set(f[0], f);
    }
    while (this.ahead.has(this.got + 1)) {
      const f = this.ahead.get(this.got + 1);
      this.ahead.delete(++this.got);
      this.part += f[1];
      if (this.part.length > 2 * 1024 * 1024) return this._drop();   // no message is that long
      if (!f[2]) {
        const text = this.part;
        this.part = "";
        this._receive(text);
      }
    }
    if (p.b) return this._drop();
    if (this.owe || (!this.opener && p.h)) {
      this.owe = true;
      this._kick(100);     // an answer to come may carry it
    }
  }

  _shutdown() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.state === "closed") {   // what is waiting, and goodbye
      this.bye = true;
      this._send();
    }
    this.hub._ended(this);
  }
}

export function hub(options) {
  return new Hub(options);
}
