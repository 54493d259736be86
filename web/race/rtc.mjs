// A race link over WebRTC (issue 11 item 1). Channel is what every link shares:
// the message queue handed to Python in slices, the flood guard and the status;
// Peer is a Channel over one RTCPeerConnection with one reliable, ordered data
// channel whose SDP travels in links (web/race/signal.py: the links-only way);
// room.mjs makes Channels over Trystero's connections (the table link, issue 19).
// The Python side (web/race/rtc.py) wraps either as kosynka.race.transport.Link.
//
// - ICE servers as the player set them (web/race/ice.py; none = same Wi-Fi only).
// - ICE is gathered completely before offer()/answer() return (no trickle: the
//   whole description goes into one link).
// - Incoming messages are queued and handed to Python in slices of SLICE_MS,
//   one message per link in turn, between which the browser runs input and
//   paint: a peer that floods cannot freeze the page, nor starve the others.
//   A link with more than FLOOD_QUEUE messages waiting is dropped.
// - Status: "open" when the channel opens (or its first message comes, if that is
//   dispatched first: under load Chromium can hand the answerer's first message to
//   the offerer before its "open" event, and dropping it lost a friend's join);
//   "dropped" once, when it closes, the
//   connection fails, or stays disconnected for DISCONNECT_MS (the messages that
//   came before it are handed over first); "closed" after close() on this side,
//   whose messages already sent still go (the channel closes before the connection).

const SLICE_MS = 8;
const FLOOD_QUEUE = 2000;
const MAX_CHARS = 65536;       // longer messages are cut (the protocol refuses them anyway)
const GATHER_MS = 5000;        // an unreachable STUN server must not hold up the link
const DISCONNECT_MS = 5000;
const CLOSE_MS = 3000;         // a closing channel's last messages: the connection waits that long at most

const busy = new Set();        // peers with queued events
let scheduled = false;
const tick = new MessageChannel();
tick.port1.onmessage = drain;

function schedule() {
  if (!scheduled) {
    scheduled = true;
    tick.port2.postMessage(0);
  }
}

function drain() {
  scheduled = false;
  const t0 = performance.now();
  while (busy.size && performance.now() - t0 < SLICE_MS) {
    for (const peer of busy) {
      peer._deliverOne();
      if (performance.now() - t0 >= SLICE_MS) break;
    }
  }
  if (busy.size) schedule();
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, GATHER_MS);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

export class Channel {
  constructor() {
    this.queue = [];
    this.head = 0;
    this.state = "new";        // new → open → dropped | closed
    this.onmessage = null;     // (text) => void, set by Python
    this.onstatus = null;      // (status) => void
    this.received = 0;
    this.way = "direct";       // a WebRTC data channel; "relay": relay.mjs
  }

  get connected() {
    return this.state === "open";
  }

  // false while the connection under an open link has lost its path (ICE
  // "disconnected"): the link may come back by itself, or drop
  get steady() {
    const pc = this.connection;
    return !pc || !["disconnected", "failed"].includes(pc.iceConnectionState);
  }

  get connection() {
    return null;
  }

  close() {
    if (this.state === "closed" || this.state === "dropped") return;
    this.state = "closed";
    this._shutdown();
    this._push(["status", "closed"]);
  }

  _receive(data) {
    this._opened();      // the peer's first message can be dispatched before "open"
    if (this.state !== "open") return;
    if (this.queue.length - this.head >= FLOOD_QUEUE) {
      console.warn("race link: the peer floods, dropped");
      this.queue.length = this.head = 0;    // a flood's backlog is not handed over
      return this._drop();
    }
    let text = typeof data === "string" ? data : "\u0000binary";
    if (text.length > MAX_CHARS) text = text.slice(0, MAX_CHARS + 1);
    this.received++;
    this._push(["message", text]);
  }

  _opened() {
    if (this.state !== "new") return;
    this.state = "open";
    this._push(["status", "open"]);
  }

  _drop() {
    if (this.state === "closed" || this.state === "dropped") return;
    this.state = "dropped";
    this._shutdown();       // what arrived before is still handed over, then the status
    this._push(["status", "dropped"]);
  }

  _shutdown() {}

  _push(item) {
    this.queue.push(item);
    busy.add(this);
    schedule();
  }

  _deliverOne() {
    const item = this.queue[this.head++];
    if (this.head >= this.queue.length) {
      this.queue.length = this.head = 0;
      busy.delete(this);
    } else if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    const fn = item[0] === "message" ? this.onmessage : this.onstatus;
    if (!fn) return;
    try {
      fn(item[1]);
    } catch (e) {
      console.error("race link handler failed:", e);
    }
  }
}

export class Peer extends Channel {
  constructor(iceServers = []) {
    super();
    this.pc = new RTCPeerConnection({ iceServers: [...iceServers].filter(Boolean) });
    this.dc = null;
    this._timer = 0;
    this.pc.addEventListener("connectionstatechange", () => {
      const s = this.pc.connectionState;
      clearTimeout(this._timer);
      if (s === "failed") this._drop();
      else if (s === "disconnected") this._timer = setTimeout(() => this._drop(), DISCONNECT_MS);
    });
  }

  get connected() {
    return this.state === "open" && this.dc !== null && this.dc.readyState === "open";
  }

  get connection() {
    return this.pc;
  }

  async offer() {
    this._channel(this.pc.createDataChannel("race", { ordered: true }));
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await gathered(this.pc);
    return this.pc.localDescription.sdp;
  }

  async answer(offerSdp) {
    this.pc.addEventListener("datachannel", (ev) => this._channel(ev.channel));
    await this.pc.setRemoteDescription({ type: "offer", sdp: offerSdp });
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    await gathered(this.pc);
    return this.pc.localDescription.sdp;
  }

  async accept(answerSdp) {
    await this.pc.setRemoteDescription({ type: "answer", sdp: answerSdp });
  }

  send(text) {
    if (!this.connected) return;
    try {
      this.dc.send(text);
    } catch (e) {
      this._drop();
    }
  }

  _channel(dc) {
    if (this.dc) return dc.close();     // one channel per link
    this.dc = dc;
    dc.addEventListener("open", () => this._opened());
    dc.addEventListener("close", () => this._drop());
    dc.addEventListener("message", (ev) => this._receive(ev.data));
  }

  _shutdown() {
    clearTimeout(this._timer);
    const pc = this.pc;
    const end = () => {
      try {
        pc.close();
      } catch (e) { /* already closed */ }
    };
    // close() right after a last message (the host's word to a friend it lets go):
    // the channel closes first, which sends what it holds — closing the connection
    // at once would throw that away — then the connection
    if (this.state === "closed" && this.dc && this.dc.readyState === "open") {
      this.dc.addEventListener("close", end);
      setTimeout(end, CLOSE_MS);
      this.dc.close();
    } else end();
  }
}

// iceServers: RTCIceServer objects (web/race/ice.py), [] for none
export function peer(iceServers) {
  return new Peer(iceServers || []);
}
