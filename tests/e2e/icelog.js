// K19_ICELOG=1 with K19_DEBUG=1 (tests/e2e/test_race_netns.py): every RTCPeerConnection
// of the page says its local and remote candidates, its gathering and ICE states,
// its candidate pairs once connected or failed, and its data channel's frames
// (Trystero's room, action and presence headers), as console warnings.
(() => {
  const Orig = window.RTCPeerConnection;
  let n = 0;
  window.RTCPeerConnection = function (...args) {
    const pc = Reflect.construct(Orig, args, new.target || window.RTCPeerConnection);
    const id = ++n;
    const log = (...a) => console.warn(`[pc${id}]`, ...a);
    pc.addEventListener("icecandidate", (e) => e.candidate && e.candidate.candidate && log("local", e.candidate.candidate.split(" ").slice(4, 8).join(" ")));
    pc.addEventListener("icegatheringstatechange", () => log("gathering", pc.iceGatheringState));
    pc.addEventListener("iceconnectionstatechange", async () => {
      log("ice", pc.iceConnectionState);
      if (pc.iceConnectionState === "failed" || pc.iceConnectionState === "connected") {
        const st = await pc.getStats();
        const c = {};
        st.forEach((r) => { if (r.type.endsWith("candidate")) c[r.id] = `${r.candidateType} ${r.address}:${r.port}`; });
        st.forEach((r) => { if (r.type === "candidate-pair") log("pair", c[r.localCandidateId], "->", c[r.remoteCandidateId], r.state, "req", r.requestsSent, "resp", r.responsesReceived, "reqrecv", r.requestsReceived); });
      }
    });
    const frame = (d) => {     // Trystero's shared-peer frames: room data (1) or presence (2)
      const b = new Uint8Array(d instanceof ArrayBuffer ? d : (d.buffer || new ArrayBuffer(0)));
      const text = (a) => new TextDecoder().decode(a).replace(/\0+$/, "");
      if (b[0] === 1) { const n = (b[1] << 8) | b[2]; return `room ${text(b.subarray(3, 3 + n)).slice(0, 6)} ${text(b.subarray(3 + n, 3 + n + 32))} ${b.length}b`; }
      if (b[0] === 2) { const n = (b[2] << 8) | b[3]; return `presence ${b[1]} ${text(b.subarray(4, 4 + n)).slice(0, 6)}`; }
      return `${typeof d === "string" ? "text" : "bytes"} ${d.length || d.byteLength}`;
    };
    const watch = (ch) => {
      ch.addEventListener("open", () => log("channel open"));
      ch.addEventListener("close", () => log("channel close"));
      ch.addEventListener("message", (e) => log("recv", frame(e.data)));
      const send = ch.send.bind(ch);
      ch.send = (d) => { log("send", frame(d), ch.readyState); return send(d); };
    };
    const cdc = pc.createDataChannel.bind(pc);
    pc.createDataChannel = (...a) => { const ch = cdc(...a); watch(ch); return ch; };
    pc.addEventListener("datachannel", (e) => watch(e.channel));
    const sr = pc.setRemoteDescription.bind(pc);
    pc.setRemoteDescription = (d) => { log("remote", d && d.type, ((d && d.sdp) || "").split("\n").filter((l) => l.startsWith("a=candidate")).map((l) => l.split(" ").slice(4, 8).join(" ")).join(" | ")); return sr(d); };
    const sl = pc.setLocalDescription.bind(pc);
    pc.setLocalDescription = (d) => { const p = sl(d); p.then(() => log("localdesc", pc.localDescription && pc.localDescription.type, (pc.localDescription.sdp || "").split("\n").filter((l) => l.startsWith("a=candidate")).map((l) => l.split(" ").slice(4, 8).join(" ")).join(" | "))); return p; };
    const ac = pc.addIceCandidate.bind(pc);
    pc.addIceCandidate = (c) => { log("remote+", c && c.candidate && c.candidate.split(" ").slice(4, 8).join(" ")); return ac(c); };
    return pc;
  };
  window.RTCPeerConnection.prototype = Orig.prototype;
})();
