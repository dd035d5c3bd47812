var svg = document.documentElement, frames = [].slice.call(document.querySelectorAll('g.f'));
var W = +svg.getAttribute('data-width'), H = +svg.getAttribute('data-height'), FH = 16, PAD = 10;
svg.setAttribute('data-frames', frames.length);
function label(g, w) {
  var name = g.querySelector('title').textContent.replace(/ \([^(]*\)$/, ''), t = g.querySelector('text');
  var fit = Math.floor((w - 6) / 7);
  t.textContent = fit < 3 ? '' : (name.length <= fit ? name : name.slice(0, fit - 2) + '..');
}
function draw(x0, w0, d0) {
  var scale = (W - 2 * PAD) / w0;
  frames.forEach(function (g) {
    var x = +g.getAttribute('data-x'), w = +g.getAttribute('data-w'), d = +g.getAttribute('data-d');
    var inside = x >= x0 - 1e-6 && x + w <= x0 + w0 + 1e-6 && (d >= d0 || (x <= x0 + 1e-6 && x + w >= x0 + w0 - 1e-6));
    g.style.display = inside ? '' : 'none';
    if (!inside) return;
    var nx = PAD + (x - x0) * scale, nw = w * scale, y = H - 24 - d * FH;
    if (d < d0) { nx = PAD; nw = W - 2 * PAD; }  // ancestors of the zoomed frame span the width
    var r = g.querySelector('rect'), t = g.querySelector('text');
    r.setAttribute('x', nx); r.setAttribute('width', Math.max(nw, 0.5)); r.setAttribute('y', y);
    t.setAttribute('x', nx + 3); t.setAttribute('y', y + 11.5);
    label(g, nw);
    g.style.opacity = d < d0 ? 0.5 : 1;
  });
}
function reset() { draw(PAD, W - 2 * PAD, 0); document.getElementById('unzoom').style.display = 'none'; }
frames.forEach(function (g) {
  g.onclick = function () {
    draw(+g.getAttribute('data-x'), +g.getAttribute('data-w'), +g.getAttribute('data-d'));
    document.getElementById('unzoom').style.display = '';
  };
  g.onmouseover = function () { document.getElementById('details').textContent = g.querySelector('title').textContent; };
});
document.getElementById('unzoom').onclick = reset;
document.getElementById('search').onclick = function () {
  var term = prompt('Search frames (regular expression):', '');
  var matched = 0, re = term ? new RegExp(term) : null;
  frames.forEach(function (g) {
    var name = g.querySelector('title').textContent, hit = re && re.test(name);
    g.querySelector('rect').style.fill = hit ? 'rgb(230,0,230)' : '';
  });
  document.getElementById('matched').textContent = re ? 'Matched: ' + term : '';
};
window.addEventListener('keydown', function (e) { if (e.key === 'Escape') reset(); });
reset();
