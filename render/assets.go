package render

import (
	"crypto/sha256"
	"encoding/base64"
)

// CSS is the stylesheet of the page. A web server serves it (as text/css) at
// the URL it gives in Options.StylesheetURL; with no such URL, Page embeds it
// in a <style> element. It contains no '<', '>' or '&', so it reads the same
// embedded in XHTML or HTML.
//
// The design: one column of 17px type, at most 38em wide, 16px side margins
// (about 40 characters a line on a 360-px screen); words and URLs break
// anywhere rather than overflow; tables scroll sideways inside their own box;
// the header metadata is small and grey, folded under "About this article";
// the categories come last, as small chips (CSS order, on pages whose
// article root holds only blocks: the class rs-flex); images are their
// captions in a bordered box labelled "Image"; math is monospace and wraps;
// footnote marks are small raised [n] that open their note in a drawer at
// the bottom (a popover); Korean wraps between words (keep-all); a wide
// table shows shadows at the edges it scrolls to; list entries are
// indented by level; navigation boxes are hidden; arrows, the
// highlight switch and the "About" summary are at least 48 CSS px tall; the
// highlight is a soft yellow that follows the switch (a checkbox, no script);
// the anchor of a passage that opens the first block of a section (right
// after its heading) stands at the top of the section, so that ↓ brings the
// heading into view above the passage, however many lines it takes (the
// anchor is empty: moving it changes no text); when that section itself
// opens its parent section (a subsection right after the parent's heading),
// the anchor stands at the top of the parent, so that ↓ shows both headings
// ("History", then "Ancient lights", then the passage), and so on up. Only
// sections that open no parent are positioned (position:relative), so the
// anchor's containing block is the outermost section it opens. The selectors
// say "child" as "descendant, and not the descendant of a descendant" of a
// block (not a section) after a heading: the CSS holds no '>'.
//
// A passage in the middle of a section is brought to the top of the screen
// with no heading above it: no sticky section headings, which on a 360-px
// phone would take a line or two of every screen, and would hide the text
// the simulation frame scrolls to the top of the screen (Script's
// readsimScrollTo).
const CSS = `html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;padding:0 16px 64px;font:17px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif;color:#1d1d1f;background:#fff;overflow-wrap:anywhere;word-wrap:break-word}
.rs-top,.rs-doc{max-width:38em;margin:0 auto}
.rs-top{display:flex;align-items:center;gap:4px;padding:4px 0;margin-left:-12px}
.rs-arrow{display:inline-flex;align-items:center;justify-content:center;box-sizing:border-box;min-width:48px;min-height:48px;padding:0 4px;font-size:24px;line-height:1;font-weight:bold;color:#0b57d0;text-decoration:none;border-radius:12px;vertical-align:middle}
.rs-arrow:hover,.rs-arrow:focus-visible{background:#e8f0fe}
.rs-arrow:focus-visible,#rs-hl:focus-visible ~ .rs-top .rs-switch{outline:3px solid #0b57d0;outline-offset:1px}
.rs-nav{display:inline-flex;gap:4px;margin:0 2px;vertical-align:middle;line-height:1}
.rs-nav .rs-arrow{background:#e8f0fe}
#rs-hl{position:absolute;top:0;left:0;width:1px;height:1px;margin:0;opacity:0}
.rs-switch{display:inline-flex;align-items:center;box-sizing:border-box;min-height:48px;min-width:48px;margin-left:auto;padding:0 14px;border:1px solid #c4c7c5;border-radius:24px;font-size:15px;color:#444;cursor:pointer;-webkit-user-select:none;user-select:none;-webkit-tap-highlight-color:transparent}
.rs-switch::before{content:"\25CB\00A0";font-size:18px}
#rs-hl:checked ~ .rs-top .rs-switch{background:#fff3a8;border-color:#d9b800;color:#1d1d1f}
#rs-hl:checked ~ .rs-top .rs-switch::before{content:"\25CF\00A0"}
.rs-pass{scroll-margin-top:4px}
section:not(section :is(h2,h3,h4,h5,h6,.rs-h):first-child+section):has(:is(h2,h3,h4,h5,h6,.rs-h):first-child+:not(section) .rs-pass:first-child){position:relative}
:is(h2,h3,h4,h5,h6,.rs-h):first-child+:not(section) .rs-pass:first-child:not(:is(h2,h3,h4,h5,h6,.rs-h):first-child+:not(section) * .rs-pass){position:absolute;top:0}
.rs-doc mark{background:none;color:inherit}
#rs-hl:checked ~ .rs-doc mark{background:#fff3a8;box-shadow:0 0 0 1px #fff3a8}
.rs-head{margin:0 0 1.2em}
.rs-doc h1{margin:.4em 0 .3em;font-size:28px;line-height:1.2;color:#1d1d1f}
.rs-flex{display:flex;flex-direction:column}
.rs-flex .rs-head{display:contents}
.rs-flex .rs-cats{order:1}
.rs-about{margin:0 0 1em;font-size:13px;line-height:1.45;color:#5f6368}
.rs-about summary{box-sizing:border-box;min-height:48px;padding:14px 0;cursor:pointer;color:#444}
.rs-field{margin:0 0 .2em}
.rs-label{display:inline-block;min-width:7.5em;margin-right:.5em;font-weight:600;color:#444}
.rs-sub{white-space:nowrap}
.rs-sub .rs-label{min-width:0;margin:0 .3em 0 .6em;font-weight:normal}
.rs-cats{margin:2em 0 0;padding-top:.5em;border-top:1px solid #dadce0;font-size:14px;line-height:1.4;color:#444}
.rs-cats h2{margin:.2em 0 .5em;font-size:15px}
.rs-cats ul{display:flex;flex-wrap:wrap;gap:6px;margin:0;padding:0;list-style:none}
.rs-cats li{margin:0}
.rs-cat{display:inline-block;padding:2px 8px;border-radius:4px;background:#f1f3f4}
.rs-colon{display:none}
h2,h3,h4,h5,h6{line-height:1.25;margin:1.2em 0 .4em}
h2{font-size:23px}
h3{font-size:20px}
h4,h5,h6{font-size:17px}
p,.rs-p{margin:.9em 0}
:is(h2,h3,h4,h5,h6,.rs-h)+:is(p,.rs-p){margin-top:0}
ul,ol{margin:0 0 .9em;padding-left:1.4em}
li{margin:.2em 0}
.rs-doc li.rs-l2{margin-left:1.3em;list-style-type:circle}
.rs-doc li.rs-l3{margin-left:2.6em;list-style-type:square}
.rs-doc li.rs-l4{margin-left:3.9em;list-style-type:square}
.rs-doc li.rs-l5{margin-left:5.2em;list-style-type:square}
.rs-doc li.rs-l6{margin-left:6.5em;list-style-type:square}
.rs-doc li.rs-num{list-style-type:decimal}
.rs-doc li:is(.rs-l2,.rs-l3,.rs-l4,.rs-l5,.rs-l6){counter-increment:list-item 0}
.rs-table{max-width:100%;overflow-x:auto;margin:0 0 .9em;-webkit-overflow-scrolling:touch;background:linear-gradient(to right,#fff 40%,rgba(255,255,255,0)) left center/32px 100% no-repeat local,linear-gradient(to left,#fff 40%,rgba(255,255,255,0)) right center/32px 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.28),rgba(0,0,0,0)) left center/16px 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.28),rgba(0,0,0,0)) right center/16px 100% no-repeat scroll #fff}
.rs-table table{border-collapse:collapse;font-size:15px;line-height:1.4}
.rs-table td,.rs-table th{min-width:4em;padding:4px 8px;border:1px solid #dadce0;vertical-align:top;text-align:left;overflow-wrap:break-word}
.rs-table th{background:rgba(60,64,67,.05)}
.rs-table caption{padding:4px 0;font-weight:600;text-align:left}
.rs-img{margin:0 0 .9em;padding:6px 10px;border-left:3px solid #dadce0;background:#f8f9fa;font-size:14px;line-height:1.4;color:#444}
.rs-img .rs-label{display:block;min-width:0;font-size:12px;color:#5f6368}
.rs-img figcaption{display:block}
.rs-indent{margin:0 0 .9em 1.2em}
.rs-math{font-family:ui-monospace,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;background:#f8f9fa;padding:0 2px;border-radius:3px}
.rs-refs{font-size:14px;line-height:1.45;padding-left:2em}
.rs-fn:target{background:#e8f0fe}
.rs-ref{font-size:.75em;line-height:0;vertical-align:super;text-decoration:none;white-space:nowrap}
button.rs-ref{display:contents;font:inherit;color:#0b57d0;cursor:pointer}
.rs-mark{font-size:.75em;line-height:0;vertical-align:super;white-space:nowrap;padding:0 1px;cursor:pointer}
.rs-mark::before{content:"["}
.rs-mark::after{content:"]"}
.rs-fn[popover]{position:static;inset:auto;width:auto;height:auto;margin:.2em 0;padding:0;border:0;overflow:visible;color:inherit;background:none}
.rs-fn[popover]:not(:popover-open){display:list-item}
.rs-fn:popover-open{display:list-item;position:fixed;inset:auto 0 var(--rs-drawer-bottom,0) 0;box-sizing:border-box;max-height:50vh;overflow:auto;margin:0;padding:14px 56px 18px 20px;list-style-position:inside;background:#fff;border-top:1px solid #c4c7c5;border-radius:12px 12px 0 0;box-shadow:0 -4px 16px rgba(0,0,0,.2);font-size:15px;line-height:1.5;color:#1d1d1f}
.rs-fn::backdrop{background:rgba(0,0,0,.12)}
.rs-fn-x{display:none}
.rs-fn:popover-open .rs-fn-x{display:flex;align-items:center;justify-content:center;position:absolute;top:2px;right:4px;width:48px;height:48px;margin:0;padding:0;border:0;border-radius:24px;background:none;font:24px/1 system-ui,sans-serif;color:#444;cursor:pointer}
sup.rs-ref::before{content:"["}
sup.rs-ref::after{content:"]"}
a{color:#0b57d0}
.rs-ext::after{content:"\2009\2197";font-size:.8em}
img,svg,video{max-width:100%;height:auto}
code{font-size:.9em;word-break:break-all}
.rs-x,.rs-empty,.rs-navbox{display:none}
.rs-doc:lang(ko){word-break:keep-all}
.rs-wcap{font-size:14px;line-height:1.4;color:#444}
.rs-wlabel{margin-right:.4em;font-size:12px;font-weight:600;color:#5f6368}
.rs-table td.rs-long,.rs-table th.rs-long{min-width:10em}
.rs-tpl{margin:0 0 1em;border:1px solid #dadce0;border-radius:8px;background:#f8f9fa;font-size:14px;line-height:1.4}
.rs-tpl summary{box-sizing:border-box;min-height:48px;padding:14px 12px;cursor:pointer;font-weight:600;color:#444}
.rs-ib{display:grid;grid-template-columns:fit-content(45%) minmax(0,1fr);width:100%;margin:0 0 6px}
.rs-ib tr{display:contents}
.rs-ib th,.rs-ib td{display:block;min-width:0;padding:4px 12px;text-align:left;border-top:1px solid #e8eaed}
.rs-ib td{grid-column:2}
.rs-ib th,.rs-ibl td{grid-column:1;font-weight:600;color:#444;overflow-wrap:break-word}
.rs-ib tr.rs-empty,.rs-ib tr.rs-ibh,.rs-ibl th,.rs-ibv th{display:none}
.rs-o1 *{order:1}
.rs-o2 *{order:2}
.rs-o3 *{order:3}
.rs-o4 *{order:4}
.rs-o5 *{order:5}
.rs-o6 *{order:6}
.rs-o7 *{order:7}
.rs-o8 *{order:8}
.rs-o9 *{order:9}
.rs-note{font-size:.75em;line-height:0;vertical-align:super;color:#5f6368}
.rs-note::before{content:"["}
.rs-note::after{content:"]"}
`

