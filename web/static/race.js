// readsim race: two simulated readers on the same topic, one frame each
// (lane.js), synchronised by reading effort: the reader who has read fewer
// characters goes next, so one sees who reaches relevant text first. A
// scoreboard compares their running totals and the topic's measures.
// No library; no inline code (the CSP forbids it).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const R = window.readsim;

  // Pace at 1×: characters read per second of the clock (the reader behind),
  // and the pause for the other events, in milliseconds.
  const CHARS_PER_SECOND = 900;
  const PAUSE = { topic: 100, open: 450, jump: 150, read: 0, stop: 150, score: 200, done: 0 };

  let lanes = [];
  const pb = new R.Playback(() => tick());

  const speed = R.speed, setText = R.setText;
  function status(msg) { setText('status', msg); }
  // problem says what went wrong at the top, where a phone shows it.
  function problem(msg) { const n = $('notice'); n.textContent = msg; n.hidden = false; status(msg); }
  function over() { return lanes.length > 0 && lanes.every((l) => l.finished()); }

  function buttons() { pb.label(over()); }

  // ---- the scoreboard ----

  function td(tr, cls, text) {
    const c = document.createElement('td');
    if (cls) c.className = cls;
    c.textContent = text;
    tr.appendChild(c);
    return c;
  }

  // row adds one line of the board: label, the two runs' values, and the
  // difference A − B coloured by the run it favours.
  function row(tb, label, dir, key, values, attr) {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = R.breakable(label);
    if (dir === 'higher' || dir === 'lower') {
      const s = document.createElement('span');
      s.className = 'dir';
      s.textContent = dir === 'higher' ? '↑' : '↓';
      s.title = dir + ' is better';
      th.appendChild(s);
    }
    tr.appendChild(th);
    for (let i = 0; i < 2; i++) {
      const v = values[i];
      const c = td(tr, 'v lane-' + 'ab'[i], attr === 'total' ? (v == null ? '–' : R.fmtInt(v)) : R.fmt(v));
      c.setAttribute('data-run', lanes[i].params.run);
      c.setAttribute(attr === 'total' ? 'data-total' : 'data-measure', key);
      c.setAttribute('data-value', v == null ? '' : String(v));
      const b = R.betterOf(dir, values[0], values[1]);
      if ((b === 1 && i === 0) || (b === -1 && i === 1)) c.classList.add('lead');
    }
    const [a, b] = values;
    const d = a == null || b == null ? null : a - b;
    const c = td(tr, 'v diff', d == null ? '–' : (d > 0 ? '+' : d < 0 ? '−' : '±') + (attr === 'total' ? R.fmtInt(Math.abs(d)) : R.fmt(Math.abs(d), 3)));
    c.setAttribute('data-diff', key);
    c.setAttribute('data-value', d == null ? '' : String(d));
    const w = R.betterOf(dir, a, b);
    if (w) c.classList.add(w > 0 ? 'fav-a' : 'fav-b');
    tb.appendChild(tr);
    return w;
  }

  function board() {
    const tb = $('board').tBodies[0];
    tb.textContent = '';
    const [A, B] = lanes;
    if (!A.summary || !B.summary) return;
    setText('head-a', A.params.run);
    setText('head-b', B.params.run);
    const tot = (k) => [A.st.tot[k], B.st.tot[k]];
    row(tb, 'characters read', 'lower', 'read', tot('read'), 'total');
    row(tb, 'relevant read', 'higher', 'relevant', tot('rel'), 'total');
    row(tb, 'screens', 'lower', 'screens', tot('screens'), 'total');
    const final = over();
    let wa = 0, wb = 0, n = 0;
    A.summary.measures.forEach((m, i) => {
      const val = (l) => l.st.done ? l.st.final[m.name] : l.st.running ? l.st.running[i] : null;
      const w = row(tb, m.name, m.better, m.name, [val(A), val(B)], 'measure');
      if (m.better === 'higher' || m.better === 'lower') n++;
      if (w > 0) wa++; else if (w < 0) wb++;
    });
    const cap = $('board-when');
    cap.textContent = !final ? 'Scores so far' : wa > wb ? 'A won, ' + wa + ' of ' + n : wb > wa ? 'B won, ' + wb + ' of ' + n : 'A draw';
    $('board').setAttribute('data-final', final ? 'true' : 'false');
    const v = $('verdict');
    if (!final) { v.textContent = ''; v.removeAttribute('data-winner'); return; }
    const ra = A.params.run, rb = B.params.run;
    let text, winner;
    if (wa > wb) { winner = ra; text = ra + ' won: better on ' + wa + ' of ' + n + ' measures (' + rb + ' on ' + wb + ').'; }
    else if (wb > wa) { winner = rb; text = rb + ' won: better on ' + wb + ' of ' + n + ' measures (' + ra + ' on ' + wa + ').'; }
    else { winner = 'draw'; text = 'A draw: each run is better on ' + wa + ' of ' + n + ' measures.'; }
    const da = A.st.tot.read - B.st.tot.read;
    if (da) text += ' ' + (da < 0 ? ra : rb) + ' read ' + R.fmtInt(Math.abs(da)) + ' fewer characters.';
    v.textContent = text;
    v.setAttribute('data-winner', winner);
    v.className = 'verdict ' + (winner === ra ? 'win-a' : winner === rb ? 'win-b' : '');
  }

  // ---- playing: the reader behind goes next ----

  // pick returns the lane to advance: of those not finished, the one that
  // has read fewer characters (A on a tie); null when it must wait for its
  // next event or everything is over.
  function pick() {
    const live = lanes.filter((l) => !l.finished());
    if (!live.length) return null;
    live.sort((x, y) => x.st.tot.read - y.st.tot.read);
    const l = live[0];
    return l.ready() ? l : null;
  }

  function clock() {
    return Math.min(...lanes.map((l) => l.finished() ? Infinity : l.st.tot.read));
  }

  async function tick() {
    pb.timer = 0;
    if (!pb.playing || pb.busy) return;
    const g = pb.gen;
    if (speed() === Infinity) { await toEnd(); return; }
    const l = pick();
    if (!l) {
      if (over()) finish();
      buttons();
      return; // wait for events (onEvent kicks)
    }
    const before = clock();
    const ev = l.next();
    pb.busy = true;
    await l.applyNext(false);
    pb.busy = false;
    if (g !== pb.gen) return;
    board();
    if (over()) { finish(); return; }
    let after = clock();
    if (!isFinite(after)) after = before;
    const d = (Math.max(0, after - before) / CHARS_PER_SECOND * 1000 + (PAUSE[ev.ev] || 0)) / speed();
    buttons();
    if (pb.playing) pb.timer = setTimeout(tick, d);
  }

  // toEnd applies every event that has arrived, in race order, at once.
  async function toEnd() {
    const g = pb.gen;
    pb.busy = true;
    for (let l = pick(); l; l = pick()) await l.applyNext(true);
    // the frames are drawn once every event has arrived (more events kick)
    const waiting = lanes.some((l) => !l.finished() && !l.received);
    if (!waiting) await Promise.all(lanes.map((l) => l.redraw()));
    pb.busy = false;
    if (g !== pb.gen) return;
    if (lanes.some((l) => l.ready())) { pb.kick(); return; } // more arrived meanwhile
    board();
    if (over()) finish();
    buttons();
  }

  function finish() {
    pb.playing = false;
    board();
    status('Finished: Restart races again; ⚙ sets up another race.');
    buttons();
  }

  // ---- set-up ----

  // fitTitle: the topic's title in the bar when it fits in three lines,
  // else whole on a line under the bar (the bar keeps the id).
  let topicTitle = null;
  function fitTitle() {
    if (!topicTitle) return;
    const [id, title] = topicTitle;
    const sum = $('setup-sum'), line = $('topic-line');
    sum.textContent = title || id;
    const long = title && sum.offsetHeight > 46;
    if (long) sum.textContent = id;
    line.textContent = long ? id + ' ' + title : '';
    line.hidden = !long;
  }

  function params() {
    const a = $('a').value;
    const b = $('b').value || a + '~doc';
    const reader = { order: $('order').value, t2i: String(Math.max(0, parseInt($('t2i').value, 10) || 0)), screen: $('screen').value };
    return [Object.assign({ topic: $('topic').value, run: a }, reader), Object.assign({ topic: $('topic').value, run: b }, reader)];
  }

  function shareURL() {
    const q = new URLSearchParams({ topic: $('topic').value, a: $('a').value });
    if ($('b').value) q.set('b', $('b').value);
    if ($('order').value !== 'natural') q.set('order', $('order').value);
    if ($('t2i').value !== '300') q.set('t2i', $('t2i').value);
    if ($('screen').value !== '300') q.set('screen', $('screen').value);
    if ($('speed').value !== '1') q.set('speed', $('speed').value);
    return '/race?' + q;
  }

  function start() {
    pb.restart();
    const ps = params();
    $('setup').open = false;
    const tsel = $('topic').selectedOptions[0];
    topicTitle = tsel ? [tsel.value, tsel.textContent.replace(/^\S+\s*/, '')] : [ps[0].topic, ''];
    fitTitle();
    setText('reader', ps[0].order + ' order · T2I ' + (+ps[0].t2i > 0 ? ps[0].t2i : 'none') + ' · screen ' + ps[0].screen + ' characters');
    $('notice').hidden = true;
    status('Connecting…');
    history.replaceState(null, '', shareURL());
    buttons();
    const g = pb.gen;
    Promise.all(lanes.map((l, i) => l.start(ps[i]))).then((sums) => {
      if (g !== pb.gen) return;
      const missing = sums.filter((s) => s.noText > 0).map((s) => s.noText + ' of ' + s.docs.length + ' articles of ' + s.run);
      if (missing.length) {
        const n = $('notice');
        n.textContent = 'No text here for ' + missing.join(' and ') + ': drawn as schematics.';
        n.hidden = false;
      }
      board();
      status('Racing by characters read: the reader behind goes next.');
      pb.kick();
    }, (e) => { if (g === pb.gen) { pb.playing = false; problem('Error: ' + e.message); buttons(); } });
  }

  function filterTopics() {
    const runs = [$('a').selectedOptions[0], $('b').selectedOptions[0]].filter((o) => o && o.value);
    const sets = runs.map((o) => new Set((o.getAttribute('data-topics') || '').split(' ')));
    R.offerTopics((t) => sets.every((s) => s.has(t)));
  }

  function init() {
    const opts = {
      onEvent: (l, ev) => {
        if (l.failed) { problem('Error: ' + l.failed); pb.playing = false; buttons(); return; }
        if (!ev) { status('Connection lost; reconnecting…'); return; }
        pb.kick();
      },
      onChange: () => {},
      smooth: () => speed() <= 2,
    };
    lanes = [new R.Lane($('lane-a'), opts), new R.Lane($('lane-b'), opts)];
    const q = new URLSearchParams(location.search);
    for (const k of ['a', 'b', 'topic', 'order', 't2i', 'screen', 'speed']) {
      if (q.has(k) && $(k)) $(k).value = q.get(k);
    }
    filterTopics();
    $('a').addEventListener('change', filterTopics);
    $('b').addEventListener('change', filterTopics);
    $('cfg').addEventListener('submit', (e) => { e.preventDefault(); start(); });
    $('play').addEventListener('click', () => {
      if (!pb.started || over()) { start(); return; }
      pb.playing = !pb.playing;
      if (!pb.playing) { pb.halt(); status('Paused.'); } else status('Racing…');
      buttons();
      pb.kick();
    });
    $('speed').addEventListener('change', () => { history.replaceState(null, '', shareURL()); if (speed() === Infinity) pb.kick(); });
    window.addEventListener('resize', () => { fitTitle(); for (const l of lanes) l.drawSchematic(); });
    buttons();
    const bad = ['a', 'b', 'topic'].filter((k) => q.has(k) && q.get(k) !== '' && $(k).value !== q.get(k));
    if (bad.length) problem('Unknown ' + bad.map((k) => (k === 'topic' ? 'topic ' : 'run ') + q.get(k)).join(', ') + ': choose in ⚙, then Start.');
    else if (q.has('a')) start();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
