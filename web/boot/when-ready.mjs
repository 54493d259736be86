// Run `fn` once the app is up: body[data-state] is "ready" or "won" (the app's
// DOM contract). At once if it already is.
export function whenReady(fn) {
  const ready = () => ["ready", "won"].includes(document.body?.dataset.state);
  if (ready()) return fn();
  const obs = new MutationObserver(() => {
    if (ready()) {
      obs.disconnect();
      fn();
    }
  });
  obs.observe(document.documentElement, {
    attributes: true, subtree: true, attributeFilter: ["data-state"],
  });
}

// ... and the page is idle (or 3 s have passed)
export function whenReadyAndIdle(fn) {
  whenReady(() => {
    const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
    idle(fn, { timeout: 3000 });
  });
}
