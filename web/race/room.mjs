// The table link's transport (issue 19 item 1): friends find the host's page
// through public Nostr relays with Trystero (npm, pinned, vendored into
// web/vendor/, named by the import map in index.html) — its Nostr strategy
// carries the WebRTC offer and answer, encrypted with the room's password (the
// secret that lives only in the table link's fragment); nothing else crosses
// the relays. Each connected peer becomes a Channel (rtc.mjs: the same queue,
// slices and flood guard as a links-only Peer), which web/race/rtc.py wraps as
// a kosynka.race.transport.Link.
//
// - One Trystero action ("race") carries the race's JSON texts; a peer's
//   messages reach only its own Channel.
// - Trystero connects every pair of pages in a room; the Python side keeps the
//   host's peer only (a friend talks to the host only) and ignores the others.
// - rejoin() leaves the room and joins it again: fresh announcements on every
//   relay (Trystero announces every 60 s once settled; a fresh join announces at
//   once); rejoin(true) also over new connections to the same relays.
// - After a drop the friend's page is out of the room while the path is gone
//   (suspend()), probes the relays (probe()) and joins again the moment one
//   answers (web/race/net.py, FriendRoom._comeback).
// - relaysOpen(): how many of this room's relays have an open WebSocket (the
//   lobby says which way is in use, and falls back to the links-only way when
//   none answers); relaysDown(): every one of them has refused or closed.

import {
  joinRoom, selfId, getRelaySockets, pauseRelayReconnection, resumeRelayReconnection,
} from "@trystero-p2p/nostr";
import { Channel } from "./rtc.mjs";
import { hub } from "./relay.mjs";

const APP_ID = "kosynka-race-1";
// Rooms leave one after the other and a new one joins once they have: Trystero's
// pool of ready offers lives while any room is joined, and is made with the ICE
// servers of the room that made it — a room joined before the last one has left
// would make its offers with the old servers (a TURN server just typed unused).
let settled = Promise.resolve();
// a probe of the relays waits this long for one to answer; then a new one: a
// connection made while the path was gone waits for TCP's backed-off retries
const PROBE_MS = 3000;
// the relays' addresses made so far (variant): each probe that answers takes a new
// one, never used in this page before — Trystero keeps a connection per address,
// and one it gave up on, it never makes again
let variants = 0;
const LOST_MS = 20000;     // a path gone this long: the connection is given up (see _watch)
const LEAVE_MS = 2000;     // a leave that waits on a dead channel does not hold the next join
// Trystero keeps a pool of ready offers and, when it hands out one older than 57 s,
// rolls the offer back and restarts its ICE (new credentials). On a connection
// never answered, Chromium then gathers no candidate for the new offer, and
// Trystero sends it with none: ICE never starts (seen in the namespace test: a
// friend coming back after a 45-s cut was never connected when the host's page
// made the offer — about half the time, as Trystero's peer ids decide who
// offers; so too a friend joining a table opened over a minute before). Such a
// connection keeps its offer, its credentials and the candidates gathered for
// them; a connection that has been answered restarts as Trystero asks.
// (made when first needed: a browser without WebRTC has no RTCPeerConnection, and the
// module must load there, issue 30 item 8)
const pooled = () => class PooledConnection extends RTCPeerConnection {
  get _fresh() {
    return !this.remoteDescription && this.localDescription && this.localDescription.type === "offer";
  }

  restartIce() {
    if (!this._fresh) super.restartIce();
  }

  setLocalDescription(description) {
    if (description && description.type === "rollback" && this._fresh) return Promise.resolve();
    return description === undefined ? super.setLocalDescription() : super.setLocalDescription(description);
  }

  createOffer(options) {
    if (options && options.iceRestart && this._fresh) {
      const { iceRestart, ...rest } = options;
      return super.createOffer(rest);
    }
    return super.createOffer(options);
  }
};

// Trystero's password handshake on a new connection, then the peer is active (its
// default time-out, also ours: a handshake not done by then is stuck, see _unstick)
const HANDSHAKE_MS = 10000;

// A send on a channel that is no longer open is dropped, not thrown: Trystero, when
// a room reuses a connection it kept (below), flushes the frames queued for it in a
// promise and leaves a throw there unhandled (shared-peer.mjs) — seen in the
// namespace test when the page joined again for a direct path after its fall-back
// through the relays, while the old connection was being hung up (hangUp). What
// such a send carried would have been lost with the channel either way.
const quiet = (channel) => {
  const send = channel.send.bind(channel);
  channel.send = (data) => {
    if (channel.readyState === "open") send(data);
  };
  return channel;
};

