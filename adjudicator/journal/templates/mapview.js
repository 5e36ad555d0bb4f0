// The map at full resolution, zoomed and panned in its frame: the mouse
// wheel and the buttons zoom, dragging pans; on a touch screen two
// fingers pinch and one drags; with the frame focused, + and - zoom, the
// arrow keys pan and 0 fits the whole map. Without JavaScript the frame
// scrolls over the picture at full size, and the link opens it alone.
// The view is kept for the game while the replay steps, so that the
// picture of each impulse shows the same place.
(function () {
  "use strict";
  var box = document.querySelector(".mapview");
  if (!box) return;
  var img = box.querySelector("img");
  var link = box.querySelector("a");
  var W = +img.getAttribute("width"), H = +img.getAttribute("height");
  var key = "titm-map:" + box.getAttribute("data-game");
  var st = {s: 1, x: 0, y: 0};
  var fit = 1, max = 4;

  box.classList.add("js");
  var bar = document.createElement("div");
  bar.className = "mapbar";
  // The buttons' words are the page's language's (templates/map.html).
  var say = function (k, d) { return box.getAttribute("data-" + k) || d; };
  [["+", say("zoom-in", "Zoom in"), function () { zoom(1.25); }],
   ["\u2212", say("zoom-out", "Zoom out"), function () { zoom(0.8); }],
   [say("fit", "Fit"), say("fit-all", "Fit the whole map"), function () { fitAll(); }]].forEach(function (b) {
    var e = document.createElement("button");
    e.type = "button";
    e.textContent = b[0];
    e.title = e.ariaLabel = b[1];
    e.addEventListener("click", b[2]);
    bar.appendChild(e);
  });
  box.parentNode.insertBefore(bar, box);

  function measure() {
    fit = Math.min(box.clientWidth / W, box.clientHeight / H);
    max = Math.max(4, fit);
  }
  function clamp() {
    var bw = box.clientWidth, bh = box.clientHeight, w = W * st.s, h = H * st.s;
    st.x = w <= bw ? (bw - w) / 2 : Math.min(0, Math.max(bw - w, st.x));
    st.y = h <= bh ? (bh - h) / 2 : Math.min(0, Math.max(bh - h, st.y));
  }
  function apply() {
    clamp();
    img.style.transform = "translate(" + st.x + "px," + st.y + "px) scale(" + st.s + ")";
    box.setAttribute("data-scale", st.s.toFixed(4));
    try { sessionStorage.setItem(key, JSON.stringify(st)); } catch (e) { /* private mode */ }
  }
  // zoom scales by f around the point (cx, cy) of the frame, its middle
  // by default.
  function zoom(f, cx, cy) {
    if (cx === undefined) { cx = box.clientWidth / 2; cy = box.clientHeight / 2; }
    var s = Math.min(max, Math.max(fit, st.s * f));
    st.x = cx - (cx - st.x) * s / st.s;
    st.y = cy - (cy - st.y) * s / st.s;
    st.s = s;
    apply();
  }
  function pan(dx, dy) { st.x += dx; st.y += dy; apply(); }
  function fitAll() { st.s = fit; apply(); }

  measure();
  st.s = Math.min(1, Math.max(fit, box.clientWidth / W));
  try {
    var kept = JSON.parse(sessionStorage.getItem(key) || "null");
    if (kept && kept.s > 0) st = {s: Math.min(max, Math.max(fit, kept.s)), x: kept.x, y: kept.y};
  } catch (e) { /* none kept */ }
  apply();
  window.addEventListener("resize", function () { measure(); zoom(1); });

  box.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = box.getBoundingClientRect();
    zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), e.clientX - r.left, e.clientY - r.top);
  }, {passive: false});

  box.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var step = Math.round(box.clientWidth / 8);
    var act = {
      "+": function () { zoom(1.25); }, "=": function () { zoom(1.25); },
      "-": function () { zoom(0.8); }, "_": function () { zoom(0.8); },
      "0": fitAll,
      ArrowLeft: function () { pan(step, 0); }, ArrowRight: function () { pan(-step, 0); },
      ArrowUp: function () { pan(0, step); }, ArrowDown: function () { pan(0, -step); }
    }[e.key];
    if (!act) return;
    // The arrows pan the map here, rather than step the replay.
    e.preventDefault();
    e.stopPropagation();
    act();
  });

  // Dragging pans, and two fingers pinch; a drag does not follow the
  // picture's link, nor does a click, which the frame takes for the map.
  var ptrs = {}, moved = false, pinch = 0;
  function dist() {
    var p = Object.keys(ptrs).map(function (k) { return ptrs[k]; });
    return p.length < 2 ? 0 : Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
  }
  box.addEventListener("pointerdown", function (e) {
    ptrs[e.pointerId] = {x: e.clientX, y: e.clientY};
    moved = false;
    pinch = dist();
    box.setPointerCapture(e.pointerId);
  });
  box.addEventListener("pointermove", function (e) {
    var p = ptrs[e.pointerId];
    if (!p) return;
    var dx = e.clientX - p.x, dy = e.clientY - p.y;
    p.x = e.clientX; p.y = e.clientY;
    if (Math.abs(dx) + Math.abs(dy) > 0) moved = true;
    var d = dist();
    if (d > 0 && pinch > 0) {
      var r = box.getBoundingClientRect(), k = Object.keys(ptrs);
      zoom(d / pinch, (ptrs[k[0]].x + ptrs[k[1]].x) / 2 - r.left, (ptrs[k[0]].y + ptrs[k[1]].y) / 2 - r.top);
      pinch = d;
    } else {
      pan(dx, dy);
    }
  });
  function up(e) { delete ptrs[e.pointerId]; pinch = dist(); }
  box.addEventListener("pointerup", up);
  box.addEventListener("pointercancel", up);
  if (link) link.addEventListener("click", function (e) { e.preventDefault(); });
})();
