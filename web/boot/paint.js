// Instant first paint (issue 5 item 5): before Python is up, paint the table from
// data alone, then let the app take over. This file keeps no layout of its own
// (issue 22): the geometry is web/layout.py's, in what it draws.
//
// 1. The cards of every pile as the app last showed them (the saved paint,
//    written here whenever the table changes or the page is hidden), when they
//    show the saved game's position (the saved game: {rev, game: engine JSON
//    with "position"}): exact on a table of the same size ("saved"), else scaled
//    to this one ("scaled": one factor, centred).
// 2. Otherwise card backs of a new deal from the build's data
//    (self.kosynkaFirstPaint, web/vendor/first-paint.js, made by
//    tools/firstpaint.py with web/layout.py): the reference table of this hand
//    and shape nearest in size, scaled to this one ("backs"). Anything
//    unexpected falls to 2; without the data, nothing is painted ("none").
// A saved paint made by another layout or view (its "v" is not the data's) is
// not used: it could show an older layout, then jump.
// The storage keys and the look's values (theme, hand) are web/store.py's, in
// the build's data (DATA.store): none is written here. Without the data, storage
// is not read at all (nothing painted, the theme comes with the app).
// While loading, taps on the table or the panel are ignored visibly: the loading
// indicator pulses. When body[data-state] turns ready, leftovers of the paint
// are removed. Also: html[data-storage] = "ok" | "blocked" (private mode: the
// app says nothing will be saved), html[data-paint] = "saved" | "scaled" |
// "backs" | "none", html[data-theme] = the settings' theme unless it follows
// the system (issue 13; the app keeps it after start-up), and a left-handed table.
(function () {
  "use strict";
  var html = document.documentElement;
  var timing = (window.kosynkaBootTiming = window.kosynkaBootTiming || {});
  var DATA = window.kosynkaFirstPaint || null; // {v, backs, store, lang}: web/vendor/first-paint.js
  var STORE = (DATA && DATA.store) || null; // {keys: {paint, game, settings, probe}, themes, left}
  var STATS = ["deal-no", "time", "moves", "score"];
  var TRANSIENT = ["picked", "dragging", "fly", "flip", "shake"];

  var ls = null;
  if (STORE) {
    try {
      ls = window.localStorage;
      ls.setItem(STORE.keys.probe, "1");
      ls.removeItem(STORE.keys.probe);
      html.dataset.storage = "ok";
    } catch (e) {
      ls = null;
      html.dataset.storage = "blocked";
    }
  }

  // IndexedDB blocked (Chromium throws SecurityError from open() when the
  // site may not store data): PyScript keeps a small cache there and would not
  // start, so give the page an in-memory stand-in, gone with the page.
  function memoryIDB() {
    var dbs = {};
    function later(fn) {
      Promise.resolve().then(fn);
    }
    function request(run) {
      var req = { result: undefined, error: null, onsuccess: null, onerror: null };
      later(function () {
        try {
          req.result = run();
          if (req.onsuccess) req.onsuccess({ target: req, type: "success" });
        } catch (e) {
          req.error = e;
          if (req.onerror) req.onerror({ target: req, type: "error", preventDefault: function () {} });
        }
      });
      return req;
    }
    function Store(map) {
      this.get = function (k) { return request(function () { return map.get(JSON.stringify(k)); }); };
      this.getKey = function (k) {
        return request(function () { return map.has(JSON.stringify(k)) ? k : undefined; });
      };
      this.getAllKeys = function () {
        return request(function () { return Array.from(map.keys(), function (k) { return JSON.parse(k); }); });
      };
      this.count = function () { return request(function () { return map.size; }); };
      this.put = function (v, k) { return request(function () { map.set(JSON.stringify(k), v); return k; }); };
      this.delete = function (k) { return request(function () { map.delete(JSON.stringify(k)); }); };
      this.clear = function () { return request(function () { map.clear(); }); };
    }
    function Database(name) {
      var stores = (dbs[name] = dbs[name] || {});
      this.name = name;
      this.objectStoreNames = {
        get length() { return Object.keys(stores).length; },
        contains: function (n) { return n in stores; },
      };
      this.createObjectStore = function (n) { stores[n] = new Map(); return new Store(stores[n]); };
      this.transaction = function (names) {
        var tx = { oncomplete: null, onerror: null, onabort: null, error: null };
        tx.objectStore = function (n) {
          if (!(n in stores)) throw new DOMException("no such store", "NotFoundError");
          return new Store(stores[n]);
        };
        setTimeout(function () { if (tx.oncomplete) tx.oncomplete({ target: tx }); }, 0);
        return tx;
      };
      this.close = function () {};
    }
    return {
      open: function (name) {
        var fresh = !(name in dbs);
        var db = new Database(name);
        var req = { result: db, error: null, transaction: null };
        later(function () {
          if (fresh && req.onupgradeneeded) {
            var tx = { oncomplete: null };
            req.transaction = tx;
            req.onupgradeneeded({ target: req, type: "upgradeneeded" });
            setTimeout(function () { if (tx.oncomplete) tx.oncomplete({ target: tx }); }, 0);
          }
          if (req.onsuccess) req.onsuccess({ target: req, type: "success" });
        });
        return req;
      },
      deleteDatabase: function (name) { return request(function () { delete dbs[name]; }); },
      cmp: function (a, b) { return a < b ? -1 : a > b ? 1 : 0; },
    };
  }
  try {
    var probeReq = window.indexedDB.open("kosynka-probe");
    probeReq.onsuccess = function () { try { probeReq.result.close(); } catch (e) { /* fine */ } };
    probeReq.onerror = function (e) { if (e && e.preventDefault) e.preventDefault(); };
  } catch (e) {
    try {
      Object.defineProperty(window, "indexedDB", { value: memoryIDB(), configurable: true });
    } catch (e2) { /* nothing more to do */ }
    html.dataset.storage = "blocked";
    html.dataset.idb = "memory";
  }

  // the stored value of STORE.keys[name] (ls is null without STORE)
  function read(name) {
    try {
      return ls ? JSON.parse(ls.getItem(STORE.keys[name]) || "null") : null;
    } catch (e) {
      return null;
    }
  }
  // the table a saved game shows (its other fields change without a move)
  function positionKey(env) {
    try {
      return JSON.stringify(JSON.parse(env.game).position);
    } catch (e) {
      return null;
    }
  }
  // the player's look (issue 13): theme and hand, from the saved settings
  var look = read("settings") || {};
  var leftHand = !!STORE && look.hand === STORE.left;
  if (STORE && STORE.themes.indexOf(look.theme) >= 0) html.dataset.theme = look.theme;
  function ready() {
    var s = document.body && document.body.dataset.state;
    return s === "ready" || s === "won";
  }
  // the table's pile elements by id (index.html; the ids are the engine's PILE_IDS)
  function piles(table) {
    var out = {};
    var els = table.querySelectorAll("[data-pile]");
    for (var i = 0; i < els.length; i++) out[els[i].dataset.pile] = els[i];
    return out;
  }

  // ---------------------------------------------------------------- paint
  // A paint made for a w × h table, shown on this table: every length scaled by
  // one factor (the card's shape kept) so that it fits, and centred across.
  function fitTo(table, w, h) {
    var s = Math.min(table.clientWidth / w, table.clientHeight / h);
    return { s: s, dx: (table.clientWidth - w * s) / 2, same: w === table.clientWidth && h === table.clientHeight };
  }
  function scaled(value, f, shift) {
    return parseFloat(value) * f.s + (shift || 0) + "px";
  }
  function scalePile(el, f) {
    var st = el.style;
    if (st.left) st.left = scaled(st.left, f, f.dx);
    if (st.top) st.top = scaled(st.top, f);
    if (st.width) st.width = scaled(st.width, f);
    if (st.height) st.height = scaled(st.height, f);
    for (var c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (c.style.left) c.style.left = scaled(c.style.left, f);
      if (c.style.top) c.style.top = scaled(c.style.top, f);
    }
  }
  function cardSize(table, cw, ch, f) {
    table.style.setProperty("--cw", scaled(cw, f));
    table.style.setProperty("--ch", scaled(ch, f));
  }

  // 1. the paint this device saved, if it shows the saved game: "saved" or "scaled"
  function paintSaved(table, cache, env) {
    if (!DATA || !cache || cache.v !== DATA.v || !cache.piles) return "";
    if (!env || cache.pos !== positionKey(env)) return "";
    var el = piles(table), f = fitTo(table, cache.w, cache.h);
    table.classList.toggle("left-handed", leftHand);
    cardSize(table, cache.cw, cache.ch, f);
    Object.keys(el).forEach(function (name) {
      var p = cache.piles[name];
      if (!p) return;
      el[name].style.cssText = p.style;
      el[name].innerHTML = p.html;
      ["data-empty", "data-redeal"].forEach(function (a) {
        if (p[a] == null) el[name].removeAttribute(a);
        else el[name].setAttribute(a, p[a]);
      });
      if (!f.same) scalePile(el[name], f);
    });
    var cards = table.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) {
      cards[i].dataset.painted = "";
      cards[i].classList.remove.apply(cards[i].classList, TRANSIENT);
      cards[i].style.transform = "";
      cards[i].style.transition = "";
    }
    STATS.forEach(function (id) {
      var s = document.getElementById(id);
      if (s && typeof (cache.stats || {})[id] === "string") s.textContent = cache.stats[id];
    });
    labels(cache);
    return f.same ? "saved" : "scaled";
  }

  // 2. card backs of a new deal: the reference table of the build's data
  // (tools/firstpaint.py) for this hand and layout nearest in shape (then in
  // width), scaled
  function paintBacks(table) {
    var W = table.clientWidth, H = table.clientHeight;
    var best = null, far = Infinity;
    (DATA ? DATA.backs : []).forEach(function (r) {
      if (r.left !== leftHand || W / H < r.aspect[0] || (r.aspect[1] !== null && W / H >= r.aspect[1])) return;
      var d = Math.abs(Math.log((W / H) / (r.w / r.h))) * 1e3 + Math.abs(Math.log(W / r.w));
      if (d < far) { best = r; far = d; }
    });
    if (!best) return false;
    var el = piles(table), f = fitTo(table, best.w, best.h);
    table.classList.toggle("left-handed", leftHand);
    cardSize(table, best.cw, best.ch, f);
    Object.keys(el).forEach(function (name) {
      var p = best.piles[name], pile = el[name];
      if (!p) return;
      pile.style.cssText = "left:" + p[0] + "px;top:" + p[1] + "px;height:" + p[3] + "px" +
        (p[2] === null ? "" : ";width:" + p[2] + "px");
      pile.replaceChildren.apply(pile, p[4].map(function (at, i) {
        var card = document.createElement("div");
        card.className = "card";
        card.dataset.face = "down";
        card.dataset.painted = "";
        card.style.cssText = "left:" + at[0] + "px;top:" + at[1] + "px;z-index:" + (i + 1);
        return card;
      }));
      if (p[4].length) pile.removeAttribute("data-empty");
      else pile.setAttribute("data-empty", "");
      pile.removeAttribute("data-redeal");
      if (!f.same) scalePile(pile, f);
    });
    return true;
  }

  // the interface language (issue 32): web/i18n's rule on its own data, shipped by
  // the build (DATA.lang) — the saved choice, else the first of the browser's
  // languages it knows, else the default — so the first paint speaks the language
  // Python will; without the data, the labels as last shown
  function speak() {
    var L = DATA && DATA.lang;
    if (!L) return false;
    var pick = L.langs.indexOf(look.lang) >= 0 ? look.lang : null;
    var prefs = navigator.languages || [navigator.language || ""];
    for (var i = 0; !pick && i < prefs.length; i++) {
      var primary = String(prefs[i]).split("-")[0].split("_")[0].toLowerCase();
      if (L.langs.indexOf(primary) >= 0) pick = primary;
      else if (Object.prototype.hasOwnProperty.call(L.aliases, primary)) pick = L.aliases[primary];
    }
    var words = L.words[pick || L["default"]];
    html.lang = pick || L["default"];
    document.title = words.title;
    var table = document.getElementById("table");
    if (table) table.setAttribute("aria-label", words.table_label);
    var els = document.querySelectorAll("[data-t]");
    for (var j = 0; j < els.length; j++) {
      var text = words[els[j].dataset.t];
      if (typeof text === "string") els[j].textContent = text;
    }
    return true;
  }
  function labels(cache) {
    if (speak() || !cache || !cache.labels) return;
    if (typeof cache.lang === "string") html.lang = cache.lang;
    var els = document.querySelectorAll("[data-t]");
    for (var i = 0; i < els.length; i++) {
      var text = cache.labels[els[i].dataset.t];
      if (typeof text === "string") els[i].textContent = text;
    }
  }

  function paint() {
    var table = document.getElementById("table");
    if (!table || ready()) return;
    try {
      speak(); // the words first: the table's box is measured with them in place
    } catch (e) {
      /* keep the page's own labels */
    }
    var how = "";
    try {
      how = paintSaved(table, read("paint"), read("game"));
    } catch (e) {
      how = "";
    }
    if (!how) {
      try {
        labels(read("paint"));
      } catch (e) {
        /* keep the page's own labels */
      }
      try {
        how = paintBacks(table) ? "backs" : "none";
      } catch (e) {
        how = "none";
      }
    }
    html.dataset.paint = how;
    timing.painted = Math.round(performance.now());
  }

  // ------------------------------------------------------------ remember
  var pending = null;
  function remember() {
    pending = null;
    if (!ls || !DATA || !ready()) return;
    var table = document.getElementById("table");
    var env = read("game");
    if (!table || !env) return;
    var el = piles(table), out = {
      v: DATA.v, w: table.clientWidth, h: table.clientHeight, pos: positionKey(env),
      cw: table.style.getPropertyValue("--cw"), ch: table.style.getPropertyValue("--ch"),
      piles: {}, stats: {}, labels: {}, lang: html.lang,
    };
    var els = document.querySelectorAll("#bar [data-t], #panel [data-t], #table [data-t]");
    for (var i = 0; i < els.length; i++) out.labels[els[i].dataset.t] = els[i].textContent;
    Object.keys(el).forEach(function (name) {
      out.piles[name] = {
        style: el[name].style.cssText, html: el[name].innerHTML,
        "data-empty": el[name].getAttribute("data-empty"),
        "data-redeal": el[name].getAttribute("data-redeal"),
      };
    });
    STATS.forEach(function (id) {
      var s = document.getElementById(id);
      if (s) out.stats[id] = s.textContent;
    });
    try {
      ls.setItem(STORE.keys.paint, JSON.stringify(out));
    } catch (e) {
      /* quota: the paint is a nicety */
    }
  }
  function soon() {
    if (pending === null) pending = setTimeout(remember, 400);
  }

  function takeOver() {
    var left = document.querySelectorAll("[data-painted]");
    for (var i = 0; i < left.length; i++) {
      if (left[i].parentNode) left[i].parentNode.removeChild(left[i]);
    }
    var table = document.getElementById("table");
    if (table) {
      new MutationObserver(soon).observe(table, {
        childList: true, subtree: true, attributes: true, attributeFilter: ["data-face", "style"],
      });
    }
    soon();
  }

  // taps while loading: nothing to apply them to yet; say so by a pulse
  function nudge(ev) {
    if (ready() || !ev.target.closest) return;
    if (!ev.target.closest("#table, #panel")) return;
    ev.preventDefault();
    ev.stopPropagation();
    var ind = document.getElementById("loading");
    if (ind) {
      ind.removeAttribute("data-nudge");
      void ind.offsetWidth;
      ind.setAttribute("data-nudge", "");
    }
    timing.ignoredTaps = (timing.ignoredTaps || 0) + 1;
  }

  var style = document.createElement("style");
  style.textContent =
    "@keyframes kosynka-nudge{0%,100%{transform:scale(1)}50%{transform:scale(1.15)}}" +
    "#loading[data-nudge]{animation:kosynka-nudge .35s ease-in-out}" +
    "body[data-state=loading] #table{cursor:progress}" +
    "body[data-state=loading] #loading{z-index:400}";
  document.head.appendChild(style);
  document.addEventListener("pointerdown", nudge, true);
  document.addEventListener("click", nudge, true);

  function start() {
    paint();
    if (ready()) return takeOver();
    var obs = new MutationObserver(function () {
      if (ready()) {
        obs.disconnect();
        takeOver();
      }
    });
    obs.observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") remember();
  });
  window.addEventListener("pagehide", remember);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
