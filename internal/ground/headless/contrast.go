package headless

// LowContrast is a JavaScript expression for a page loaded in the browser:
// the texts shown (text nodes with a box) whose colour has a contrast ratio
// below 4.5:1 (WCAG 2's relative luminance) against the background behind
// them (the nearest ancestor with an opaque background colour, white at the
// root; a translucent text colour is mixed with it), as "ratio text"
// strings joined by "; ", at most five; "" when every text reaches 4.5:1.
// Text inside an iframe is the frame's own page, not looked at.
const LowContrast = `(function(){
function rgb(s){var m=s.match(/[\d.]+/g); return m ? m.map(Number) : [0,0,0,0]}
function lum(c){var a=c.slice(0,3).map(function(v){v/=255; return v<=0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055,2.4)}); return 0.2126*a[0]+0.7152*a[1]+0.0722*a[2]}
function bg(e){for (; e && e.nodeType===1; e=e.parentElement){var c=rgb(getComputedStyle(e).backgroundColor); if (c.length<4 || c[3]>=0.99) return c} return [255,255,255]}
function mix(fg, back){var a=fg.length>3 ? fg[3] : 1; return [0,1,2].map(function(i){return fg[i]*a+back[i]*(1-a)})}
var w=document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n, bad=[], seen=new Set();
while ((n=w.nextNode())) { var e=n.parentElement; if (!/\S/.test(n.data) || seen.has(e) || !e.checkVisibility({opacityProperty:true, visibilityProperty:true})) continue; seen.add(e);
  var b=bg(e), f=mix(rgb(getComputedStyle(e).color), b), l1=lum(f), l2=lum(b), r=(Math.max(l1,l2)+0.05)/(Math.min(l1,l2)+0.05);
  if (r < 4.5) bad.push(r.toFixed(2)+" "+JSON.stringify(n.data.trim().slice(0,20))) }
return bad.slice(0,5).join("; ")})()`
