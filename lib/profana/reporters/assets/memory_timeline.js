const svg=document.getElementById('plot'),cur=document.getElementById('cursor'),box=document.getElementById('readout');
svg.addEventListener('mousemove',e=>{
  const p=svg.createSVGPoint();p.x=e.clientX;p.y=e.clientY;const q=p.matrixTransform(svg.getScreenCTM().inverse());
  if(q.x<L||q.x>L+W||!rows.length){cur.setAttribute('visibility','hidden');box.style.display='none';return;}
  const ms=X0+(q.x-L)/W*(X1-X0);let lo=0,hi=rows.length-1;
  while(lo<hi){const m=(lo+hi+1)>>1;if(rows[m][0]<=ms)lo=m;else hi=m-1;}
  const r=rows[lo];let total=0,lines=[];
  for(let c=7;c>=0;c--){total+=r[c+1];if(r[c+1])lines.push(names[c]+': '+(r[c+1]/scale).toFixed(3)+' '+unit);}
  box.textContent=ms.toFixed(3)+' ms\ntotal: '+(total/scale).toFixed(3)+' '+unit+'\n'+lines.join('\n');
  cur.setAttribute('x1',q.x);cur.setAttribute('x2',q.x);cur.setAttribute('visibility','visible');
  box.style.display='block';box.style.left=(e.pageX+14)+'px';box.style.top=(e.pageY+14)+'px';});
svg.addEventListener('mouseleave',()=>{cur.setAttribute('visibility','hidden');box.style.display='none';});
svg.setAttribute('data-drawn',svg.querySelectorAll('path.area').length);
