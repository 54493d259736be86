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
//   announces every 60 s once settled; a fresh join announces at once).
// - relaysOpen(): how many of this room's relays have an open WebSocket (the
//   lobby says which way is in use, and falls back to the links-only way when
//   none answers).

import { joinRoom, selfId, getRelaySockets } from "@trystero-p2p/nostr";
import { Channel } from "./rtc.mjs";

const APP_ID = "kosynka-race-1";

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

  _shutdown() {
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
    this.joins = 0;
    this._join();
  }

  _join() {
    this.joins++;
    const room = joinRoom(
      {
        appId: APP_ID,
        password: this.password,
        relayConfig: { urls: this.relays, warnOnRelayFailure: false },
        rtcConfig: { iceServers: this.ice },
      },
      this.roomId,
      { onJoinError: (e) => this.errors.push(String(e && e.error)) },
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
    return this.relays.filter((u) => sockets[u] && sockets[u].readyState === 1).length;
  }

  async rejoin() {
    const old = this.trystero;
    this.trystero = null;
    for (const peer of [...this.peers.values()]) peer._drop();
    if (old) await old.leave().catch(() => {});
    if (this.closed) return;
    this._join();
  }

  async close() {
    this.closed = true;
    for (const peer of [...this.peers.values()]) peer.close();
    const old = this.trystero;
    this.trystero = null;
    if (old) await old.leave().catch(() => {});
  }
}

export function room(options) {
  return new Room(options);
}
