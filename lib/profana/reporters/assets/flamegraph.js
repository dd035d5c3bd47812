var svg = document.documentElement, frames = [].slice.call(document.querySelectorAll('g.f'));
var W = +svg.getAttribute('data-width'), H = +svg.getAttribute('data-height'), FH = 16, PAD = 10;
var EPS = 1e-6, searchRe = null;
svg.setAttribute('data-frames', frames.length);
function attr(g, name) { return +g.getAttribute('data-' + name); }
function nameOf(g) { return g.querySelector('title').textContent.replace(/ \([^(]*\)$/, ''); }
function label(g, w) {
  var name = nameOf(g), t = g.querySelector('text'), fit = Math.floor((w - 6) / 7);
  t.textContent = fit < 3 ? '' : (name.length <= fit ? name : name.slice(0, fit - 2) + '..');
}
// Zoomed to the frame at x0 (width w0, depth d0): its descendants are scaled to the full width,
// its ancestors (the frames above it that span it) stay drawn full width and faded, as
// flamegraph.pl draws them; everything else (its siblings and their subtrees) is hidden.
function draw(x0, w0, d0) {
  var scale = (W - 2 * PAD) / w0;
  frames.forEach(function (g) {
    var x = attr(g, 'x'), w = attr(g, 'w'), d = attr(g, 'd');
    var ancestor = d < d0 && x <= x0 + EPS && x + w >= x0 + w0 - EPS;
    var inside = d >= d0 && x >= x0 - EPS && x + w <= x0 + w0 + EPS;
    g.style.display = ancestor || inside ? '' : 'none';
    if (!ancestor && !inside) return;
    var nx = ancestor ? PAD : PAD + (x - x0) * scale, nw = ancestor ? W - 2 * PAD : w * scale;
    var y = H - 24 - d * FH, r = g.querySelector('rect'), t = g.querySelector('text');
    r.setAttribute('x', nx); r.setAttribute('width', Math.max(nw, 0.5)); r.setAttribute('y', y);
    t.setAttribute('x', nx + 3); t.setAttribute('y', y + 11.5);
    label(g, nw);
    g.style.opacity = ancestor ? 0.5 : 1;
  });
}
function zoom(g) {
  draw(attr(g, 'x'), attr(g, 'w'), attr(g, 'd'));
  document.getElementById('unzoom').style.display = '';
}
// Highlights the frames whose names match and reports the share of the total they cover (each
// sample counted once, nested matches not twice), as flamegraph.pl's "Matched: 12.3%".
function search(term) {
  searchRe = term ? new RegExp(term) : null;
  var spans = [];
  frames.forEach(function (g) {
    var hit = searchRe !== null && searchRe.test(nameOf(g));
    g.querySelector('rect').style.fill = hit ? 'rgb(230,0,230)' : '';
    if (hit) spans.push([attr(g, 'x'), attr(g, 'x') + attr(g, 'w')]);
  });
  spans.sort(function (a, b) { return a[0] - b[0]; });
  var covered = 0, end = -Infinity;
  spans.forEach(function (s) {
    if (s[1] <= end) return;
    covered += s[1] - Math.max(s[0], end);
    end = s[1];
  });
  var share = 100 * covered / (W - 2 * PAD), m = document.getElementById('matched');
  m.textContent = searchRe ? 'Matched: ' + share.toFixed(1) + '%' : '';
  m.setAttribute('data-share', searchRe ? share.toFixed(1) : '');
}
function reset() {
  draw(PAD, W - 2 * PAD, 0);
  document.getElementById('unzoom').style.display = 'none';
  search('');
}
// The title shortened from the middle where it would not fit the width.
(function () {
  var t = document.querySelector('text'), full = t.textContent, n = full.length;
  while (n > 10 && t.getComputedTextLength && t.getComputedTextLength() > W - 2 * PAD) {
    n -= 4;
    t.textContent = full.slice(0, Math.ceil(n / 2)) + '...' + full.slice(full.length - Math.floor(n / 2));
  }
})();
frames.forEach(function (g) {
  g.onclick = function () { zoom(g); };
  g.onmouseover = function () { document.getElementById('details').textContent = g.querySelector('title').textContent; };
});
document.getElementById('unzoom').onclick = reset;
document.getElementById('search').onclick = function () {
  var term = prompt('Search frames (regular expression):', '');
  if (term !== null) search(term);
};
window.addEventListener('keydown', function (e) { if (e.key === 'Escape') reset(); });
reset();
// Opened as FILE.svg?zoom=N (the N-th frame, 0-based, in document order) and/or &s=REGEX: a
// zoomed or searched view to link to.
(function () {
  var q = (location.search || location.hash).replace(/^[?#]/, '').split('&');
  q.forEach(function (kv) {
    var i = kv.indexOf('='), k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
    if (k === 'zoom' && frames[+v]) zoom(frames[+v]);
    if (k === 's' && v) search(v);
  });
})();