// CSSHash returns the Content-Security-Policy source ("sha256-…", to be
// quoted) that allows the <style> element Page embeds when no StylesheetURL is
// given, for a server that prefers embedding to a separate stylesheet.
func CSSHash() string {
	sum := sha256.Sum256([]byte(CSS))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Script is JavaScript for a client of the page, to be served as an external
// script (Options.ScriptURL) under a Content-Security-Policy without
// 'unsafe-inline'. It defines two functions on window, which implement the
// rule of the package documentation ("Locating a character offset"):
//
//   - readsimLocate(offset) returns {node, index}: the text node holding the
//     character at that offset and its UTF-16 index in the node, or null when
//     the offset is outside the article.
//   - readsimScrollTo(offset) scrolls the window so that the character at
//     that offset is at the top of the viewport and returns whether it found
//     it.
const Script = `(function () {
"use strict";
function doc() { return document.querySelector(".rs-doc"); }
function ui(node) {
  for (var n = node.parentNode; n && n.nodeType === 1; n = n.parentNode) {
    if (n.classList.contains("rs-ui")) return true;
    if (n.classList.contains("rs-doc")) return false;
  }
  return false;
}
function locate(offset) {
  var root = doc();
  if (!root || !(offset >= 0)) return null;
  var marks = root.querySelectorAll("[data-o]");
  var lo = 0, hi = marks.length - 1, start = root, base = 0;
  while (lo <= hi) {
    var mid = (lo + hi) >> 1, o = +marks[mid].getAttribute("data-o");
    if (o <= offset) { start = marks[mid]; base = o; lo = mid + 1; } else { hi = mid - 1; }
  }
  var w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, null);
  w.currentNode = start;
  var left = offset - base, t;
  while ((t = w.nextNode())) {
    if (ui(t)) continue;
    var s = t.data;
    for (var i = 0; i < s.length; i++) {
      if (left === 0) return {node: t, index: i};
      var c = s.charCodeAt(i);
      if (c >= 0xD800 && c < 0xDC00 && i + 1 < s.length) i++;
      left--;
    }
  }
  return null;
}
function scrollTo(offset) {
  var p = locate(offset);
  if (!p) return false;
  var r = document.createRange();
  r.setStart(p.node, p.index);
  r.setEnd(p.node, Math.min(p.index + 1, p.node.data.length));
  var rects = r.getClientRects();
  var rect = rects.length ? rects[0] : p.node.parentNode.getBoundingClientRect();
  window.scrollBy(0, rect.top);
  return true;
}
window.readsimLocate = locate;
window.readsimScrollTo = scrollTo;
})();
`