// The connections Trystero makes for a Room, over all its joins (its rtcPolyfill;
// Trystero keeps a connection across a leave and a join of the same room): each
// notes when its ICE last started checking and keeps its data channel, so the Room
// can tell a peer on its way in (connecting) and close one stuck in it (_unstick).
const tracked = (set) => class extends pooled() {
  constructor(config) {
    super(config);
    set.add(this);
    this.since = 0;
    this.channel = null;
    this.addEventListener("iceconnectionstatechange", () => {
      if (this.iceConnectionState === "checking") this.since = Date.now();
    });
    this.addEventListener("datachannel", (e) => { this.channel = quiet(e.channel); });
  }

  createDataChannel(...args) {
    this.channel = quiet(super.createDataChannel(...args));
    return this.channel;
  }
};

// a connection closed so that the other page hears it: its data channel first (the
// other page drops its end of it), the connection itself a second later
const hangUp = (pc) => {
  if (!pc) return;
  if (pc.channel) pc.channel.close();
  setTimeout(() => pc.close(), 1000);
};

const leave = (room) => room && Promise.race([
  room.leave().catch(() => {}), new Promise((res) => setTimeout(res, LEAVE_MS))]);

class RoomPeer extends Channel {
  constructor(room, id) {
    super();
    this.room = room;
    this.id = id;
  }

  get connection() {
    return (this.room.trystero && this.room.trystero.getPeers()[this.id]) || null;
  }

  send(text) {
    if (!this.connected || !this.room.action) return;
    this.room.action.send(text, { target: this.id }).catch(() => this._drop());
  }

  // A connection whose path stays gone for LOST_MS is closed here: Trystero keeps
  // it (its ICE may go back and forth between "disconnected" and "checking" for
  // the whole outage) and, while it is there, ignores the other page's fresh
  // announcements — so neither side could make a new one when the path is back.
  _watch(pc) {
    this.pc = pc;
    if (!pc) return;
    let timer = 0;
    const check = () => {
      clearTimeout(timer);
      if (["disconnected", "failed"].includes(pc.iceConnectionState) && this.state === "open") {
        timer = setTimeout(() => {
          if (this.state === "open" && !this.steady) {
            try { pc.close(); } catch (e) { /* closed already */ }
            this._drop();
          }
        }, LOST_MS);
      }
    };
    pc.addEventListener("iceconnectionstatechange", check);
    this._unwatch = () => { clearTimeout(timer); pc.removeEventListener("iceconnectionstatechange", check); };
  }

  // Closed on this side (a Leave, or the host letting a silent friend go): the other
  // page must hear it (the Link contract: "the other end sees dropped"), else it keeps
  // its end open and talks into nothing — so the connection is hung up when the other
  // page's next message shows the path is there (Room: a message from a peer let go),
  // or LOST_MS later. Seen in the
  // namespace test: after the host let a friend go 8 s into a 10-s cut, the friend's
  // page kept its link and was counted out at the grace's end.
  _shutdown() {
    if (this._unwatch) this._unwatch();
    if (this.room.peers.get(this.id) === this) this.room.peers.delete(this.id);
    if (this.state === "closed" && this.pc) {
      // not at once: the path may be down (a silent friend let go), and the other
      // page would not hear it; at LOST_MS at the latest
      const pc = this.pc;
      const gone = this.room.gone;
      gone.set(this.id, pc);
      setTimeout(() => {
        if (gone.get(this.id) !== pc) return;
        gone.delete(this.id);
        hangUp(pc);
      }, LOST_MS);
    }
  }
}

// test only (issue 30): a page that never makes a direct connection, as one whose
// network allows none — it races through the relays (relay.mjs)
const RELAY_ONLY_KEY = "kosynka.race.test_relay_only";

// WebRTC in this browser (a privacy setting or a build may leave it out, issue 30
// item 8), and not switched off for a test
export function direct() {
  let off = null;
  try { off = localStorage.getItem(RELAY_ONLY_KEY); } catch (e) { /* no storage */ }
  return typeof RTCPeerConnection === "function" && !off;
}

