// Registers the service worker (../../sw.js, scope = the app's folder) once the
// app is ready, so its precaching never competes with the first boot, and
// announces a new version:
//   document.documentElement.dataset.sw     = "off" | "registered" | "active"
//   document.documentElement.dataset.update = "ready"   (a new version waits)
//   window event "kosynka:update" (detail: {apply}) at the same time;
//   globalThis.kosynkaApplyUpdate() switches to it now and reloads; otherwise it
//   starts at the next launch. The saved game (localStorage) is untouched.
// globalThis.KOSYNKA_BOOT = {sw: false} (set before this loads) skips it.
import { whenReady } from "./when-ready.mjs";

const html = document.documentElement;
const cfg = globalThis.KOSYNKA_BOOT || {};
const sw = navigator.serviceWorker;

function announce(reg) {
  html.dataset.update = "ready";
  globalThis.kosynkaApplyUpdate = () => {
    let reloaded = false;
    sw.addEventListener("controllerchange", () => {
      if (!reloaded) {
        reloaded = true;
        location.reload();
      }
    });
    reg.waiting?.postMessage({ type: "skip-waiting" });
  };
  globalThis.dispatchEvent(new CustomEvent("kosynka:update", {
    detail: { apply: globalThis.kosynkaApplyUpdate },
  }));
}

async function register() {
  const url = new URL("../../sw.js", import.meta.url);
  let reg;
  try {
    reg = await sw.register(url, { scope: new URL("./", url).pathname, updateViaCache: "none" });
  } catch (e) {
    html.dataset.sw = "off";
    console.warn("kosynka: service worker not registered:", e && e.message);
    return;
  }
  html.dataset.sw = "registered";
  const track = (worker) => {
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && sw.controller) announce(reg);
    });
  };
  if (reg.waiting && sw.controller) announce(reg);
  track(reg.installing);
  reg.addEventListener("updatefound", () => track(reg.installing));
  await sw.ready;
  html.dataset.sw = "active";
}

if (!sw || cfg.sw === false || !/^https?:$/.test(location.protocol)) {
  html.dataset.sw = "off";
} else {
  // An already installed worker is checked for a new version at every launch
  // by the browser; registering early costs nothing then.
  if (sw.controller) register();
  else whenReady(register);
}
