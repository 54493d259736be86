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
//   relay, which is how a dropped friend finds the host again quickly (Trystero
//   announces every 60 s once settled; a fresh join announces at once);
//   rejoin(true) also over new connections to the same relays.
// - relaysOpen(): how many of this room's relays have an open WebSocket (the
//   lobby says which way is in use, and falls back to the links-only way when
//   none answers); relaysDown(): every one of them has refused or closed.

import { joinRoom, selfId, getRelaySockets } from "@trystero-p2p/nostr";
import { Channel } from "./rtc.mjs";

const APP_ID = "kosynka-race-1";
// Rooms leave one after the other and a new one joins once they have: Trystero's
// pool of ready offers lives while any room is joined, and is made with the ICE
// servers of the room that made it — a room joined before the last one has left
// would make its offers with the old servers (a TURN server just typed unused).
let settled = Promise.resolve();
// new sets of relay connections in one drop: Trystero gives a relay's connection up
// for good after about a minute of failed tries, so a drop that outlasts the grace
// (a friend counted out, still to be told the result) needs sets made late in it
const FRESH_PER_DROP = 6;
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
class PooledConnection extends RTCPeerConnection {
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
}

// Trystero's password handshake on a new connection, then the peer is active (its
// default time-out, also ours: a handshake not done by then is stuck, see _unstick)
const HANDSHAKE_MS = 10000;

// The connections Trystero makes for a Room, over all its joins (its rtcPolyfill;
// Trystero keeps a connection across a leave and a join of the same room): each
// notes when its ICE last started checking and keeps its data channel, so the Room
// can tell a peer on its way in (connecting) and close one stuck in it (_unstick).
const tracked = (set) => class extends PooledConnection {
  constructor(config) {
    super(config);
    set.add(this);
    this.since = 0;
    this.channel = null;
    this.addEventListener("iceconnectionstatechange", () => {
      if (this.iceConnectionState === "checking") this.since = Date.now();
    });
    this.addEventListener("datachannel", (e) => { this.channel = e.channel; });
  }

  createDataChannel(...args) {
    this.channel = super.createDataChannel(...args);
    return this.channel;
  }
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

  _shutdown() {
    if (this._unwatch) this._unwatch();
    if (this.room.peers.get(this.id) === this) this.room.peers.delete(this.id);
  }
}

export class Room {
  constructor({ roomId, password, relays, ice }) {
    this.roomId = roomId;
    this.password = password;
    this.relays = [...relays];
    this.ice = ice;
    this.selfId = selfId;
    this.peers = new Map();     // peer id → its RoomPeer while connected
    this.onpeer = null;         // (RoomPeer) => void, set by Python
    this.errors = [];           // Trystero's join errors (for a test's failure message)
    this.trystero = null;
    this.action = null;
    this.pcs = new Set();       // its connections not closed yet (tracked)
    this.polyfill = tracked(this.pcs);
    this.joins = 0;
    this.fresh = 0;             // sets of new relay connections made so far
    this.steps = 0;             // comeback steps in this drop
    this.budget = 0;            // new sets of relay connections left in this drop
    this._seen = 0;
    this.closed = false;
    settled = settled.then(() => this.closed || this._join());
  }

  _join(fresh = 0) {
    this.joins++;
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
      const peer = this.peers.get(meta && meta.peerId);
      if (peer) peer._receive(data);
    };
    room.onPeerJoin = (id) => {
      if (room !== this.trystero) return;
      const old = this.peers.get(id);
      if (old) old._drop();
      const peer = new RoomPeer(this, id);
      this.peers.set(id, peer);
      peer._watch(room.getPeers()[id]);
      if (this.onpeer) this.onpeer(peer);
      peer._opened();
    };
    room.onPeerLeave = (id) => {
      const peer = this.peers.get(id);
      if (peer && room === this.trystero) peer._drop();
    };
  }

  relaysOpen() {
    const sockets = getRelaySockets();
    return this.relays.filter((u) => [u, variant(u, this.fresh)].some(
      (v) => sockets[v] && sockets[v].readyState === 1)).length;
  }

  // once per set of new relay connections: one of them has just opened — the path
  // is back (they were made during the outage), so join again now: Trystero's
  // ready offers made during the outage found no address beyond this device
  freshOpened() {
    if (!this.fresh || this._seen === this.fresh) return false;
    const open = this._freshOpen();
    if (open) this._seen = this.fresh;
    return open;
  }

  _freshOpen() {
    const sockets = getRelaySockets();
    return this.fresh > 0 && this.relays.some((u) => {
      const s = sockets[variant(u, this.fresh)];
      return s && s.readyState === 1;
    });
  }

  // every relay refused or lost the connection (none is open or connecting)
  relaysDown() {
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
    for (const pc of this._pending()) {
      if (pc.channel) pc.channel.close();
      setTimeout(() => pc.close(), 1000);
    }
  }

  // the link to the host dropped: the comeback steps start anew
  dropped() {
    this.steps = 0;
    this.budget = FRESH_PER_DROP;
  }

  // fresh: also over new connections to the relays (a comeback after a drop)
  rejoin(fresh = false) {
    // at most FRESH_PER_DROP new sets of connections in a drop (Trystero keeps a
    // relay's connection open once made; one that never opens it gives up by
    // itself): one at every other comeback step, and none while the newest set
    // is open (the path is back: it serves)
    this.steps++;
    if (fresh && this.steps % 2 === 1 && this.budget > 0 && !this._freshOpen()) {
      this.fresh++;
      this.budget--;
    }
    const n = fresh ? this.fresh : 0;
    this._unstick();
    const old = this.trystero;
    this.trystero = null;
    for (const peer of [...this.peers.values()]) peer._drop();
    settled = settled.then(async () => {
      await leave(old);
      if (!this.closed) this._join(n);
    });
    return settled;
  }

  close() {
    this.closed = true;
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
