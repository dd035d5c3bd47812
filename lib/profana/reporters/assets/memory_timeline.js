// Wires one plot (its block `div`; `d`: the drawn rows, each [time in the axis's unit, bytes per
// series], the series' names and the plot's geometry): the readout under the pointer, and zoom
// into a time range. `xunit` is the time axis's unit ("us", "ms", "s"; "" counts entries).
let plots=0;
function decimals(step){return Math.max(0,-Math.floor(Math.log10(step)+1e-9));}
function setupPlot(div,d){
const {rows,names,L,W,X0,X1,T,PH,unit,scale,xunit}=d,id=plots++;
const when=v=>xunit?v.toFixed(3)+' '+xunit:'entry '+Math.round(v);
const svg=div.querySelector('svg.plot'),cur=div.querySelector('.cursor'),box=document.getElementById('readout');
const NS='http://www.w3.org/2000/svg',sel=div.querySelector('.selection'),unzoom=div.querySelector('.unzoom');
let V0=X0,V1=X1,drag=null;  // the time range shown, in the axis's unit; where a drag started
function timeAt(x){return V0+(x-L)/W*(V1-V0);}
function plotX(e){const p=svg.createSVGPoint();p.x=e.clientX;p.y=e.clientY;return p.matrixTransform(svg.getScreenCTM().inverse()).x;}
svg.addEventListener('mousemove',e=>{
  const x=plotX(e);
  if(drag!==null){sel.setAttribute('x',Math.min(drag,x));sel.setAttribute('width',Math.abs(x-drag));}
  if(x<L||x>L+W||!rows.length){cur.setAttribute('visibility','hidden');box.style.display='none';return;}
  const t=timeAt(x);let lo=0,hi=rows.length-1;
  while(lo<hi){const m=(lo+hi+1)>>1;if(rows[m][0]<=t)lo=m;else hi=m-1;}
  const r=rows[lo];let total=0,lines=[];
  for(let c=names.length-1;c>=0;c--){total+=r[c+1];if(r[c+1])lines.push(names[c]+': '+(r[c+1]/scale).toFixed(3)+' '+unit);}
  box.textContent=when(t)+'\ntotal: '+(total/scale).toFixed(3)+' '+unit+'\n'+lines.join('\n');
  cur.setAttribute('x1',x);cur.setAttribute('x2',x);cur.setAttribute('visibility','visible');
  box.style.display='block';box.style.left=(e.pageX+14)+'px';box.style.top=(e.pageY+14)+'px';});
svg.addEventListener('mouseleave',()=>{cur.setAttribute('visibility','hidden');box.style.display='none';});
svg.setAttribute('data-drawn',svg.querySelectorAll('path.area').length);
// Zoom: the areas and the peak line, drawn for X0..X1, go into one group clipped to the plot and
// stretched to show V0..V1; the time axis is redrawn for the range; the peak's dot and label
// follow the peak or hide when it is outside.
const clip=document.createElementNS(NS,'clipPath'),clipRect=document.createElementNS(NS,'rect');
clip.id='plotclip'+id;clipRect.setAttribute('x',L);clipRect.setAttribute('y',T);clipRect.setAttribute('width',W);clipRect.setAttribute('height',PH);
clip.appendChild(clipRect);svg.appendChild(clip);
const zoomed=document.createElementNS(NS,'g'),inner=document.createElementNS(NS,'g');
zoomed.setAttribute('clip-path','url(#plotclip'+id+')');zoomed.appendChild(inner);svg.insertBefore(zoomed,cur);
svg.querySelectorAll('path.area, line.peak, line.marker').forEach(el=>{el.setAttribute('vector-effect','non-scaling-stroke');inner.appendChild(el);});
const dot=svg.querySelector('circle.peakdot'),peakLabel=svg.querySelector('text.peaklabel');
const dot0=dot?+dot.getAttribute('cx'):0;
function niceStep(span,ticks){const raw=span/ticks,p=Math.pow(10,Math.floor(Math.log10(raw))),m=raw/p;return (m<1.5?1:m<3.5?2:m<7.5?5:10)*p;}
function zoomTo(a,b){
  V0=Math.max(X0,Math.min(a,b));V1=Math.min(X1,Math.max(a,b));if(!(V1>V0)){V0=X0;V1=X1;}
  const k=(X1-X0)/(V1-V0),tx=L-k*(L+(V0-X0)/(X1-X0)*W);
  inner.setAttribute('transform','translate('+tx+',0) scale('+k+',1)');
  if(dot){const nx=k*dot0+tx,show=nx>=L-0.5&&nx<=L+W+0.5;dot.setAttribute('cx',nx);
    dot.style.display=show?'':'none';const right=nx<L+W*0.6;peakLabel.setAttribute('x',nx+(right?10:-10));peakLabel.setAttribute('text-anchor',right?'start':'end');peakLabel.style.display=show?'':'none';}
  svg.querySelectorAll('.xt').forEach(el=>el.remove());
  const step=xunit?niceStep(V1-V0,8):Math.max(1,niceStep(V1-V0,8)),first=Math.ceil(V0/step-1e-9)*step,dec=decimals(step);
  for(let i=0;i<=20&&first+i*step<=V1+step*1e-9;i++){
    const v=first+i*step,x=L+(v-V0)/(V1-V0)*W,line=document.createElementNS(NS,'line'),t=document.createElementNS(NS,'text');
    line.setAttribute('class','grid xt');line.setAttribute('x1',x);line.setAttribute('x2',x);line.setAttribute('y1',T);line.setAttribute('y2',T+PH);
    t.setAttribute('class','tick xt');t.setAttribute('x',x);t.setAttribute('y',T+PH+18);t.setAttribute('text-anchor','middle');
    t.textContent=v.toFixed(dec);svg.insertBefore(line,zoomed);svg.insertBefore(t,zoomed);}
  const all=V0===X0&&V1===X1;unzoom.setAttribute('visibility',all?'hidden':'visible');
  svg.setAttribute('data-view',all?'':V0.toFixed(6)+':'+V1.toFixed(6));}
svg.addEventListener('mousedown',e=>{const x=plotX(e);if(x<L||x>L+W)return;drag=x;
  sel.setAttribute('x',x);sel.setAttribute('width',0);sel.setAttribute('visibility','visible');e.preventDefault();});
window.addEventListener('mouseup',e=>{if(drag===null)return;const x=Math.max(L,Math.min(L+W,plotX(e)));
  sel.setAttribute('visibility','hidden');if(Math.abs(x-drag)>3)zoomTo(timeAt(drag),timeAt(x));drag=null;});
unzoom.addEventListener('click',()=>zoomTo(X0,X1));
window.addEventListener('keydown',e=>{if(e.key==='Escape')zoomTo(X0,X1);});
// PAGE.html?zoom=A:B (in the time axis's unit) opens zoomed to that range.
{const m=/[?#&]zoom=([-\d.e]+):([-\d.e]+)/.exec(location.search+location.hash);if(m)zoomTo(+m[1],+m[2]);}
}
// Several devices: the selector shows one block at a time.
window.addEventListener('DOMContentLoaded',()=>{const pick=document.getElementById('device');if(!pick)return;
  const show=()=>document.querySelectorAll('div.device').forEach(el=>{el.style.display=el.getAttribute('data-device')===pick.value?'':'none';});
  pick.addEventListener('change',show);
  const m=/[?#&]device=([^&]+)/.exec(location.search+location.hash);if(m){pick.value=decodeURIComponent(m[1]);show();}});
