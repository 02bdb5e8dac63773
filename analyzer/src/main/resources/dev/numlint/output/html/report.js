(function(){
'use strict';
var keys=['rule','level','state','dir'];
var rows=Array.prototype.slice.call(document.querySelectorAll('tr.finding'));
var shown=document.getElementById('shown');
function sel(k){return document.getElementById('f-'+k);}
function matches(r,k,v){
  if(!v){return true;}
  var d=r.dataset[k]||'';
  if(k==='state'){return (' '+d+' ').indexOf(' '+v+' ')>=0;}
  if(k==='dir'){return d===v||d.indexOf(v+'/')===0;}
  return d===v;
}
function apply(){
  var f={},parts=[],desc=[];
  keys.forEach(function(k){var s=sel(k);f[k]=s?s.value:'';
    if(f[k]){parts.push(k+'='+encodeURIComponent(f[k]));desc.push(k+' '+f[k]);}});
  var n=0,a=0;
  rows.forEach(function(r){
    var ok=keys.every(function(k){return matches(r,k,f[k]);});
    r.hidden=!ok; if(ok){if(r.classList.contains('absent')){a++;}else{n++;}}
    var d=r.nextElementSibling;
    if(d&&d.classList.contains('detail')){d.hidden=!ok;}
  });
  // findings of this scan and fixed ones (a baseline's absent results) are counted apart, as in the summary
  var fixed=rows.filter(function(r){return r.classList.contains('absent');}).length;
  var ofFixed=fixed?', '+a+' of '+fixed+' fixed (absent)':'';
  shown.textContent=n+' of '+(rows.length-fixed)+' findings shown'+ofFixed;
  document.body.setAttribute('data-shown',String(n+a));
  var pf=document.getElementById('printfilter');
  pf.textContent=desc.length?('Filtered: '+desc.join(', ')+' ('+n+' of '+(rows.length-fixed)+' findings'+ofFixed+')'):'';
  var h=parts.length?'#'+parts.join('&'):'';
  if(location.hash!==h&&history.replaceState){history.replaceState(null,'',h||location.pathname);}
}
function fromHash(){
  var h=location.hash.replace(/^#/,'');
  if(!h||h.indexOf('=')<0){return;}
  h.split('&').forEach(function(p){
    var i=p.indexOf('='); if(i<0){return;}
    var k=p.substring(0,i),v;
    try{v=decodeURIComponent(p.substring(i+1));}catch(e){return;}
    var s=sel(k);
    if(s&&keys.indexOf(k)>=0){
      for(var j=0;j<s.options.length;j++){if(s.options[j].value===v){s.value=v;
        s.dispatchEvent(new Event('change'));}}
    }
  });
}
keys.forEach(function(k){var s=sel(k);if(s){s.addEventListener('change',apply);}});
document.getElementById('reset').addEventListener('click',function(){
  keys.forEach(function(k){var s=sel(k);if(s){s.value='';}});apply();});
var expanded=false;
document.getElementById('expand').addEventListener('click',function(e){
  expanded=!expanded;
  document.querySelectorAll('details.rec').forEach(function(d){d.open=expanded;});
  e.target.textContent=expanded?'Collapse all':'Expand all';});
window.addEventListener('beforeprint',function(){
  document.querySelectorAll('details').forEach(function(d){d.setAttribute('data-was',d.open?'1':'0');
    d.open=true;});});
window.addEventListener('afterprint',function(){
  document.querySelectorAll('details').forEach(function(d){d.open=d.getAttribute('data-was')==='1';});});
window.addEventListener('hashchange',fromHash);
fromHash();
apply();
document.body.setAttribute('data-ready','1');
})();
