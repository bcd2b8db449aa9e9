// readsim: one replay in one phone frame (a "lane"), for the simulation
// view (sim.js) and the race (race.js). A lane fetches the replay's summary
// (/api/replay), buffers its trace events (/ws/replay, scenario.md) and
// shows those it is told to apply: the article in the frame (a schematic
// when the server has no text), the reader's marks, running totals. No
// library; no inline code (the CSP forbids it).
'use strict';
(function () {
  const XHTML = 'http://www.w3.org/1999/xhtml';
  const SVG = 'http://www.w3.org/2000/svg';

  // ---- numbers ----

  // fmt shows a score: integers as they are, others with digits decimals
  // (default 4; two fewer from 10 on); the full value goes in data-value.
  function fmt(v, digits) {
    if (v == null || typeof v !== 'number' || !isFinite(v)) return '–';
    if (Number.isInteger(v)) return v.toLocaleString('en');
    const d = digits || 4;
    return Math.abs(v) >= 10 ? v.toFixed(Math.max(1, d - 2)) : v.toFixed(d);
  }
  function fmtInt(v) { return (v || 0).toLocaleString('en'); }

  // betterOf compares a and b for a measure: 1 when a is better, -1 when b
  // is, 0 for a tie or a measure without direction.
  function betterOf(dir, a, b) {
    if (a == null || b == null || a === b) return 0;
    if (dir === 'higher') return a > b ? 1 : -1;
    if (dir === 'lower') return a < b ? 1 : -1;
    return 0;
  }

  // breakable lets long measure names wrap after their backslash.
  function breakable(name) { return name.replace(/\\/g, '\\\u200b'); }

  // svgAppender returns el(name, attrs, text), which appends to svg a new
  // SVG element with those attributes (and text) and returns it.
  function svgAppender(svg) {
    return (name, attrs, text) => {
      const e = document.createElementNS(SVG, name);
      for (const k in attrs) e.setAttribute(k, attrs[k]);
      if (text != null) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
  }

  // ---- characters in the frame (render's data-o rule, code points) ----

  function cpLen(s) {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0xd800 || c > 0xdbff) n++;
    }
    return n;
  }
  function cpIndex(s, k) {
    let i = 0;
    while (k > 0 && i < s.length) {
      const c = s.charCodeAt(i);
      i += (c >= 0xd800 && c <= 0xdbff) ? 2 : 1;
      k--;
    }
    return i;
  }

  // intersections of [from,to) with the [a,b) pairs of list
  function clip(list, from, to) {
    const out = [];
    for (const [a, b] of list) if (a < to && b > from) out.push([Math.max(a, from), Math.min(b, to)]);
    return out;
  }

  // the parts of [from,to) outside every [a,b) pair of list
  function subtract(list, from, to) {
    let parts = [[from, to]];
    for (const [a, b] of list) {
      const next = [];
      for (const [x, y] of parts) {
        if (b <= x || a >= y) { next.push([x, y]); continue; }
        if (a > x) next.push([x, a]);
        if (b < y) next.push([b, y]);
      }
      parts = next;
    }
    return parts;
  }

  // ---- the lane ----

  // Lane shows one replay in root, which holds .lane-run, .lane-doc, an
  // iframe and an svg.schem. onChange(lane) is called after every applied
  // event, onEvent(lane, ev) on every event received.
  function Lane(root, opts) {
    this.root = root;
    this.iframe = root.querySelector('iframe');
    this.svg = root.querySelector('svg.schem');
    this.docLabel = root.querySelector('.lane-doc');
    this.runLabel = root.querySelector('.lane-run');
    this.opts = opts || {};
    this.gen = 0;
    this.view = 0; // counts the articles shown: a late frame load for an older one is ignored
    this.ws = null;
    this.summary = null;
    this.params = null;
    this.clear();
  }

  Lane.prototype.clear = function () {
    this.events = [];   // every event received, in order
    this.pos = 0;       // next event to apply
    this.lastSeq = 0;
    this.received = false; // the done event was received
    this.failed = '';
    this.retries = 0;
    if (this.root) this.root.removeAttribute('data-state');
    this.st = {
      topic: '', trel: 0, rank: 0, doc: '', open: null, text: true,
      rels: [], reads: [], skips: [], at: -1, pos: 0, now: null,
      art: { read: 0, rel: 0, nonrel: 0, screens: 0, effort: null },
      tot: { read: 0, rel: 0, screens: 0, firstRel: null },
      docScores: [], running: null, final: null, done: false,
    };
    this.segs = [];
    this.fdoc = null;
  };

  // start fetches the summary of the replay params (the query parameters of
  // /ws/replay) and opens its event stream. It resolves with the summary.
  Lane.prototype.start = function (params) {
    this.stop();
    this.gen++;
    this.params = params;
    this.summary = null;
    this.clear();
    if (this.runLabel) this.runLabel.textContent = params.run;
    if (this.docLabel) this.docLabel.textContent = '';
    this.showSchematic(false);
    this.iframe.src = 'about:blank';
    const g = this.gen;
    const u = '/api/replay?' + new URLSearchParams(params);
    return fetch(u).then((r) => r.json().then((j) => {
      if (!r.ok) throw new Error(j.error || r.statusText);
      return j;
    })).then((s) => {
      if (g !== this.gen) return s;
      this.summary = s;
      this.connect();
      return s;
    }, (e) => {
      if (g === this.gen) this.failed = params.run + ': ' + e.message;
      throw e;
    });
  };

  Lane.prototype.stop = function () {
    this.gen++;
    this.view++;
    if (this.ws) { try { this.ws.close(); } catch (e) { /* closed */ } }
    this.ws = null;
  };

  Lane.prototype.connect = function () {
    const g = this.gen;
    const u = new URL('/ws/replay', location.href);
    u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    for (const k in this.params) u.searchParams.set(k, this.params[k]);
    if (this.lastSeq) u.searchParams.set('after', this.lastSeq);
    const s = new WebSocket(u.href);
    this.ws = s;
    s.onopen = () => { if (g === this.gen) this.retries = 0; };
    s.onmessage = (m) => {
      if (g !== this.gen) return;
      let ev;
      try { ev = JSON.parse(m.data); } catch (e) { return; }
      if (ev.ev === 'error') { this.failed = ev.message; this.received = true; this.notify(ev); return; }
      if (ev.seq <= this.lastSeq) return;
      this.lastSeq = ev.seq;
      this.events.push(ev);
      if (ev.ev === 'done') this.received = true;
      this.notify(ev);
    };
    s.onclose = (e) => {
      if (g !== this.gen || this.received) return;
      if (e.code === 1008) { this.failed = 'the server refused this replay'; this.notify(null); return; }
      this.retries++;
      const wait = Math.min(10000, 500 * 2 ** Math.min(this.retries, 5));
      this.notify(null);
      setTimeout(() => { if (g === this.gen && !this.received) this.connect(); }, wait);
    };
  };

  Lane.prototype.notify = function (ev) { if (this.opts.onEvent) this.opts.onEvent(this, ev); };
  Lane.prototype.changed = function () { if (this.opts.onChange) this.opts.onChange(this); };

  // finished: every event applied, the done event among them.
  Lane.prototype.finished = function () { return this.st.done; };
  // ready: the next event has arrived.
  Lane.prototype.ready = function () { return this.pos < this.events.length; };
  Lane.prototype.next = function () { return this.events[this.pos]; };

  Lane.prototype.docInfo = function (rank) {
    const d = this.summary && this.summary.docs[rank - 1];
    return d || { id: '', text: false };
  };
  Lane.prototype.measures = function () { return this.summary ? this.summary.measures : []; };

  // ---- applying events ----

  // applyNext applies the next event; fast skips the frame (it is redrawn
  // by redraw()). It resolves when the frame has been updated.
  Lane.prototype.applyNext = function (fast) {
    const ev = this.events[this.pos++];
    return this.apply(ev, fast);
  };

  Lane.prototype.apply = async function (ev, fast) {
    const st = this.st;
    switch (ev.ev) {
      case 'topic':
        st.topic = ev.topic; st.trel = ev.trel;
        break;
      case 'open': {
        st.rank = ev.rank; st.doc = ev.doc; st.open = ev;
        st.text = this.docInfo(ev.rank).text;
        st.reads = []; st.skips = []; st.at = -1; st.pos = 0; st.now = null; st.rels = [];
        st.art = { read: 0, rel: 0, nonrel: 0, screens: 0, effort: null };
        this.label();
        if (!fast) {
          const v = ++this.view;
          const [rels] = await Promise.all([this.fetchRelevant(ev.topic, ev.doc), this.showArticle()]);
          if (v !== this.view) return;
          st.rels = rels;
          this.markRelevant();
        }
        break;
      }
      case 'jump':
        if (ev.to > st.pos) {
          // what the arrow leaps over, unless already read
          for (const [a, b] of subtract(st.reads, st.pos, ev.to)) {
            st.skips.push([a, b]);
            if (!fast) this.mark(a, b, 'rs-skip');
          }
        }
        st.at = ev.to; st.pos = ev.to;
        if (!fast) {
          if (this.fdoc) {
            for (const old of this.fdoc.querySelectorAll('.rs-at')) old.classList.remove('rs-at');
            this.scrollTo(this.mark(ev.to, ev.to + 1, 'rs-at'), true);
          } else this.drawSchematic();
        }
        break;
      case 'read': {
        const n = ev.to - ev.from;
        st.reads.push([ev.from, ev.to]);
        st.now = [ev.from, ev.to];
        st.pos = ev.to; st.at = ev.to;
        st.art.read += n; st.art.rel += ev.rel; st.art.nonrel += ev.nonrel;
        st.tot.read += n; st.tot.rel += ev.rel;
        if (ev.rel > 0 && st.tot.firstRel == null) st.tot.firstRel = st.tot.read - n;
        const scr = ev.screen || 0;
        if (scr > st.art.screens) { st.tot.screens += scr - st.art.screens; st.art.screens = scr; }
        if (ev.rel > 0 && st.art.effort == null) st.art.effort = scr;
        if (!fast) this.markRead(ev.from, ev.to, this.opts.smooth ? this.opts.smooth() : true);
        break;
      }
      case 'stop':
        st.stopReason = ev.reason;
        break;
      case 'score':
        st.docScores[ev.rank - 1] = ev.scores || {};
        if (this.summary && this.summary.running[ev.rank - 1]) st.running = this.summary.running[ev.rank - 1];
        break;
      case 'done':
        st.final = ev.scores || {};
        st.done = true;
        this.root.setAttribute('data-state', 'done');
        break;
    }
    this.changed();
  };

  Lane.prototype.label = function () {
    if (!this.docLabel) return;
    const o = this.st.open;
    if (!o) { this.docLabel.textContent = ''; return; }
    let s = '#' + o.rank + ' · article ' + o.doc;
    if (o.judged === false) s += ' · not judged';
    else if (o.nrc) s += ' · ' + fmtInt(o.nrc) + ' relevant';
    else s += ' · not relevant';
    // (when no article of the run has text, the page says so once)
    const sum = this.summary;
    if (!this.st.text && !(sum && sum.noText === sum.docs.length)) s += ' · no text';
    this.docLabel.textContent = s;
  };

  Lane.prototype.fetchRelevant = function (topic, doc) {
    const u = '/api/relevant?topic=' + encodeURIComponent(topic) + '&doc=' + encodeURIComponent(doc);
    return fetch(u).then((r) => r.ok ? r.json() : []).then((a) =>
      a.map((p) => [p.offset, p.offset + p.length])).catch(() => []);
  };

  // ---- the frame: the article page, or the schematic ----

  Lane.prototype.showSchematic = function (on) {
    this.svg.hidden = !on;
    this.iframe.hidden = on;
    this.root.classList.toggle('no-text', on);
  };

  // showArticle loads the open article into the frame (with the run's
  // passages highlighted), or draws its schematic when there is no text.
  Lane.prototype.showArticle = function () {
    const ev = this.st.open;
    this.segs = []; this.fdoc = null;
    if (!this.st.text) {
      this.showSchematic(true);
      this.drawSchematic();
      return Promise.resolve();
    }
    this.showSchematic(false);
    const ps = ev.passages || [];
    const url = '/article/' + encodeURIComponent(ev.doc) + '?p=' + ps.map((p) => p[0] + ':' + (p[1] - p[0])).join(',');
    const frame = this.iframe;
    const v = this.view;
    return new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        if (v !== this.view) { resolve(); return; }
        try {
          const d = frame.contentDocument;
          const link = d.createElementNS(XHTML, 'link');
          link.setAttribute('rel', 'stylesheet');
          link.setAttribute('href', '/static/frame.css');
          (d.querySelector('head') || d.documentElement).appendChild(link);
          this.index(d);
        } catch (e) {
          this.segs = []; this.fdoc = null;
        }
        resolve();
      };
      frame.onload = finish;
      setTimeout(finish, 5000);
      frame.src = url;
    });
  };

  // index lists the article's text nodes with their first offsets.
  Lane.prototype.index = function (doc) {
    this.fdoc = null; this.segs = [];
    const root = doc.querySelector('.rs-doc');
    if (!root) return; // not an article page
    this.fdoc = doc;
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
      this.segs.push({ node: n, start: off, len: len });
      off += len;
    }
    // the frame is a picture: nothing in it takes focus
    for (const a of doc.querySelectorAll('a, summary, input, label')) a.setAttribute('tabindex', '-1');
    for (const d of doc.querySelectorAll('details')) d.open = true;
  };

  Lane.prototype.segAt = function (x) {
    const segs = this.segs;
    let lo = 0, hi = segs.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (segs[m].start + segs[m].len <= x) lo = m + 1; else hi = m;
    }
    return lo;
  };

  // mark wraps the characters [from,to) in spans of class cls and returns
  // the first span.
  Lane.prototype.mark = function (from, to, cls) {
    if (!this.fdoc || to <= from) return null;
    const segs = this.segs;
    let first = null;
    let i = this.segAt(from);
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
      if (b < s.len) after = node.splitText(cpIndex(node.data, b - a));
      const span = this.fdoc.createElementNS(XHTML, 'span');
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
  };

  Lane.prototype.markRelevant = function () {
    if (!this.fdoc) { this.drawSchematic(); return; }
    for (const [a, b] of this.st.rels) this.mark(a, b, 'rs-rel');
  };

  Lane.prototype.markRead = function (from, to, smooth) {
    if (!this.fdoc) { this.drawSchematic(); return; }
    for (const old of this.fdoc.querySelectorAll('.rs-now')) old.classList.remove('rs-now');
    const el = this.mark(from, to, 'rs-read rs-now');
    for (const [a, b] of clip(this.st.rels, from, to)) this.mark(a, b, 'rs-found');
    this.scrollTo(el, smooth);
  };

  // scrollTo scrolls the frame to el, 24 px below the top, moved up to the
  // top of the line standing at the frame's top edge: no line is cut in
  // half there, at any speed.
  Lane.prototype.scrollTo = function (el, smooth) {
    const win = this.iframe.contentWindow, doc = this.fdoc;
    if (!el || !win || !doc) return;
    const from = win.scrollY;
    let y = Math.max(0, el.getBoundingClientRect().top + from - 24);
    win.scrollTo({ top: y, behavior: 'auto' });
    const r = doc.caretRangeFromPoint ? doc.caretRangeFromPoint(24, 1) : null;
    if (r) {
      const b = r.getBoundingClientRect();
      if (b.height > 0 && b.top < 0 && b.bottom > 0) y = Math.max(0, win.scrollY + b.top - 2);
    }
    if (smooth) {
      win.scrollTo({ top: from, behavior: 'auto' }); // nothing painted between: no jump
      win.scrollTo({ top: y, behavior: 'smooth' });
    } else {
      win.scrollTo({ top: y, behavior: 'auto' });
    }
  };

  // redraw shows the open article afresh with every mark the applied events
  // made (after a fast-forward).
  Lane.prototype.redraw = async function () {
    const st = this.st;
    if (!st.open) return;
    this.label();
    const v = ++this.view;
    const [rels] = await Promise.all([this.fetchRelevant(st.open.topic, st.open.doc), this.showArticle()]);
    if (v !== this.view) return;
    st.rels = rels;
    if (!this.fdoc) { this.drawSchematic(); return; }
    this.markRelevant();
    for (const [a, b] of st.skips) this.mark(a, b, 'rs-skip');
    let last = null;
    for (const [a, b] of st.reads) {
      last = this.mark(a, b, 'rs-read');
      for (const [x, y] of clip(rels, a, b)) this.mark(x, y, 'rs-found');
    }
    if (st.now) last = this.mark(st.now[0], st.now[1], 'rs-now') || last;
    this.scrollTo(last, false);
  };

  // drawSchematic draws the open article without its text: its characters as
  // lines of a page, the retrieved passages, the relevant text, what was
  // skipped and read, and where the reader is.
  Lane.prototype.drawSchematic = function () {
    const svg = this.svg, st = this.st, ev = st.open;
    if (!ev || st.text) return;
    const W = Math.max(120, svg.clientWidth || this.root.clientWidth || 320);
    const H = Math.max(80, svg.clientHeight || 200);
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.textContent = '';
    const el = svgAppender(svg);
    const ps = ev.passages || [];
    let len = ev.len;
    const known = len > 0;
    for (const [, b] of ps) len = Math.max(len, b);
    for (const [, b] of st.reads) len = Math.max(len, b);
    for (const [, b] of st.rels) len = Math.max(len, b);
    const head = (known ? fmtInt(ev.len) + ' characters' : 'length unknown (not judged)') +
      ' · ' + ps.length + ' passage' + (ps.length === 1 ? '' : 's') +
      (st.rels.length ? ' · ' + st.rels.length + ' relevant span' + (st.rels.length === 1 ? '' : 's') : '');
    // the head on two lines when one is too short
    let top = 26;
    const h1 = el('text', { x: 8, y: 16, class: 'sc-head' }, head);
    const cut = head.indexOf(' · ');
    if (cut > 0 && h1.getComputedTextLength && h1.getComputedTextLength() > W - 16) {
      h1.textContent = head.slice(0, cut);
      el('text', { x: 8, y: 31, class: 'sc-head' }, head.slice(cut + 3));
      top += 15;
    }
    if (len <= 0) return;
    const pad = 8, rowH = 9, bar = 5;
    const rows = Math.max(1, Math.floor((H - top - pad) / rowH));
    const per = Math.max(40, Math.ceil(len / rows)); // characters a line
    const width = W - 2 * pad;
    const x = (c) => pad + width * c / per;
    const band = (a, b, cls, dy, h) => {
      for (let r = Math.floor(a / per); r * per < b; r++) {
        const s = Math.max(a, r * per) - r * per, e = Math.min(b, (r + 1) * per) - r * per;
        if (e <= s) continue;
        el('rect', { x: x(s).toFixed(1), y: top + r * rowH + dy, width: Math.max(1, x(e) - x(s)).toFixed(1), height: h, class: cls });
      }
    };
    for (const [a, b] of ps) band(a, b, 'sc-pass', -2, bar + 4);
    band(0, len, 'sc-text', 0, bar);
    for (const [a, b] of st.rels) band(a, b, 'sc-rel', 0, bar);
    for (const [a, b] of st.skips) band(a, b, 'sc-skip', 0, bar);
    for (const [a, b] of st.reads) {
      band(a, b, 'sc-read', 0, bar);
      for (const [c, d] of clip(st.rels, a, b)) band(c, d, 'sc-found', 0, bar);
    }
    if (st.at >= 0) {
      const r = Math.min(Math.floor(Math.max(0, st.at - 1) / per), rows - 1);
      const cx = x(st.at - r * per);
      el('path', { d: 'M' + cx.toFixed(1) + ' ' + (top + r * rowH + bar + 1) + 'l-4 6h8z', class: 'sc-at' });
    }
  };

  // ---- the page around the lanes (the simulation view, the race) ----

  // Playback: a replay started, playing, busy applying an event, the next
  // tick's timer; gen grows at each start, dropping an earlier start's work.
  function Playback(tick) {
    this.tick = tick;
    this.started = this.playing = this.busy = false;
    this.timer = this.gen = 0;
  }
  Playback.prototype.restart = function () {
    this.gen++;
    this.halt();
    this.busy = false;
    this.started = this.playing = true;
  };
  Playback.prototype.halt = function () { clearTimeout(this.timer); this.timer = 0; };
  Playback.prototype.kick = function () {
    if (this.playing && !this.busy && !this.timer) this.timer = setTimeout(this.tick, 0);
  };
  // label names the #play button: Start, Pause, Restart (over) or Resume.
  Playback.prototype.label = function (over) {
    const b = document.getElementById('play');
    const st = !this.started ? 'start' : this.playing ? 'pause' : over ? 'restart' : 'resume';
    b.textContent = st[0].toUpperCase() + st.slice(1);
    b.setAttribute('data-state', st);
  };

  function speed() { const v = document.getElementById('speed').value; return v === 'max' ? Infinity : (+v || 1); }
  function setText(id, v) { const e = document.getElementById(id); if (e) e.textContent = v; }

  // offerTopics hides the #topic options ok refuses, moving off a hidden one.
  function offerTopics(ok) {
    const sel = document.getElementById('topic');
    let first = null;
    for (const o of sel.options) {
      o.hidden = o.disabled = !ok(o.value);
      if (!o.disabled && !first) first = o;
    }
    const cur = sel.selectedOptions[0];
    if ((!cur || cur.disabled) && first) sel.value = first.value;
  }

  window.readsim = {
    Lane: Lane, fmt: fmt, fmtInt: fmtInt, betterOf: betterOf, breakable: breakable, svgAppender: svgAppender,
    Playback: Playback, speed: speed, setText: setText, offerTopics: offerTopics,
  };
})();
