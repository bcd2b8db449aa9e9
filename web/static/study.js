// readsim study mode: records what a participant reads (web/study.go).
// Loaded by a participant's pages only: the study page, the result lists
// and the article pages. Events go to a queue in local storage (so that
// they survive going from page to page) and are sent in batches to
// POST /study/events; the server says which seq it has, and the queue
// drops what is recorded. No library; no inline code (the CSP forbids it).
'use strict';
(function () {
  const KEY = 'readsim-study';
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const BATCH = 64;          // events per request (the server takes 256)
  const MAX_BODY = 60000;    // bytes per request (the server takes 64 KiB)
  const SETTLE = 300;        // ms without scrolling: the screen is read
  const EVERY = 1000;        // ms: a screen read while scrolling on

  // ---- state, in local storage ----

  function load() {
    try {
      const s = JSON.parse(localStorage.getItem(KEY));
      if (s && typeof s === 'object' && Array.isArray(s.queue)) return s;
    } catch (e) { /* no storage, or junk */ }
    return null;
  }
  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(st)); } catch (e) { /* full or off */ }
  }
  function fresh(pid, seq, t) {
    return {pid: pid, seq: seq, t0: Date.now() - t, lastT: t, topic: '', title: '', started: '', shownAt: t,
      done: {}, queue: [], hits: [], lastQ: '', submitted: false};
  }
  let st = load();

  function clock() { return Math.round(Date.now() - st.t0); }

  // emit queues an event with the next seq and the time since the session
  // started (never going back), or the time at (the runs of one screen
  // share theirs: calibration counts them as one screen). A topic's event
  // is queued with the topic's first action, at the time the topic was
  // shown: a topic shown and left untouched is not in the recording (it
  // would score 0).
  function emit(ev, at) {
    st = load() || st;
    if (!st) return;
    if (!ev.topic) ev.topic = st.topic;
    if (!ev.topic) return;
    if (st.started !== ev.topic) {
      st.started = ev.topic;
      push({ev: 'topic', topic: ev.topic}, st.shownAt);
    }
    push(ev, at === undefined ? clock() : at);
    save();
    later();
  }
  function push(ev, t) {
    ev.seq = ++st.seq;
    ev.t = Math.max(st.lastT || 0, t || 0);
    st.lastT = ev.t;
    st.queue.push(ev);
  }

  // ---- sending ----

  let timer = 0, sending = false, backoff = 1000;
  function later(ms) {
    if (!timer) timer = setTimeout(function () { timer = 0; flush(false); }, ms || 1000);
  }

  function batch() {
    let n = Math.min(st.queue.length, BATCH), body;
    for (;;) {
      body = JSON.stringify({events: st.queue.slice(0, n)});
      if (body.length <= MAX_BODY || n === 1) return [n, body];
      n = Math.ceil(n / 2);
    }
  }

  // flush sends the queue, batch by batch, until it is empty or a request
  // fails; keepalive sends one batch that outlives the page.
  async function flush(keepalive) {
    st = load() || st;
    if (!st || !st.queue.length) return true;
    if (keepalive) {
      const [, body] = batch();
      try {
        fetch('/study/events', {method: 'POST', headers: {'Content-Type': 'application/json'},
          body: body, credentials: 'same-origin', keepalive: true});
      } catch (e) { /* the next page sends it again */ }
      return false;
    }
    if (sending) { later(); return false; }
    sending = true;
    try {
      while (st.queue.length) {
        const [n, body] = batch();
        const sent = new Set(st.queue.slice(0, n).map(function (e) { return e.seq; }));
        let res, j = {};
        try {
          res = await fetch('/study/events', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: body, credentials: 'same-origin'});
          j = await res.json();
        } catch (e) {
          if (!res) { backoff = Math.min(backoff * 2, 30000); later(backoff); return false; }
        }
        backoff = 1000;
        st = load() || st;
        if ((res.ok || res.status === 409) && typeof j.seq === 'number') {
          // recorded (or recorded before): drop what the server has
          const have = j.seq;
          st.queue = st.queue.filter(function (e) { return e.seq > have; });
          st.seq = Math.max(st.seq, have);
        } else if (res.status === 400 || res.status === 413) {
          // a batch the server will never take (an invalid event, seqs out
          // of order, too large): sending it again cannot help; drop it,
          // keep the rest of the queue
          if (window.console) console.warn('readsim study: batch refused:', j.error);
          st.queue = st.queue.filter(function (e) { return !sent.has(e.seq); });
        } else if (res.status === 401 || res.status === 403) {
          st.queue = []; // no longer a participant
        } else {
          save();
          later(5000);
          return false;
        }
        save();
      }
      return true;
    } finally {
      sending = false;
    }
  }

  // ---- the bar: the topic, Found it, Give up ----

  let closeArticle = null; // emits the stop of the open article

  function el(tag, cls, text) {
    const e = document.createElementNS(XHTML, tag);
    if (cls) e.setAttribute('class', cls);
    if (text) e.textContent = text;
    return e;
  }

  async function finish(outcome) {
    if (closeArticle) closeArticle();
    emit({ev: 'done', outcome: outcome});
    st.done[st.topic] = true;
    st.topic = '';
    st.ended = true; // the next study page follows a topic's end
    save();
    await flush(false);
    location.assign('/study');
  }

  let bar = null;
  function showBar() {
    if (!document.querySelector('link[href="/static/study.css"]')) {
      const l = el('link');
      l.setAttribute('rel', 'stylesheet');
      l.setAttribute('href', '/static/study.css');
      document.head.appendChild(l);
    }
    bar = el('div', 'st-bar');
    bar.setAttribute('role', 'region');
    bar.setAttribute('aria-label', 'Reading study');
    const t = el('a', 'st-t');
    t.setAttribute('href', '/study');
    t.setAttribute('title', 'The topic');
    t.appendChild(el('span', 'st-tt', st.title || st.topic));
    const found = el('button', 'st-found', 'Found it');
    const give = el('button', 'st-give', 'Give up');
    for (const [b, outcome] of [[found, 'found'], [give, 'gave up']]) {
      b.setAttribute('type', 'button');
      b.addEventListener('click', function () {
        found.disabled = give.disabled = true;
        finish(outcome);
      });
    }
    bar.append(t, found, give);
    document.body.appendChild(bar);
    document.body.classList.add('st-on');
    // the bar is as tall as the topic needs: the page's end and a
    // footnote's drawer (render's --rs-drawer-bottom) stay above it
    const fit = function () {
      const h = Math.ceil(bar.getBoundingClientRect().height);
      document.body.style.paddingBottom = (h + 12) + 'px';
      document.body.style.setProperty('--rs-drawer-bottom', h + 'px');
    };
    fit();
    window.addEventListener('resize', fit);
  }

  // ---- characters on screen (render's data-o rule, in code points) ----

  // cpLen counts the code points of s, as lane.js's cpLen does: this script
  // stands alone, since an article page loads one script (render's
  // Options.ScriptURL), and the replay pages do not load it.
  function cpLen(s) {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff) n++;
    }
    return n;
  }

  // textMap lists the article's text nodes with their offsets: the text
  // inside .rs-doc, not inside .rs-ui, in document order; an element with
  // data-o sets the offset of the character after its start tag.
  function textMap(root) {
    const out = [];
    const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.nodeType === 1 && n.classList.contains('rs-ui') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    let cur = +root.getAttribute('data-o') || 0;
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      if (n.nodeType === 1) {
        const o = n.getAttribute('data-o');
        if (o !== null) cur = +o;
        continue;
      }
      const len = cpLen(n.data);
      if (!len) continue;
      const p = n.parentNode;
      // text that takes no room and breaks no run: collapsed white space,
      // the hidden colon of a category
      const quiet = !/\S/.test(n.data) || !!(p && p.closest && p.closest('.rs-colon'));
      out.push({node: n, start: cur, len: len, quiet: quiet});
      cur += len;
    }
    return out;
  }

  // view is the part of the window the reader sees: the visual viewport
  // (pinch zoom) above the study bar.
  function view() {
    const vv = window.visualViewport;
    const b = vv ? {x0: vv.offsetLeft, y0: vv.offsetTop, x1: vv.offsetLeft + vv.width, y1: vv.offsetTop + vv.height}
      : {x0: 0, y0: 0, x1: window.innerWidth, y1: window.innerHeight};
    if (bar) {
      const r = bar.getBoundingClientRect();
      if (r.height > 0) b.y1 = Math.min(b.y1, r.top);
    }
    return b;
  }

  const range = document.createRange();
  function rectOf(node, a, z) {
    range.setStart(node, a);
    range.setEnd(node, z);
    return range.getBoundingClientRect();
  }

  // part returns the UTF-16 indexes [f,e) of node's characters on lines
  // that reach into the view: the bottom of the union of characters [0,i)
  // and the top of the union of [j,n) grow with i and j, so both ends are
  // found by bisection.
  function part(node, b) {
    const n = node.data.length;
    const all = rectOf(node, 0, n);
    if (all.top >= b.y0 && all.bottom <= b.y1) return [0, n];
    let lo = 0, hi = n; // largest i with [0,i) above the view
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (rectOf(node, 0, mid).bottom <= b.y0) lo = mid; else hi = mid - 1;
    }
    const f = lo;
    lo = f; hi = n;     // smallest j with [j,n) below the view
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rectOf(node, mid, n).top >= b.y1) hi = mid; else lo = mid + 1;
    }
    return [f, lo];
  }

  // rendered reports whether an element's text can be seen at all: not
  // display:none, visibility:hidden or inside a closed <details> (whose
  // content Chrome still gives boxes, at stale places).
  function rendered(e) {
    if (e.checkVisibility && !e.checkVisibility({visibilityProperty: true})) return false;
    const d = e.closest('details');
    return !d || d.open || !!e.closest('summary');
  }

  // clipOf is the part of the view in which e's content can be seen: the
  // view cut by every ancestor that clips what overflows it (a table
  // scrolling sideways in its own box, say). cache holds each element's.
  function clipOf(e, b, cache) {
    if (!e || e.nodeType !== 1) return b;
    let c = cache.get(e);
    if (c) return c;
    c = clipOf(e.parentElement, b, cache);
    const cs = getComputedStyle(e);
    if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
      const r = e.getBoundingClientRect();
      c = {x0: Math.max(c.x0, r.left + e.clientLeft), y0: Math.max(c.y0, r.top + e.clientTop),
        x1: Math.min(c.x1, r.left + e.clientLeft + e.clientWidth), y1: Math.min(c.y1, r.top + e.clientTop + e.clientHeight)};
    }
    cache.set(e, c);
    return c;
  }

  // across returns the UTF-16 ranges [f,e) of node's characters [a,z)
  // whose middle lies within the clip left to right: all of them when the
  // lines' boxes are within it (the common case), else character by
  // character (a line running off the right edge, a wide table's cell).
  function across(node, a, z, c) {
    if (a >= z) return [];
    let inside = true;
    range.setStart(node, a);
    range.setEnd(node, z);
    for (const q of range.getClientRects()) {
      if ((q.width > 0 || q.height > 0) && q.bottom > c.y0 && q.top < c.y1 && (q.left < c.x0 - 0.5 || q.right > c.x1 + 0.5)) inside = false;
    }
    if (inside) return [[a, z]];
    const out = [];
    let cur = null;
    for (let i = a; i < z;) {
      const n = i + 1 < z && (node.data.charCodeAt(i) & 0xfc00) === 0xd800 ? 2 : 1;
      const q = rectOf(node, i, i + n), x = (q.left + q.right) / 2, y = (q.top + q.bottom) / 2;
      if (x >= c.x0 && x < c.x1 && y > c.y0 && y < c.y1 || q.width === 0 && cur) {
        if (cur) cur[1] = i + n; else { cur = [i, i + n]; out.push(cur); }
      } else cur = null;
      i += n;
    }
    return out;
  }

  // onScreen returns the characters on screen as runs [from,to) in
  // document order: a run breaks at text that is off screen (above, below,
  // left or right of the view or of a box that clips it) or hidden (a
  // closed details block), not at collapsed white space.
  function onScreen(map) {
    const b = view();
    const runs = [];
    let run = null;
    const seen = new Map(); // element → rendered
    const clips = new Map(); // element → its clip
    for (const tn of map) {
      const p = tn.node.parentNode;
      let shown = seen.get(p);
      if (shown === undefined) { shown = rendered(p); seen.set(p, shown); }
      let hit = false, c = b;
      if (shown) {
        shown = false;
        range.selectNodeContents(tn.node);
        for (const q of range.getClientRects()) {
          if (q.width <= 0 && q.height <= 0) continue;
          shown = true;
          if (q.bottom > b.y0 && q.top < b.y1 && q.right > b.x0 && q.left < b.x1) hit = true;
        }
        if (hit) {
          c = clipOf(p, b, clips);
          hit = c.x0 < c.x1 && c.y0 < c.y1;
        }
      }
      if (!shown && tn.quiet) continue;
      if (!hit) { run = null; continue; }
      const [f, e] = part(tn.node, c);
      const parts = across(tn.node, f, e, c);
      if (!parts.length) { run = null; continue; }
      const s = tn.node.data;
      for (const [pf, pe] of parts) {
        const from = tn.start + cpLen(s.slice(0, pf)), to = tn.start + cpLen(s.slice(0, pe));
        if (run && pf === 0) run[1] = to; else { run = [from, to]; runs.push(run); }
        if (pe < s.length) run = null;
      }
    }
    return runs;
  }

  // lastDrawn is the offset after the article's last visible character:
  // the end of the last text drawn (not white space, not in a closed
  // details block); what follows it is never on screen. 0: none.
  function lastDrawn(map) {
    for (let i = map.length - 1; i >= 0; i--) {
      const tn = map[i], p = tn.node.parentNode;
      if (tn.quiet || !p || !rendered(p)) continue;
      range.selectNodeContents(tn.node);
      for (const q of range.getClientRects()) if (q.width > 0 || q.height > 0) return tn.start + tn.len;
    }
    return 0;
  }

  // ---- the pages ----

  function studyPage(main) {
    const d = main.dataset;
    if (d.state === 'withdrawn' && !d.keep || d.state === 'consent') {
      try { localStorage.removeItem(KEY); } catch (e) { /* off */ }
      return;
    }
    const seq = +d.seq || 0, t = +d.t || 0;
    if (!st || st.pid !== d.participant) st = fresh(d.participant, seq, t);
    st.seq = Math.max(st.seq, seq);
    st.lastT = Math.max(st.lastT || 0, t);
    save();
    if (d.state === 'finished') {
      st.topic = '';
      save();
      // the last topic just done: once its batch is recorded, on to the
      // recruitment platform's completion link, when the study has one
      // (a participant coming back later stays, to withdraw say)
      const done = document.getElementById('st-complete'), ended = st.ended;
      st.ended = false;
      save();
      flush(false).then(function (ok) {
        if (ok && ended && done && done.dataset.url) location.assign(done.dataset.url);
      });
      return;
    }
    if (st.done[d.topic]) {
      // its done event is still queued: send it, then show the next topic
      if (st.queue.length) {
        flush(false).then(function (ok) { if (ok) location.reload(); });
        return;
      }
      delete st.done[d.topic]; // refused: the topic is still open
    }
    st.ended = false;
    if (st.topic !== d.topic) {
      st.topic = d.topic;
      st.title = d.title || d.topic;
      st.shownAt = clock();
      st.hits = [];
      st.lastQ = '';
      save();
    }
    const skip = document.getElementById('st-skip');
    if (skip) {
      skip.hidden = false;
      skip.addEventListener('click', function () { skip.disabled = true; finish('gave up'); });
    }
    flush(false);
  }

  function resultsPage() {
    const input = document.querySelector('form.search input[name=q]');
    const q = input ? input.defaultValue.trim() : '';
    const ids = [];
    for (const li of document.querySelectorAll('.hits > li')) ids.push(li.id.replace(/^r-/, ''));
    if (q && (q !== st.lastQ || st.submitted)) emit({ev: 'query', q: q});
    st = load() || st;
    st.hits = ids;
    st.lastQ = q;
    st.submitted = false;
    save();
  }

  async function articlePage(root) {
    const doc = root.getAttribute('data-id');
    if (!doc) return;
    const q = new URLSearchParams(location.search).get('q') || '';
    let passages = [];
    if (q) {
      try {
        const res = await fetch('/api/article/' + encodeURIComponent(doc) + '?q=' + encodeURIComponent(q), {credentials: 'same-origin'});
        if (res.ok) passages = (await res.json()).passages.map(function (p) { return [p.offset, p.offset + p.length]; });
      } catch (e) { /* recorded without the passages */ }
    }
    const map = textMap(root);
    // sawEnd: a screen of this open reached the last visible character;
    // its stop says reason "end" (calibration's right-censoring)
    let open = false, last = '', settle = 0, every = 0, sawEnd = false;
    function opened() {
      st = load() || st;
      if (!st.topic) return;
      emit({ev: 'open', doc: doc, rank: st.hits.indexOf(doc) + 1, passages: passages});
      open = true;
      last = '';
      sawEnd = false;
      check();
    }
    function check() {
      clearTimeout(settle);
      clearTimeout(every);
      settle = every = 0;
      if (!open || document.visibilityState === 'hidden') return;
      const runs = onScreen(map);
      const key = JSON.stringify(runs);
      if (key === last) return;
      last = key;
      const now = clock();
      for (const [a, z] of runs) if (z > a) emit({ev: 'read', doc: doc, from: a, to: z}, now);
      const end = lastDrawn(map);
      if (end > 0 && runs.some(function (r) { return r[1] >= end; })) sawEnd = true;
    }
    function moved() {
      if (!open) return;
      clearTimeout(settle);
      settle = setTimeout(check, SETTLE);
      if (!every) every = setTimeout(check, EVERY);
    }
    closeArticle = function () {
      if (!open) return;
      check();
      emit(sawEnd ? {ev: 'stop', doc: doc, reason: 'end'} : {ev: 'stop', doc: doc});
      open = false;
    };
    document.addEventListener('scroll', moved, {capture: true, passive: true});
    window.addEventListener('resize', moved);
    if (window.visualViewport) {
      window.visualViewport.addEventListener('scroll', moved);
      window.visualViewport.addEventListener('resize', moved);
    }
    document.addEventListener('toggle', moved, true); // a details block opened
    document.addEventListener('click', function (ev) {
      const a = ev.target.closest && ev.target.closest('a.rs-arrow');
      const href = a && a.getAttribute('href');
      if (!open || !href || href[0] !== '#') return;
      check(); // the screen before the jump
      const id = href.slice(1), target = document.getElementById(id);
      const to = id === 'top' || !target ? 0 : +target.getAttribute('data-o') || 0;
      emit({ev: 'jump', doc: doc, to: to});
    }, true);
    window.addEventListener('pagehide', function () {
      if (closeArticle) closeArticle();
      flush(true);
    });
    window.addEventListener('pageshow', function (ev) {
      if (ev.persisted && !open) opened(); // back from the next page
    });
    opened();
  }

  function start() {
    const main = document.getElementById('study');
    if (main) { studyPage(main); return; }
    st = load();
    if (!st || !st.topic) return; // not in a topic: nothing to record
    showBar();
    document.addEventListener('submit', function (ev) {
      if (ev.target.matches && ev.target.matches('form.search')) { st = load() || st; st.submitted = true; save(); }
    }, true);
    const root = document.querySelector('.rs-doc');
    if (root) articlePage(root);
    else {
      if (document.querySelector('.hits, #count')) resultsPage();
      window.addEventListener('pagehide', function () { flush(true); });
    }
    flush(false);
  }

  // (an XHTML page runs a deferred script before its body is parsed)
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
