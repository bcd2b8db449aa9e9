// readsim simulation view: plays back the trace events of a replay
// (scenario.md) streamed over /ws/replay, in a phone-sized frame.
// No library; no inline code (the CSP forbids it).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const SVG = 'http://www.w3.org/2000/svg';

  // Base delay of each kind of event at 1×, in milliseconds.
  const DELAY = { topic: 200, open: 700, jump: 400, read: 450, stop: 400, score: 700, done: 0 };

  let gen = 0;          // replay generation: stale sockets and timers check it
  let ws = null;
  let params = null;    // the current replay's query parameters
  let events = [];      // every event received, in order
  let pos = 0;          // next event to apply
  let lastSeq = 0;      // highest seq received
  let finished = false; // the done event was received
  let playing = false;
  let busy = false;     // an event is being applied (frame loading)
  let timer = 0;
  let retries = 0;
  let state = null;

  function fresh() {
    return {
      topic: '', trel: 0, run: '', rank: 0, doc: '', open: null,
      read: 0, rel: 0, nonrel: 0, screens: 0, effort: null,
      rels: [], // judged relevant [from,to) pairs of the open article
      docScores: [], // per rank: scores object
      final: null,
    };
  }

  // ---- the frame: locating characters (render's data-o rule) ----

  // segs: the text nodes of the article in document order, each with its
  // first character's offset (code points).
  let segs = [];
  let fdoc = null;

  function cpLen(s) {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff) n++;
    }
    return n;
  }
  // UTF-16 index of code point k of s.
  function cpIndex(s, k) {
    let i = 0;
    while (k > 0 && i < s.length) {
      const c = s.charCodeAt(i);
      i += (c >= 0xd800 && c <= 0xdbff) ? 2 : 1;
      k--;
    }
    return i;
  }

  function indexFrame(doc) {
    fdoc = doc;
    segs = [];
    const root = doc.querySelector('.rs-doc');
    if (!root) { fdoc = null; return; } // not an article page (an error page, say)
    let off = parseInt(root.getAttribute('data-o') || '0', 10) || 0;
    const walk = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
      acceptNode(n) {
        if (n.nodeType === 1) {
          return n.classList && n.classList.contains('rs-ui') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
        }
        return NodeFilter.FILTER_ACCEPT;
      },
    });
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const len = cpLen(n.data);
      if (len === 0) continue;
      segs.push({ node: n, start: off, len: len });
      off += len;
    }
  }

  // first segment whose end is after offset x
  function segAt(x) {
    let lo = 0, hi = segs.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (segs[m].start + segs[m].len <= x) lo = m + 1; else hi = m;
    }
    return lo;
  }

  // mark wraps the characters [from,to) in spans of class cls.
  function mark(from, to, cls) {
    if (!fdoc || to <= from) return null;
    let first = null;
    let i = segAt(from);
    while (i < segs.length && segs[i].start < to) {
      const s = segs[i];
      const a = Math.max(from, s.start) - s.start;
      const b = Math.min(to, s.start + s.len) - s.start;
      let node = s.node;
      const parent = node.parentNode;
      if (parent && parent.classList && parent.classList.contains(cls) && a === 0 && b === s.len) {
        first = first || parent; i++; continue;
      }
      const repl = [];
      if (a > 0) {
        const rest = node.splitText(cpIndex(node.data, a));
        repl.push({ node: node, start: s.start, len: a });
        node = rest;
      }
      let after = null;
      if (b < s.len) {
        after = node.splitText(cpIndex(node.data, b - a));
      }
      const span = fdoc.createElementNS(XHTML, 'span');
      span.setAttribute('class', cls);
      node.parentNode.insertBefore(span, node);
      span.appendChild(node);
      repl.push({ node: node, start: s.start + a, len: b - a });
      if (after) repl.push({ node: after, start: s.start + b, len: s.len - b });
      segs.splice(i, 1, ...repl);
      first = first || span;
      i += repl.length;
    }
    return first;
  }

  function scrollFrameTo(el, smooth) {
    const win = $('frame').contentWindow;
    if (!el || !win) return;
    const bar = fdoc.getElementById('top');
    const pad = bar ? bar.getBoundingClientRect().height + 8 : 8;
    const y = el.getBoundingClientRect().top + win.scrollY - pad;
    win.scrollTo({ top: Math.max(0, y), behavior: smooth ? 'smooth' : 'auto' });
  }

  function loadFrame(ev) {
    const ps = (ev.passages || []).map((p) => Array.isArray(p) ? p : [p.offset, p.offset + p.length]);
    let url = '/article/' + encodeURIComponent(ev.doc);
    url += '?p=' + (ps.length ? ps.map((p) => p[0] + ':' + (p[1] - p[0])).join(',') : '');
    const frame = $('frame');
    return new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        try {
          const d = frame.contentDocument;
          const link = d.createElementNS(XHTML, 'link');
          link.setAttribute('rel', 'stylesheet');
          link.setAttribute('href', '/static/frame.css');
          (d.querySelector('head') || d.documentElement).appendChild(link);
          indexFrame(d);
        } catch (e) {
          segs = []; fdoc = null;
        }
        resolve();
      };
      frame.onload = finish;
      setTimeout(finish, 5000);
      frame.src = url;
    });
  }

  function fetchRelevant(topic, doc) {
    const u = '/api/relevant?topic=' + encodeURIComponent(topic) + '&doc=' + encodeURIComponent(doc);
    return fetch(u).then((r) => r.ok ? r.json() : []).then((a) =>
      a.map((p) => [p.offset, p.offset + p.length])).catch(() => []);
  }

  // ---- counters, scores, curves ----

  function fmt(v) {
    if (typeof v !== 'number') return String(v);
    if (Number.isInteger(v)) return String(v);
    return v.toFixed(4);
  }
  function setText(id, v) { $(id).textContent = v; }

  function counters() {
    setText('c-rank', state.rank ? state.rank + (state.doc ? ' · ' + state.doc : '') : '–');
    setText('c-read', state.read);
    setText('c-rel', state.rel);
    setText('c-nonrel', state.nonrel);
    setText('c-t2i', params && +params.t2i > 0 ? params.t2i : '∞');
    setText('c-screens', state.screens);
    setText('c-effort', state.effort == null ? '–' : state.effort);
  }

  function scoreTable(id, scores) {
    const tb = $(id).tBodies[0];
    tb.textContent = '';
    if (!scores) return;
    for (const k of Object.keys(scores)) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = k;
      const td = document.createElement('td');
      td.textContent = fmt(scores[k]);
      td.setAttribute('data-measure', k);
      td.setAttribute('data-v', String(scores[k]));
      tr.append(th, td);
      tb.appendChild(tr);
    }
  }

  function fillMeasureSelects(scores) {
    const keys = Object.keys(scores);
    for (const [id, pick] of [['gpm', (k) => /^T2Ip/.test(k)], ['ncem', (k) => /^LE/.test(k)]]) {
      const sel = $(id);
      if (sel.options.length) continue;
      const want = id === 'ncem' ? keys.filter((k) => /^LE/.test(k)) : keys.filter((k) => !/^LE/.test(k));
      for (const k of want) sel.add(new Option(k, k));
      const best = want.find(pick);
      if (best) sel.value = best;
    }
  }

  function nrOf(name) {
    const m = /^LE\(\s*\d+\s*,\s*(\d+)/.exec(name || '');
    return m ? +m[1] : 5;
  }

  function curves() {
    const svg = $('curves');
    svg.textContent = '';
    const W = 320, H = 180, L = 30, R = 30, T = 10, B = 22;
    const n = state.docScores.length;
    const gm = $('gpm').value, nm = $('ncem').value;
    const nr = nrOf(nm);
    const gp = [], nce = [];
    let sum = 0, cum = 0;
    for (let r = 1; r <= n; r++) {
      const s = state.docScores[r - 1] || {};
      sum += +(s[gm] || 0);
      gp.push(sum / r);
      const es = s[nm] != null ? +s[nm] : nr;
      const ie = r <= state.trel ? 1 : nr;
      cum += (es - ie) / ie;
      nce.push(cum);
    }
    const el = (name, attrs, text) => {
      const e = document.createElementNS(SVG, name);
      for (const k in attrs) e.setAttribute(k, attrs[k]);
      if (text != null) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    const maxR = Math.max(n, 10);
    const maxN = Math.max(1, ...nce.map((v) => Math.abs(v)));
    const x = (r) => L + (W - L - R) * (r - 1) / Math.max(1, maxR - 1);
    const yg = (v) => T + (H - T - B) * (1 - v);
    const yn = (v) => T + (H - T - B) * (1 - v / maxN);
    el('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis' });
    el('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' });
    el('line', { x1: W - R, y1: T, x2: W - R, y2: H - B, class: 'axis' });
    el('text', { x: L - 4, y: T + 8, class: 'lbl gp', 'text-anchor': 'end' }, '1');
    el('text', { x: L - 4, y: H - B, class: 'lbl gp', 'text-anchor': 'end' }, '0');
    el('text', { x: W - R + 4, y: T + 8, class: 'lbl nce' }, maxN.toFixed(1));
    el('text', { x: W - R + 4, y: H - B, class: 'lbl nce' }, '0');
    el('text', { x: L, y: H - 6, class: 'lbl' }, '1');
    el('text', { x: W - R, y: H - 6, class: 'lbl', 'text-anchor': 'end' }, String(maxR));
    el('text', { x: (W) / 2, y: H - 6, class: 'lbl', 'text-anchor': 'middle' }, 'rank');
    const path = (vals, y) => vals.map((v, i) => (i ? 'L' : 'M') + x(i + 1).toFixed(1) + ' ' + y(v).toFixed(1)).join(' ');
    if (n) {
      el('path', { d: path(gp, yg), class: 'line gp' });
      el('path', { d: path(nce, yn), class: 'line nce' });
      el('circle', { cx: x(n), cy: yg(gp[n - 1]), r: 3, class: 'dot gp' });
      el('circle', { cx: x(n), cy: yn(nce[n - 1]), r: 3, class: 'dot nce' });
    }
    svg.setAttribute('data-gp', gp.length ? String(gp[gp.length - 1]) : '');
    svg.setAttribute('data-nce', nce.length ? String(nce[nce.length - 1]) : '');
  }

  // ---- applying events ----

  // apply shows ev. fast skips the frame (used to jump to a rank).
  async function apply(ev, fast) {
    switch (ev.ev) {
      case 'topic':
        state.topic = ev.topic; state.trel = ev.trel; state.run = ev.run;
        break;
      case 'open':
        state.rank = ev.rank; state.doc = ev.doc; state.open = ev;
        state.read = state.rel = state.nonrel = state.screens = 0;
        state.effort = null;
        setText('doc', '#' + ev.rank + ' · ' + ev.doc + (ev.judged === false ? ' (not judged)' : ev.nrc ? ' · ' + ev.nrc + ' relevant characters' : ' · not relevant'));
        if (!fast) {
          const g = gen;
          const [rels] = await Promise.all([fetchRelevant(ev.topic, ev.doc), loadFrame(ev)]);
          if (g !== gen) return;
          state.rels = rels;
        } else {
          state.rels = [];
        }
        break;
      case 'jump':
        if (!fast && fdoc) {
          for (const old of fdoc.querySelectorAll('.rs-at')) old.setAttribute('class', '');
          scrollFrameTo(mark(ev.to, ev.to + 1, 'rs-at'), true);
        }
        break;
      case 'read':
        state.read += ev.to - ev.from;
        state.rel += ev.rel;
        state.nonrel += ev.nonrel;
        state.screens = Math.max(state.screens, ev.screen || 0);
        if (ev.rel > 0 && state.effort == null) state.effort = Math.min(ev.screen, nrOf($('ncem').value || ''));
        if (!fast) {
          const el = mark(ev.from, ev.to, 'rs-read');
          for (const [a, b] of state.rels) {
            if (a < ev.to && b > ev.from) mark(Math.max(a, ev.from), Math.min(b, ev.to), 'rs-found');
          }
          scrollFrameTo(el, +$('speed').value <= 2);
        }
        break;
      case 'stop':
        if (state.effort == null) state.effort = nrOf($('ncem').value || '');
        break;
      case 'score':
        fillMeasureSelects(ev.scores || {});
        state.docScores[ev.rank - 1] = ev.scores || {};
        for (const k in ev.scores) if (/^LE/.test(k)) state.effort = ev.scores[k];
        setText('ds-doc', '#' + ev.rank + ' ' + ev.doc);
        scoreTable('docscores', ev.scores);
        if (!fast) curves();
        break;
      case 'done':
        state.final = ev.scores;
        scoreTable('final', ev.scores);
        curves();
        break;
    }
    counters();
  }

  function delay(ev) {
    const sp = +$('speed').value || 1;
    let d = DELAY[ev.ev] || 0;
    if (ev.ev === 'read') d *= Math.max(0.3, (ev.to - ev.from) / 300);
    return d / sp;
  }

  function status(msg) { setText('status', msg); }

  function buttons() {
    $('play').disabled = !params;
    $('step').disabled = !params || pos >= events.length;
    $('jump').disabled = !params;
    $('play').textContent = playing ? 'Pause' : (pos >= events.length && finished ? 'Replay' : 'Play');
  }

  // tick applies the next event, then schedules the one after it.
  async function tick() {
    timer = 0;
    if (!playing || busy) return;
    if (pos >= events.length) {
      if (finished) { playing = false; status('Done: ' + state.topic + ' of ' + state.run + '.'); }
      buttons();
      return; // wait for more events (onmessage calls kick)
    }
    const g = gen;
    const ev = events[pos++];
    busy = true;
    await apply(ev, false);
    busy = false;
    if (g !== gen) return;
    buttons();
    if (playing) timer = setTimeout(tick, delay(ev));
  }

  function kick() {
    if (playing && !busy && !timer) timer = setTimeout(tick, 0);
  }

  async function step() {
    if (busy || pos >= events.length) return;
    playing = false;
    clearTimeout(timer); timer = 0;
    busy = true;
    await apply(events[pos++], false);
    busy = false;
    buttons();
  }

  // jumpTo replays everything before rank r quickly and stops at its open.
  async function jumpTo(r) {
    const g = gen;
    clearTimeout(timer); timer = 0;
    const wasPlaying = playing;
    playing = false;
    while (busy) await new Promise((res) => setTimeout(res, 20));
    state = fresh();
    pos = 0;
    scoreTable('docscores', null); scoreTable('final', null);
    while (pos < events.length && !(events[pos].ev === 'open' && events[pos].rank >= r)) {
      await apply(events[pos++], true);
    }
    if (g !== gen) return;
    curves();
    if (pos < events.length) {
      busy = true;
      await apply(events[pos++], false);
      busy = false;
    } else if (!finished) {
      status('Rank ' + r + ' has not arrived yet.');
    }
    playing = wasPlaying;
    buttons();
    kick();
  }

  // ---- the socket ----

  function connect() {
    const g = gen;
    const u = new URL('/ws/replay', location.href);
    u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    for (const k in params) u.searchParams.set(k, params[k]);
    if (lastSeq) u.searchParams.set('after', lastSeq);
    const s = new WebSocket(u.href);
    ws = s;
    s.onopen = () => { if (g === gen) { retries = 0; status('Replaying…'); } };
    s.onmessage = (m) => {
      if (g !== gen) return;
      let ev;
      try { ev = JSON.parse(m.data); } catch (e) { return; }
      if (ev.ev === 'error') { status('Error: ' + ev.message); finished = true; return; }
      if (ev.seq <= lastSeq) return;
      lastSeq = ev.seq;
      events.push(ev);
      if (ev.ev === 'done') finished = true;
      buttons();
      kick();
    };
    s.onclose = (e) => {
      if (g !== gen || finished) return;
      if (e.code === 1008) { status('The server refused this replay.'); return; }
      retries++;
      const wait = Math.min(10000, 500 * 2 ** Math.min(retries, 5));
      status('Connection lost; reconnecting…');
      setTimeout(() => { if (g === gen && !finished) connect(); }, wait);
    };
  }

  function start() {
    gen++;
    if (ws) { try { ws.close(); } catch (e) { /* closed */ } }
    clearTimeout(timer); timer = 0;
    busy = false;
    params = {
      topic: $('topic').value, run: $('run').value, order: $('order').value,
      t2i: String(Math.max(0, parseInt($('t2i').value, 10) || 0)), screen: $('screen').value,
    };
    events = []; pos = 0; lastSeq = 0; finished = false; retries = 0;
    state = fresh();
    for (const id of ['gpm', 'ncem']) $(id).textContent = '';
    scoreTable('docscores', null); scoreTable('final', null);
    setText('ds-doc', ''); setText('doc', '–');
    curves(); counters();
    playing = true;
    status('Connecting…');
    const tsel = $('topic').selectedOptions[0];
    setText('setup-sum', params.run + ' · ' + (tsel ? tsel.textContent : params.topic) + ' · ' + params.order +
      ', T2I ' + (+params.t2i > 0 ? params.t2i : '∞') + ', screen ' + params.screen);
    $('setup').open = false;
    buttons();
    connect();
    history.replaceState(null, '', '/simulate?' + new URLSearchParams(params));
  }

  // the topics a run answers
  function filterTopics() {
    const opt = $('run').selectedOptions[0];
    if (!opt) return;
    const ok = new Set((opt.getAttribute('data-topics') || '').split(' '));
    let first = null;
    for (const o of $('topic').options) {
      o.hidden = o.disabled = !ok.has(o.value);
      if (!o.disabled && !first) first = o;
    }
    const cur = $('topic').selectedOptions[0];
    if ((!cur || cur.disabled) && first) $('topic').value = first.value;
  }

  function init() {
    state = fresh();
    const q = new URLSearchParams(location.search);
    for (const k of ['run', 'topic', 'order', 't2i', 'screen']) {
      if (q.has(k) && $(k)) $(k).value = q.get(k);
    }
    filterTopics();
    $('run').addEventListener('change', filterTopics);
    $('cfg').addEventListener('submit', (e) => { e.preventDefault(); start(); });
    $('play').addEventListener('click', () => {
      if (!playing && pos >= events.length && finished) { jumpTo(1).then(() => { playing = true; buttons(); kick(); }); return; }
      playing = !playing;
      if (!playing) { clearTimeout(timer); timer = 0; }
      buttons();
      kick();
    });
    $('step').addEventListener('click', step);
    $('jump').addEventListener('click', () => jumpTo(Math.max(1, parseInt($('rank').value, 10) || 1)));
    $('gpm').addEventListener('change', curves);
    $('ncem').addEventListener('change', curves);
    curves(); counters();
    if (q.has('run') && q.has('topic')) start();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
