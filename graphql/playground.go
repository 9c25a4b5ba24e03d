package graphql

import (
	"net/http"
	"strings"
)

// playground serves a self-contained GraphQL page: no script, style or font
// is fetched from the internet. It has a query editor, a variables tab, a
// headers tab taking a JSON object (e.g. {"Authorization": "Bearer ..."}),
// and a schema explorer read through introspection.
func (s *Server) playground(w http.ResponseWriter, r *http.Request) {
	page := strings.ReplaceAll(playgroundHTML, "{{ENDPOINT}}", s.cfg.EndpointPath())
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(page))
	}
}

const playgroundHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stratum GraphQL playground</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;background:#181b20;color:#e6e6e6;height:100vh;display:flex;flex-direction:column}
header{display:flex;gap:8px;align-items:center;padding:8px 12px;background:#20242b;border-bottom:1px solid #333}
header b{margin-right:auto}button{background:#4a7dff;color:#fff;border:0;border-radius:4px;padding:6px 14px;cursor:pointer;font:inherit}
button.tab{background:#2b3038}button.tab.on{background:#3b4250}main{flex:1;display:flex;min-height:0}
section{flex:1;display:flex;flex-direction:column;min-width:0;border-right:1px solid #333}
textarea,pre{flex:1;margin:0;padding:10px;background:#181b20;color:#e6e6e6;border:0;resize:none;font:13px/1.5 ui-monospace,monospace;outline:none;overflow:auto;white-space:pre}
.bar{display:flex;gap:4px;padding:6px;background:#20242b;border-top:1px solid #333}
#docs{width:300px;overflow:auto;padding:10px;font-size:13px;display:none}#docs.on{display:block}
#docs h4{margin:10px 0 4px}#docs div{padding:2px 0;font-family:ui-monospace,monospace}#docs a{color:#8fb3ff;cursor:pointer}
.err{color:#ff8f8f}
</style></head><body>
<header><b>Stratum GraphQL</b><span id="ep"></span><button id="run" title="Ctrl+Enter">&#9654; Run</button><button class="tab" id="docbtn">Docs</button></header>
<main>
<section><textarea id="query" spellcheck="false"></textarea>
<div class="bar"><button class="tab on" data-t="vars">Variables</button><button class="tab" data-t="headers">HTTP headers</button></div>
<textarea id="vars" spellcheck="false" style="flex:0 0 30%"></textarea><textarea id="headers" spellcheck="false" style="flex:0 0 30%;display:none"></textarea></section>
<section><pre id="out"></pre></section>
<div id="docs"></div>
</main>
<script>
(function(){
var endpoint = "{{ENDPOINT}}";
var $ = function(id){ return document.getElementById(id); };
$("ep").textContent = location.origin + endpoint;
var store = window.localStorage || {getItem:function(){return null},setItem:function(){}};
$("query").value = store.getItem("stratum.query") || "query {\n  __typename\n}\n";
$("vars").value = store.getItem("stratum.vars") || "{}";
$("headers").value = store.getItem("stratum.headers") || "{\n  \"Authorization\": \"Bearer \"\n}";
function parse(id, what){
  var t = $(id).value.trim();
  if (!t) return {};
  try { var v = JSON.parse(t); if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object"); return v; }
  catch (e) { throw new Error(what + " must be a JSON object: " + e.message); }
}
function headers(){
  var h = parse("headers", "HTTP headers"), out = {"Content-Type": "application/json", "Accept": "application/json"};
  Object.keys(h).forEach(function(k){ var v = String(h[k]); if (!(k.toLowerCase() === "authorization" && /^Bearer\s*$/i.test(v))) out[k] = v; });
  return out;
}
function send(body){
  return fetch(endpoint, {method: "POST", headers: headers(), body: JSON.stringify(body)}).then(function(r){ return r.json(); });
}
function run(){
  ["query","vars","headers"].forEach(function(k){ store.setItem("stratum." + k, $(k).value); });
  var out = $("out");
  out.className = ""; out.textContent = "…";
  var body;
  try { body = {query: $("query").value, variables: parse("vars", "Variables")}; } catch (e) { out.className = "err"; out.textContent = e.message; return; }
  send(body).then(function(j){ out.textContent = JSON.stringify(j, null, 2); })
    .catch(function(e){ out.className = "err"; out.textContent = String(e); });
}
$("run").onclick = run;
document.addEventListener("keydown", function(e){ if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); run(); } });
Array.prototype.forEach.call(document.querySelectorAll(".bar .tab"), function(b){
  b.onclick = function(){
    Array.prototype.forEach.call(document.querySelectorAll(".bar .tab"), function(x){ x.classList.toggle("on", x === b); });
    $("vars").style.display = b.dataset.t === "vars" ? "" : "none";
    $("headers").style.display = b.dataset.t === "headers" ? "" : "none";
  };
});
function typeName(t){ return t.kind === "NON_NULL" ? typeName(t.ofType) + "!" : t.kind === "LIST" ? "[" + typeName(t.ofType) + "]" : t.name; }
function baseName(t){ return t.ofType ? baseName(t.ofType) : t.name; }
var types = {};
function show(name){
  var d = $("docs"), t = types[name];
  d.innerHTML = "";
  var h = document.createElement("h4"); h.textContent = name; d.appendChild(h);
  if (!t) return;
  (t.fields || t.inputFields || []).forEach(function(f){
    var row = document.createElement("div"), a = document.createElement("a");
    var args = (f.args || []).map(function(x){ return x.name + ": " + typeName(x.type); }).join(", ");
    row.appendChild(document.createTextNode(f.name + (args ? "(" + args + ")" : "") + ": "));
    a.textContent = typeName(f.type); a.onclick = function(){ show(baseName(f.type)); };
    row.appendChild(a); d.appendChild(row);
  });
  (t.enumValues || []).forEach(function(v){ var row = document.createElement("div"); row.textContent = v.name; d.appendChild(row); });
  (t.possibleTypes || []).forEach(function(p){ var row = document.createElement("div"), a = document.createElement("a"); a.textContent = p.name; a.onclick = function(){ show(p.name); }; row.appendChild(a); d.appendChild(row); });
  var back = document.createElement("h4"), ba = document.createElement("a"); ba.textContent = "← Query / Mutation"; ba.onclick = roots; back.appendChild(ba); d.appendChild(back);
}
function roots(){
  var d = $("docs"); d.innerHTML = "";
  ["Query","Mutation"].forEach(function(n){ if (types[n]) { var row = document.createElement("h4"), a = document.createElement("a"); a.textContent = n; a.onclick = function(){ show(n); }; row.appendChild(a); d.appendChild(row); } });
}
$("docbtn").onclick = function(){
  var d = $("docs");
  d.classList.toggle("on");
  if (!d.classList.contains("on")) return;
  d.textContent = "Loading…";
  var tref = "kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }";
  send({query: "{ __schema { types { kind name fields { name args { name type { " + tref + " } } type { " + tref + " } } inputFields { name type { " + tref + " } } enumValues { name } possibleTypes { name } } } }"})
    .then(function(j){
      if (!j.data) { d.className = "on err"; d.textContent = (j.errors || j.error ? JSON.stringify(j.errors || j.error) : "no schema"); return; }
      types = {}; j.data.__schema.types.forEach(function(t){ types[t.name] = t; }); roots();
    }).catch(function(e){ d.textContent = String(e); });
};
})();
</script></body></html>
`
