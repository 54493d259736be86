// Instant first paint (issue 5 item 5): before Python is up, paint the table from
// what this device saved, then let the app take over.
//
// 1. Exact: the cards of every pile as the app last showed them ("kosynka.paint",
//    written here whenever the table changes or the page is hidden), used when the
//    saved game's position and the table's size are the same as then.
// 2. Otherwise the saved game ("kosynka.game": {rev, game: engine JSON with
//    "position"}) laid out like web/layout.py does.
// 3. Otherwise card backs of a fresh deal. Anything unexpected falls to 3.
// While loading, taps on the table or the panel are ignored visibly: the loading
// indicator pulses. When body[data-state] turns ready, leftovers of the paint
// are removed. Also: html[data-storage] = "ok" | "blocked" (private mode: the
// app says nothing will be saved), html[data-paint] = "saved" | "game" | "backs",
// html[data-theme] = "light" | "dark" when the settings choose one (issue 13; the
// app keeps it after start-up), and a left-handed table laid out mirrored.
(function () {
  "use strict";
  var html = document.documentElement;
  var timing = (window.kosynkaBootTiming = window.kosynkaBootTiming || {});
  var PAINT = "kosynka.paint", GAME = "kosynka.game";
  // the saved paint's layout version: one of another layout (v1: no side layout) is not used
  var PAINT_V = 2;
  var PILES = ["stock", "waste", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4", "t5", "t6", "t7"];
  var STATS = ["deal-no", "time", "moves", "score"];
  var TRANSIENT = ["picked", "dragging", "fly", "flip", "shake"];
  var RANKS = "A23456789TJQK", SUITS = "shdc";

  var ls = null;
  try {
    ls = window.localStorage;
    var probe = "kosynka.probe";
    ls.setItem(probe, "1");
    ls.removeItem(probe);
    html.dataset.storage = "ok";
  } catch (e) {
    ls = null;
    html.dataset.storage = "blocked";
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

  function read(key) {
    try {
      return ls ? JSON.parse(ls.getItem(key) || "null") : null;
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
  var look = read("kosynka.settings") || {};
  if (look.theme === "light" || look.theme === "dark") html.dataset.theme = look.theme;
  function ready() {
    var s = document.body && document.body.dataset.state;
    return s === "ready" || s === "won";
  }
  function piles(table) {
    var out = {};
    var els = table.querySelectorAll("[data-pile]");
    for (var i = 0; i < els.length; i++) out[els[i].dataset.pile] = els[i];
    return out;
  }

  // ---------------------------------------------------------------- layout
  // The same layout as web/layout.py (geometry, pile_box, column_offsets,
  // places), from the same numbers: the line below is web/layout.py's NUMBERS
  // (tests/test_web_layout.py checks it, and compares both layouts at three sizes
  // through window.kosynkaPaintLayout).
  // LAYOUT: generated from web/layout.py NUMBERS, do not edit
  var N = {"card_max": 110, "card_min": 24, "card_ratio": 1.4, "col_gap_min": 8, "fan_share": 0.48, "fd_min": 4, "fd_share": 0.11, "fu_min": 13, "fu_share": 0.27, "gap_max": 14, "gap_min": 3, "gap_share": 0.012, "height_share": 0.2, "height_share_side": 0.29, "min_side": 200, "room_margin": 4, "top_min": 7, "wide_ratio": 1.6};
  // END LAYOUT
  function geometry(width, height, leftHanded) {
    width = Math.max(width, N.min_side);
    height = Math.max(height, N.min_side);
    var gap = Math.max(N.gap_min, Math.min(N.gap_max, Math.floor(width * N.gap_share)));
    var side = width >= N.wide_ratio * height;
    var cw = side ? Math.floor((width - 13 * gap) / 10) : Math.floor((width - 8 * gap) / 7);
    var share = side ? N.height_share_side : N.height_share;
    cw = Math.max(N.card_min, Math.min(cw, Math.floor((height * share) / N.card_ratio), N.card_max));
    var ch = Math.round(cw * N.card_ratio);
    var top = Math.max(gap, N.top_min);
    var fd = Math.max(N.fd_min, Math.round(ch * N.fd_share)), fu = Math.max(N.fu_min, Math.round(ch * N.fu_share));
    var xs = [], sx = [], i, left, step = cw + gap;
    if (side) {
      left = Math.floor((width - (10 * cw + 11 * gap)) / 2);
      var first = leftHanded ? left + 2 * step + gap : left + step + gap;
      for (i = 0; i < 7; i++) xs.push(first + i * step);
      sx = leftHanded ? [xs[6] + step + gap, left, left + step] : [left, xs[6] + step + gap, xs[6] + 2 * step + gap];
    } else {
      left = Math.floor((width - (7 * cw + 6 * gap)) / 2);
      for (i = 0; i < 7; i++) xs.push(left + i * step);
    }
    return {
      width: width, height: height, cw: cw, ch: ch, gap: gap, xs: xs, sx: sx, side: side, top: top,
      colTop: side ? top : top + ch + Math.max(gap * 2, N.col_gap_min), fd: fd, fu: fu,
      fan: side ? fu : Math.round(cw * N.fan_share), leftHanded: !!leftHanded,
    };
  }
  function slot(g, name) {
    if (name[0] === "t") return +name[1] - 1;
    if (name[0] === "f") return g.leftHanded ? +name[1] - 1 : 2 + +name[1];
    var k = name === "stock" ? 0 : 1;
    return g.leftHanded ? 6 - k : k;
  }
  function pileBox(g, name) {
    if (g.side && name[0] !== "t") {
      if (name === "stock") return [g.sx[0], g.top, g.cw, g.ch];
      if (name === "waste") return [g.sx[0], g.top + g.ch + g.gap, g.cw, g.ch + 2 * g.fan];
      var k = +name[1] - 1;
      return [g.sx[1 + (k % 2)], g.top + Math.floor(k / 2) * (g.ch + g.gap), g.cw, g.ch];
    }
    if (name === "waste") return [g.xs[slot(g, name)] - (g.leftHanded ? 2 * g.fan : 0), g.top, g.cw + 2 * g.fan, g.ch];
    if (name[0] !== "t") return [g.xs[slot(g, name)], g.top, g.cw, g.ch];
    return [g.xs[+name[1] - 1], g.colTop, g.cw, Math.max(g.ch, Math.floor(g.height) - g.colTop)];
  }
  function columnOffsets(down, up, g) {
    var fd = g.fd, fu = g.fu;
    var room = g.height - g.colTop - g.ch - N.room_margin;
    var need = down * fd + Math.max(0, up - 1) * fu;
    if (need <= room || up + down <= 1) return [fd, fu];
    if (up > 1) fu = Math.max(N.fu_min, Math.floor((room - down * fd) / (up - 1)));
    need = down * fd + Math.max(0, up - 1) * fu;
    if (need > room && down) {
      fd = Math.max(Math.floor(N.fd_min / 2), Math.floor((room - Math.max(0, up - 1) * fu) / down));
    }
    need = down * fd + Math.max(0, up - 1) * fu;
    if (need > room && up > 1) fu = Math.max(1, Math.floor((room - down * fd) / (up - 1)));
    return [fd, fu];
  }
  function tableOffsets(pos, g) {
    var fd = g.fd, fu = g.fu;
    for (var c = 0; c < pos.tableau.length; c++) {
      var o = columnOffsets(pos.down[c], pos.tableau[c].length - pos.down[c], g);
      fd = Math.min(fd, o[0]);
      fu = Math.min(fu, o[1]);
    }
    return [fd, fu];
  }
  // pile name -> [[card name or null (face down), x, y], ...] bottom -> top, for
  // a position as engine JSON {tableau, down, stock, waste, foundations, fan}
  function places(pos, g) {
    var out = {}, i, k, c;
    PILES.forEach(function (name) { out[name] = []; });
    for (i = 0; i < pos.stock.length; i++) out.stock.push([null, 0, 0]);
    var n = pos.waste.length, fan = n ? pos.fan || 0 : 0;
    for (i = 0; i < n; i++) {
      k = i - (n - fan);
      var x = fan > 1 && k > 0 ? k * g.fan : 0;
      if (g.side) out.waste.push([pos.waste[i], 0, x]);
      else out.waste.push([pos.waste[i], g.leftHanded ? 2 * g.fan - x : x, 0]);
    }
    for (k = 0; k < 4; k++) {
      for (i = 0; i < pos.foundations[k]; i++) out["f" + (k + 1)].push([RANKS[i] + SUITS[k], 0, 0]);
    }
    var off = tableOffsets(pos, g);
    for (c = 0; c < 7; c++) {
      var col = pos.tableau[c], down = pos.down[c], y = 0;
      for (i = 0; i < col.length; i++) {
        out["t" + (c + 1)].push([i >= down ? col[i] : null, 0, y]);
        y += i < down ? off[0] : off[1];
      }
    }
    return out;
  }
  window.kosynkaPaintLayout = { geometry: geometry, pileBox: pileBox, places: places };

    function card(name, x, y, z) {
    var el = document.createElement("div");
    el.dataset.painted = "";
    el.style.left = x + "px";
    el.style.top = y + "px";
    el.style.zIndex = String(z);
    if (!name) {
      el.className = "card";
      el.dataset.face = "down";
      return el;
    }
    var r = name[0], s = name[1];
    if (RANKS.indexOf(r) < 0 || SUITS.indexOf(s) < 0) throw new Error("bad card " + name);
    el.className = s === "h" || s === "d" ? "card red" : "card";
    el.dataset.face = "up";
    el.dataset.card = name;
    var use = '<svg><use href="#suit-' + s + '"/></svg>';
    el.innerHTML = '<span class="ix" data-r="' + (r === "T" ? "10" : r) + '">' + use + "</span>" +
      '<svg class="pip"><use href="#suit-' + s + '"/></svg>';
    return el;
  }

  // position: engine JSON {tableau, down, stock, waste, foundations, fan} or null
  function paintPosition(table, pos) {
    var g = geometry(table.clientWidth, table.clientHeight, look.hand === "left");
    table.classList.toggle("left-handed", g.leftHanded);
    var el = piles(table);
    table.style.setProperty("--cw", g.cw + "px");
    table.style.setProperty("--ch", g.ch + "px");
    var cards = {};
    PILES.forEach(function (name) {
      var box = pileBox(g, name);
      if (!el[name]) return;
      el[name].style.left = box[0] + "px";
      el[name].style.top = box[1] + "px";
      el[name].style.height = box[3] + "px";
      if (name === "waste") el[name].style.width = box[2] + "px";
      cards[name] = [];
    });
    if (!pos) {
      pos = { tableau: [], down: [], stock: new Array(24), waste: [], foundations: [0, 0, 0, 0], fan: 0 };
      for (var c = 0; c < 7; c++) {
        pos.tableau.push(new Array(c + 1));
        pos.down.push(c + 1); // a new deal: backs only
      }
    }
    var at = places(pos, g);
    PILES.forEach(function (name) {
      if (!cards[name]) return;
      at[name].forEach(function (p, i) { cards[name].push(card(p[0], p[1], p[2], i + 1)); });
    });
    PILES.forEach(function (name) {
      if (!el[name]) return;
      el[name].replaceChildren.apply(el[name], cards[name]);
      if (cards[name].length) el[name].removeAttribute("data-empty");
      else el[name].setAttribute("data-empty", "");
    });
  }

  function paintSaved(table, cache, env) {
    if (!cache || cache.v !== PAINT_V || !cache.piles) return false;
    if (cache.w !== table.clientWidth || cache.h !== table.clientHeight) return false;
    if (!env || cache.pos !== positionKey(env)) return false;
    var el = piles(table);
    table.style.setProperty("--cw", cache.cw);
    table.style.setProperty("--ch", cache.ch);
    PILES.forEach(function (name) {
      var p = cache.piles[name];
      if (!el[name] || !p) return;
      el[name].style.cssText = p.style;
      el[name].innerHTML = p.html;
      ["data-empty", "data-redeal"].forEach(function (a) {
        if (p[a] == null) el[name].removeAttribute(a);
        else el[name].setAttribute(a, p[a]);
      });
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
    return true;
  }

  // the interface language as last shown (data-t labels, html lang)
  function labels(cache) {
    if (!cache || !cache.labels) return;
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
    var env = read(GAME), how = "backs";
    try {
      if (paintSaved(table, read(PAINT), env)) how = "saved";
    } catch (e) {
      how = "backs";
    }
    if (how !== "saved") {
      try {
        var game = env && typeof env.game === "string" ? JSON.parse(env.game) : null;
        var pos = game && game.position;
        if (pos && Array.isArray(pos.tableau) && pos.tableau.length === 7) {
          paintPosition(table, pos);
          how = "game";
        }
      } catch (e) {
        how = "backs";
      }
    }
    if (how !== "saved") {
      try {
        labels(read(PAINT));
      } catch (e) {
        /* keep the page's own labels */
      }
    }
    if (how === "backs") {
      try {
        paintPosition(table, null);
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
    if (!ls || !ready()) return;
    var table = document.getElementById("table");
    var env = read(GAME);
    if (!table || !env) return;
    var el = piles(table), out = {
      v: PAINT_V, w: table.clientWidth, h: table.clientHeight, pos: positionKey(env),
      cw: table.style.getPropertyValue("--cw"), ch: table.style.getPropertyValue("--ch"),
      piles: {}, stats: {}, labels: {}, lang: html.lang,
    };
    var els = document.querySelectorAll("#bar [data-t], #panel [data-t], #table [data-t]");
    for (var i = 0; i < els.length; i++) out.labels[els[i].dataset.t] = els[i].textContent;
    PILES.forEach(function (name) {
      if (!el[name]) return;
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
      ls.setItem(PAINT, JSON.stringify(out));
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
