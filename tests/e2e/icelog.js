// K19_ICELOG=1 with K19_DEBUG=1 (tests/e2e/test_race_netns.py): every RTCPeerConnection
// of the page says its local and remote candidates, its gathering and ICE states,
// and its candidate pairs once connected or failed, as console warnings.
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
