// A reply link (#reply=<code>) opened on the host's device (issue 11 item 2):
// hand the code to the hosting tab of this browser at once, on the
// BroadcastChannel CHANNEL, without waiting for Python to start here. CHANNEL
// is exported: the hosting tab's Python (web/race/invites.py) listens on the
// name it reads from this module, so it is written only here.
// Every hosting tab answers {ack, result}: "ok", or the link/… code of its check;
// no answer within WAIT_MS means no race table is open in this browser.
// The result lands in <html data-race-handover> ("pending" until then); the page's
// Python (web/race/page.py) words it in the player's language and starts no game
// in this tab.

export const CHANNEL = "kosynka-race";
const WAIT_MS = 1500;

if (location.hash.startsWith("#reply=")) {
  const html = document.documentElement;
  const code = location.hash.slice("#reply=".length);
  history.replaceState(null, "", location.pathname + location.search);
  html.dataset.raceHandover = "pending";
  const id = Math.floor(Math.random() * 2 ** 31);
  const results = [];
  const channel = new BroadcastChannel(CHANNEL);
  const finish = () => {
    if (html.dataset.raceHandover !== "pending") return;
    channel.close();
    html.dataset.raceHandover = results.includes("ok") ? "ok" : results[0] || "none";
  };
  channel.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (msg && msg.ack === id) {
      results.push(String(msg.result));
      if (msg.result === "ok") finish();
    }
  };
  setTimeout(finish, WAIT_MS);
  channel.postMessage(JSON.stringify({ reply: code, id }));
}
