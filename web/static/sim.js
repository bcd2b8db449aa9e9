// readsim simulation view: one simulated reader working through a topic's
// results in a phone frame (lane.js), with its counters, its current scores
// and curves by rank. No library; no inline code (the CSP forbids it).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const R = window.readsim;

  // Base delay of each kind of event at 1×, in milliseconds.
  const DELAY = { topic: 200, open: 700, jump: 400, read: 450, stop: 400, score: 600, done: 0 };

  let lane = null;
  const pb = new R.Playback(() => tick());

  const speed = R.speed, setText = R.setText;

  // ---- controls ----

  function buttons() {
    const over = lane.finished();
    pb.label(over);
    $('step').disabled = !pb.started || over || pb.busy;
    $('jump').disabled = !pb.started;
  }

  function status(msg) { setText('status', msg); }

  // ---- counters and scores ----

  function counters() {
    const st = lane.st;
    const t2i = lane.params ? +lane.params.t2i : 300;
    setText('c-rank', st.rank ? st.rank + ' of ' + (lane.summary ? lane.summary.docs.length : '?') : '–');
    setText('c-read', R.fmtInt(st.art.read));
    setText('c-rel', R.fmtInt(st.art.rel));
    setText('c-nonrel', R.fmtInt(st.art.nonrel) + (t2i > 0 ? ' of ' + R.fmtInt(t2i) : ''));
    setText('c-screens', R.fmtInt(st.art.screens));
    const eff = st.docScores[st.rank - 1] ? effortOf(st.docScores[st.rank - 1]) : st.art.effort;
    setText('c-effort', eff == null ? '–' : R.fmt(eff));
  }

  // effortOf is the article's effort: its lower-is-better document score.
  function effortOf(scores) {
    const m = (lane.summary ? lane.summary.docScores : []).find((d) => d.better === 'lower');
    return m && scores[m.name] != null ? scores[m.name] : null;
  }

  function cell(tr, run, name, v, tag) {
    const td = document.createElement(tag || 'td');
    td.textContent = R.fmt(v);
    td.setAttribute('data-run', run);
    td.setAttribute('data-measure', name);
    td.setAttribute('data-value', v == null ? '' : String(v));
    tr.appendChild(td);
    return td;
  }

  function arrow(dir) { return dir === 'higher' ? '↑' : dir === 'lower' ? '↓' : ''; }

  // scoreTable fills a table with one row per measure: name, direction, value.
  function scoreTable(id, list, values) {
    const tb = $(id).tBodies[0];
    tb.textContent = '';
    for (let i = 0; i < list.length; i++) {
      const m = list[i];
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = R.breakable(m.name);
      const dir = document.createElement('span');
      dir.className = 'dir';
      dir.textContent = arrow(m.better);
      dir.title = m.better + ' is better';
      th.appendChild(dir);
      tr.appendChild(th);
      cell(tr, lane.params.run, m.name, values ? values(m, i) : null);
      tb.appendChild(tr);
    }
  }

  function scores() {
    const s = lane.summary, st = lane.st;
    if (!s) return;
    if (st.done) {
      setText('scores-when', 'final, as readsim eval -q');
      scoreTable('scores', s.measures, (m) => st.final[m.name]);
    } else {
      setText('scores-when', st.running ? 'so far' : 'when an article is scored');
      scoreTable('scores', s.measures, st.running ? (m, i) => st.running[i] : null);
    }
    const ds = st.docScores[st.rank - 1];
    setText('ds-when', st.rank ? '#' + st.rank + ' ' + st.doc + (ds ? '' : ' (when the reader stops)') : '');
    scoreTable('docscores', s.docScores, ds ? (m) => ds[m.name] : null);
  }

  // ---- curves ----

  function fillSelects() {
    const ds = lane.summary.docScores;
    for (const [id, dir] of [['gpm', 'higher'], ['ncem', 'lower']]) {
      const sel = $(id);
      const was = sel.value;
      sel.textContent = '';
      for (const d of ds) if (d.better === dir) sel.add(new Option(d.name, d.name));
      if (was && [...sel.options].some((o) => o.value === was)) sel.value = was;
      sel.disabled = sel.options.length === 0;
    }
  }

  function chart(svg, vals, opts) {
    svg.textContent = '';
    const W = Math.max(240, Math.round(svg.clientWidth || 320));
    const H = 150, L = 44, Rm = 10, T = 10, B = 34;
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    const el = R.svgAppender(svg);
    const n = vals.length;
    const maxR = Math.max(n, opts.ranks || 1, 2);
    let lo = opts.lo, hi = opts.hi;
    for (const v of vals) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    // ticks at values that occur: one when every value is the same
    let ticks = [lo, (lo + hi) / 2, hi];
    if (hi === lo) { ticks = [lo]; lo -= 1; hi += 1; }
    const x = (r) => L + (W - L - Rm) * (r - 1) / (maxR - 1);
    const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
    // axes, ticks and labels
    el('line', { x1: L, y1: H - B, x2: W - Rm, y2: H - B, class: 'axis' });
    el('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' });
    for (const v of ticks) {
      el('line', { x1: L - 3, y1: y(v), x2: W - Rm, y2: y(v), class: 'grid' });
      el('text', { x: L - 6, y: y(v) + 4, class: 'lbl', 'text-anchor': 'end' }, +v.toFixed(2) + '');
    }
    for (const r of [1, Math.round((1 + maxR) / 2), maxR]) {
      el('text', { x: x(r), y: H - B + 15, class: 'lbl', 'text-anchor': 'middle' }, String(r));
    }
    el('text', { x: L + (W - L - Rm) / 2, y: H - 4, class: 'lbl', 'text-anchor': 'middle' }, 'rank');
    if (n) {
      el('path', { d: vals.map((v, i) => (i ? 'L' : 'M') + x(i + 1).toFixed(1) + ' ' + y(v).toFixed(1)).join(' '), class: 'line ' + opts.cls });
      el('circle', { cx: x(n), cy: y(vals[n - 1]), r: 3.5, class: 'dot ' + opts.cls });
    }
    svg.setAttribute('data-last', n ? String(vals[n - 1]) : '');
  }

  function curves() {
    const s = lane.summary, st = lane.st;
    const n = st.docScores.length;
    const gm = $('gpm').value, nm = $('ncem').value;
    const nr = s ? s.nr : 5;
    const gp = [], nce = [];
    let sum = 0, cum = 0;
    for (let r = 1; r <= n; r++) {
      const d = st.docScores[r - 1] || {};
      sum += +(d[gm] || 0);
      gp.push(sum / r);
      const es = d[nm] != null ? +d[nm] : nr;
      const ie = r <= st.trel ? 1 : nr;
      cum += (es - ie) / ie;
      nce.push(cum);
    }
    const ranks = s ? s.docs.length : 10;
    chart($('gp-chart'), gp, { lo: 0, hi: 1, cls: 'gp', ranks: ranks });
    chart($('nce-chart'), nce, { lo: 0, hi: 0, cls: 'nce', ranks: ranks });
  }

  function refresh() {
    counters();
    scores();
    buttons();
  }

  // ---- playing ----

  function delay(ev) {
    let d = DELAY[ev.ev] || 0;
    if (ev.ev === 'read') d *= Math.max(0.3, (ev.to - ev.from) / 300);
    return d / speed();
  }

  async function tick() {
    pb.timer = 0;
    if (!pb.playing || pb.busy) return;
    if (!lane.ready()) {
      if (lane.finished()) { pb.playing = false; done(); }
      buttons();
      return; // wait for more events (onEvent calls kick)
    }
    const g = pb.gen;
    if (speed() === Infinity) { await toEnd(); return; }
    const ev = lane.next();
    pb.busy = true;
    await lane.applyNext(false);
    pb.busy = false;
    if (g !== pb.gen) return;
    if (ev.ev === 'score' || ev.ev === 'done') curves();
    if (lane.finished()) { pb.playing = false; done(); }
    buttons();
    if (pb.playing) pb.timer = setTimeout(tick, delay(ev));
  }

  // toEnd applies every event that has arrived at once, then redraws.
  async function toEnd() {
    const g = pb.gen;
    pb.busy = true;
    while (lane.ready()) await lane.applyNext(true);
    if (lane.finished() || lane.received) await lane.redraw(); // else more events kick
    pb.busy = false;
    if (g !== pb.gen) return;
    if (lane.ready()) { pb.kick(); return; } // more arrived meanwhile
    curves();
    if (lane.finished()) { pb.playing = false; done(); }
    buttons();
  }

  function done() {
    refresh();
  }

  async function step() {
    if (pb.busy || !lane.ready()) return;
    pb.playing = false;
    pb.halt();
    pb.busy = true;
    const ev = lane.next();
    await lane.applyNext(false);
    pb.busy = false;
    if (ev.ev === 'score' || ev.ev === 'done') curves();
    buttons();
  }

  // jumpTo replays everything before rank r at once and stops at its open.
  async function jumpTo(r) {
    const g = pb.gen;
    status('');
    pb.halt();
    const wasPlaying = pb.playing;
    pb.playing = false;
    while (pb.busy) await new Promise((res) => setTimeout(res, 20));
    const evs = lane.events;
    lane.clear();
    lane.events = evs;
    lane.lastSeq = evs.length ? evs[evs.length - 1].seq : 0;
    lane.received = evs.some((e) => e.ev === 'done');
    pb.busy = true;
    while (lane.ready() && !(lane.next().ev === 'open' && lane.next().rank >= r)) await lane.applyNext(true);
    if (lane.ready()) await lane.applyNext(false);
    else if (!lane.received) status('Rank ' + r + ' has not arrived yet.');
    pb.busy = false;
    if (g !== pb.gen) return;
    curves();
    pb.playing = wasPlaying;
    refresh();
    pb.kick();
  }

  function params() {
    return {
      topic: $('topic').value, run: $('run').value, order: $('order').value,
      t2i: String(Math.max(0, parseInt($('t2i').value, 10) || 0)), screen: $('screen').value,
    };
  }

  function start() {
    pb.restart();
    const p = params();
    $('setup').open = false;
    const tsel = $('topic').selectedOptions[0];
    setText('setup-sum', p.run);
    setText('reader', (tsel ? tsel.textContent : p.topic) + ' · ' + p.order + ' order · T2I ' + (+p.t2i > 0 ? p.t2i : 'none') + ' · screen ' + p.screen);
    status('');
    refresh();
    curves();
    history.replaceState(null, '', '/simulate?' + new URLSearchParams(p) + ($('speed').value !== '1' ? '&speed=' + $('speed').value : ''));
    const g = pb.gen;
    lane.start(p).then(() => {
      if (g !== pb.gen) return;
      fillSelects();
      status(lane.summary.noText ? 'No text here for ' + lane.summary.noText + ' of ' + lane.summary.docs.length +
        ' articles: schematics.' : '');
      refresh();
      curves();
      pb.kick();
    }, (e) => { if (g === pb.gen) { pb.playing = false; status('Error: ' + e.message); buttons(); } });
  }

  function filterTopics() {
    const opt = $('run').selectedOptions[0];
    if (!opt) return;
    const ok = new Set((opt.getAttribute('data-topics') || '').split(' '));
    R.offerTopics((t) => ok.has(t));
  }

  function init() {
    lane = new R.Lane($('lane'), {
      onEvent: (l, ev) => {
        if (l.failed) { status('Error: ' + l.failed); pb.playing = false; buttons(); return; }
        if (!ev) { status('Connection lost; reconnecting…'); return; }
        if (/^Connection/.test($('status').textContent)) status('');
        pb.kick();
      },
      onChange: () => { counters(); scores(); },
      smooth: () => speed() <= 2,
    });
    const q = new URLSearchParams(location.search);
    for (const k of ['run', 'topic', 'order', 't2i', 'screen', 'speed']) {
      if (q.has(k) && $(k)) $(k).value = q.get(k);
    }
    filterTopics();
    $('run').addEventListener('change', filterTopics);
    $('cfg').addEventListener('submit', (e) => { e.preventDefault(); start(); });
    $('play').addEventListener('click', () => {
      if (!pb.started) { start(); return; }
      if (!pb.playing && lane.finished()) { jumpTo(1).then(() => { pb.playing = true; refresh(); pb.kick(); }); return; }
      pb.playing = !pb.playing;
      if (!pb.playing) { pb.halt(); }
      buttons();
      pb.kick();
    });
    $('step').addEventListener('click', step);
    $('jump').addEventListener('click', () => jumpTo(Math.max(1, parseInt($('rank').value, 10) || 1)));
    $('speed').addEventListener('change', () => { if (speed() === Infinity) pb.kick(); });
    window.addEventListener('resize', () => { curves(); lane.drawSchematic(); });
    $('gpm').addEventListener('change', curves);
    $('ncem').addEventListener('change', curves);
    buttons();
    curves();
    if ($('run').value && $('topic').value) start();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