export class Room {
  constructor({ roomId, password, relays, ice, secret, host }) {
    this.roomId = roomId;
    this.password = password;
    this.relays = [...relays];
    this.ice = ice;
    this.selfId = selfId;
    this.peers = new Map();     // peer id → its RoomPeer while connected
    this.gone = new Map();      // peer id → the connection of a RoomPeer closed here
    this.onpeer = null;         // (RoomPeer) => void, set by Python
    this.errors = [];           // Trystero's join errors (for a test's failure message)
    this.trystero = null;
    this.action = null;
    this.pcs = new Set();       // its connections not closed yet (tracked)
    this.direct = direct();     // else no Trystero room: the relays only
    this.polyfill = this.direct ? tracked(this.pcs) : null;
    // the race through the relays (relay.mjs): the host's page takes the links
    // friends open there, a friend's opens one to the host (relayTo)
    this.hub = hub({ secret, relays, selfId, accept: host, own: !this.direct });
    this.hub.onpeer = (peer) => { if (this.onpeer) this.onpeer(peer); };
    this.joins = 0;
    this.fresh = 0;             // the relays' address (variant) whose probe answered last
    this.closed = false;
    settled = settled.then(() => this.closed || this._join());
  }

  _join(fresh = 0) {
    if (!this.direct) return;
    this.joins++;
    resumeRelayReconnection();
    // fresh > 0: the relays' connections may be stuck (after a long cut TCP waits
    // its backed-off retransmission, up to a minute, before it finds the path back):
    // the same relays once more under another address (a query the relay ignores),
    // which Trystero opens as new connections — the old ones are kept too
    this.urls = fresh ? [...this.relays, ...this.relays.map((u) => variant(u, fresh))] : this.relays;
    const room = joinRoom(
      {
        appId: APP_ID,
        password: this.password,
        relayConfig: { urls: this.urls, warnOnRelayFailure: false },
        rtcConfig: { iceServers: this.ice },
        rtcPolyfill: this.polyfill,
      },
      this.roomId,
      {
        onJoinError: (e) => {
          const error = String(e && e.error);
          this.errors.push(error);
          if (error.includes("handshake timed out") && room === this.trystero) this._unstick();
        },
      },
    );
    this.trystero = room;
    this.action = room.makeAction("race");
    this.action.onMessage = (data, meta) => {
      const id = meta && meta.peerId;
      const peer = this.peers.get(id);
      if (peer) peer._receive(data);
      else if (this.gone.has(id)) {          // a page we let go, its path back: hung up now
        hangUp(room.getPeers()[id] || this.gone.get(id));
        this.gone.delete(id);
      }
    };
    room.onPeerJoin = (id) => {
      // a peer that came in while this join was being left (its handshake passed in
      // Trystero's 99 ms between its "leave" and its last drop): Trystero drops it
      // without a word, and the other page would keep its end bound to it and ignore
      // this page's next join until a handshake timed out (seen in the namespace test:
      // a friend back from a 45-s cut, on at the host only past the grace) — so it is
      // closed here at once, and the other page drops its end too
      if (room !== this.trystero) return hangUp(room.getPeers()[id]);
      const old = this.peers.get(id);
      if (old) old._drop();
      this.gone.delete(id);
      const peer = new RoomPeer(this, id);
      this.peers.set(id, peer);
      peer._watch(room.getPeers()[id]);
      if (this.onpeer) this.onpeer(peer);
      peer._opened();
    };
    // Trystero's room lets a peer go (its connection stayed "disconnected" for 5 s,
    // or it left) but keeps the connection for two minutes, for another room to
    // reuse, and ignores the other page's announcements while the connection looks
    // alive; the other page may keep its end (its path came back first). So it is
    // hung up: both pages then make a new one (seen in the namespace test: after a
    // 10-s cut the host's page let the friend go and its friend's page never knew;
    // after a 45-s cut the host's page ignored every join of the friend's)
    room.onPeerLeave = (id) => {
      const peer = this.peers.get(id);
      if (peer && room === this.trystero) {
        peer._drop();
        hangUp(peer.pc);
      }
    };
  }

  // this page is joining the table of the page peerId, under name (relay.mjs)
  knock(peerId, name) {
    this.hub.knock(peerId, name);
  }

  // a link to the page peerId through the relays (opens when it answers)
  relayTo(peerId) {
    return this.hub.connect(peerId);
  }

  relaysOpen() {
    if (!this.direct) return this.hub.openCount();
    const sockets = getRelaySockets();
    return this.relays.filter((u) => [u, variant(u, this.fresh)].some(
      (v) => sockets[v] && sockets[v].readyState === 1)).length;
  }

  // true as soon as a new connection to one of the relays opens (the path is back;
  // rejoin(true) then goes over that address of the relays), false if none does
  // within PROBE_MS; the probe's own connections are closed either way
  probe() {
    const k = variants + 1;
    // a connection to a relay that is still connecting holds every other one to the
    // same host and port back (RFC 6455 §4.1, as Chromium does), and Trystero's own
    // made while the path was gone waits for TCP's backed-off retries, up to two
    // minutes (seen in the namespace test: no probe got through for 90 s after a
    // 75-s cut) — so those are closed, and Trystero makes new ones at the next join
    pauseRelayReconnection();
    for (const s of Object.values(getRelaySockets())) if (s && s.readyState === 0) s.close();
    return new Promise((resolve) => {
      const sockets = [];
      const done = (open) => {
        clearTimeout(timer);
        for (const s of sockets) {
          s.onopen = null;
          s.close();
        }
        if (open) this.fresh = variants = k;
        resolve(open);
      };
      const timer = setTimeout(() => done(false), PROBE_MS);
      for (const u of this.relays) {
        const s = new WebSocket(variant(u, k));
        s.onopen = () => done(true);
        sockets.push(s);
      }
    });
  }

  // every relay refused or lost the connection (none is open or connecting)
  relaysDown() {
    if (!this.direct) return this.hub.sockets().every((s) => s.readyState === 3);
    const sockets = getRelaySockets();
    return this.relays.every((u) => sockets[u] && sockets[u].readyState === 3);
  }

  // answered connections that no active peer of the newest join uses
  _pending() {
    const active = new Set(Object.values(this.trystero ? this.trystero.getPeers() : {}));
    for (const pc of this.pcs) if (pc.signalingState === "closed") this.pcs.delete(pc);
    return [...this.pcs].filter((pc) => pc.remoteDescription && !active.has(pc));
  }

  // peer id's link is open (the page may not have heard of it yet), or a peer is on
  // its way in: a connection answered, its ICE checking or connected since less
  // than the handshake's time, and no active peer on it yet. A rejoin now
  // would leave the room under Trystero's handshake: Trystero sends its "leave" to
  // the peers it has when the leave starts and drops those it has 99 ms later, so
  // a peer that came in between keeps, on the other page, a room bound to this
  // connection and never starts the handshake this page's next join waits for
  // (seen in the namespace test: a friend back from a 45-s cut, its join under way
  // when a new relay connection opened, timed out on every join after)
  connecting(id) {
    const peer = this.peers.get(id);
    if (peer && peer.connected) return true;
    const now = Date.now();
    return this._pending().some((pc) => pc.since && now - pc.since < HANDSHAKE_MS + 2000 &&
      ["checking", "connected", "completed"].includes(pc.iceConnectionState));
  }

  // a handshake timed out, or the room is about to be left: the connections it
  // leaves without an active peer are closed, the data channel first so that the
  // other page hears it and drops its end (then both make a new one from the
  // relays' announcements), rather than kept by Trystero for two minutes
  _unstick() {
    for (const pc of this._pending()) hangUp(pc);
  }

  // out of the room (its peers dropped) until the next rejoin: while the path is
  // gone a join cannot connect, and Trystero's offers made then carry no address
  // beyond this device — the other page answers one and then ignores this page
  // for 23 s (seen in the namespace test: back from a 45-s cut past the grace)
  suspend() {
    this._unstick();
    const old = this.trystero;
    this.trystero = null;
    for (const peer of [...this.peers.values()]) peer._drop();
    settled = settled.then(() => leave(old));
    return settled;
  }

  // fresh: also over the relays' address that last answered a probe (new
  // connections: the old ones may wait a minute for TCP's backed-off retries
  // once the path is back)
  rejoin(fresh = false) {
    const n = fresh ? this.fresh : 0;
    this.suspend();
    settled = settled.then(() => this.closed || this._join(n));
    return settled;
  }

  close() {
    this.closed = true;
    this.hub.close();
    resumeRelayReconnection();     // (a probe may have paused it)
    for (const peer of [...this.peers.values()]) peer.close();
    const old = this.trystero;
    this.trystero = null;
    settled = settled.then(() => leave(old));
    return settled;
  }
}

// the relay's URL with "k=<n>" in its query: the same relay, a new Trystero client
function variant(url, n) {
  if (!n) return url;
  const u = new URL(url);
  u.searchParams.set("k", String(n));
  return u.href;
}

export function room(options) {
  return new Room(options);
}
