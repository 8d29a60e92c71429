/* Type-ahead search over window.RULESLAWYER_INDEX (static/search-index.js).

   The index is a plain script, not fetched, so this works from file:// as well as served.
   Matching is per word: exact, prefix (type-ahead), or within a small edit distance (typos:
   one edit for words of 4+ letters, two for 8+). Every query word must match a name word or a
   text term; name matches weigh more. Results are built with DOM text nodes, never innerHTML. */
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  if (!form) return;
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("results");
  var selKind = document.getElementById("f-kind");
  var selFaction = document.getElementById("f-faction");
  var selEdition = document.getElementById("f-edition");
  var INDEX = window.RULESLAWYER_INDEX;
  var MAX_RESULTS = 40;
  if (!INDEX) { status.textContent = "The search index did not load (static/search-index.js)."; return; }

  var KIND_LABELS = { datasheet: "Datasheet", stratagem: "Stratagem", enhancement: "Enhancement",
    detachment_rule: "Detachment rule", rule: "Rule", table: "Table", note: "Designer's note", faq: "FAQ" };

  function fold(s) {
    return (s || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/['\u2019`]/g, "").replace(/[^a-z0-9+]+/g, " ").trim();
  }
  function option(sel, value, label) {
    var o = document.createElement("option"); o.value = value; o.textContent = label; sel.appendChild(o);
  }
  INDEX.kinds.forEach(function (k, i) { option(selKind, String(i), KIND_LABELS[k] || k); });
  INDEX.factions.forEach(function (f, i) { option(selFaction, String(i), f); });
  INDEX.editions.forEach(function (e) { option(selEdition, String(e), e + "th edition"); });

  // vocabulary: word -> array of [doc, weight]; names weigh 3, text terms 1
  var vocab = new Map(), docs = INDEX.docs, names = new Array(docs.length);
  function post(word, doc, weight) {
    var p = vocab.get(word);
    if (!p) { vocab.set(word, [[doc, weight]]); return; }
    var last = p[p.length - 1];
    if (last[0] === doc) { if (weight > last[1]) last[1] = weight; } else p.push([doc, weight]);
  }
  for (var i = 0; i < docs.length; i++) {
    names[i] = fold(docs[i][0]);
    names[i].split(" ").forEach(function (w) { if (w) post(w, i, 3); });
    (docs[i][6] || "").split(" ").forEach(function (w) { if (w) post(w, i, 1); });
  }
  var words = Array.from(vocab.keys());

  function within(a, b, max) {  // Damerau-Levenshtein distance <= max, with early exit
    if (Math.abs(a.length - b.length) > max) return false;
    var prev2 = null, prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i]; var best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur[j] = v; if (v < best) best = v;
      }
      if (best > max) return false;
      prev2 = prev; prev = cur;
    }
    return prev[b.length] <= max;
  }

  function matchWord(q) {  // Map doc -> best score for one query word
    var scores = new Map(), typo = q.length >= 8 ? 2 : (q.length >= 4 ? 1 : 0);
    for (var k = 0; k < words.length; k++) {
      var w = words[k], s = 0;
      if (w === q) s = 1;
      else if (q.length >= 2 && w.lastIndexOf(q, 0) === 0) s = 0.75;
      else if (typo && within(q, w, typo)) s = 0.55;
      else if (typo && w.length > q.length && within(q, w.slice(0, q.length), typo)) s = 0.4;  // typo in a prefix
      if (!s) continue;
      var p = vocab.get(w);
      for (var n = 0; n < p.length; n++) {
        var v = s * p[n][1], old = scores.get(p[n][0]);
        if (old === undefined || v > old) scores.set(p[n][0], v);
      }
    }
    return scores;
  }

  function search(query) {
    var qs = fold(query).split(" ").filter(Boolean);
    if (!qs.length) return [];
    var total = null;
    qs.forEach(function (q) {
      var m = matchWord(q);
      if (total === null) { total = m; return; }
      var next = new Map();
      total.forEach(function (v, d) { var w = m.get(d); if (w !== undefined) next.set(d, v + w); });
      total = next;
    });
    var kind = selKind.value, faction = selFaction.value, edition = selEdition.value, phrase = qs.join(" ");
    var out = [];
    total.forEach(function (score, d) {
      var doc = docs[d];
      if (kind !== "" && String(doc[1]) !== kind) return;
      if (faction !== "" && String(doc[2]) !== faction) return;
      if (edition !== "" && String(doc[3]) !== edition) return;
      if (names[d] === phrase) score += 4; else if (names[d].lastIndexOf(phrase, 0) === 0) score += 2;
      else {  // the name starts with (a near spelling of) the first word asked for
        var first = names[d].split(" ", 1)[0];
        if (first.lastIndexOf(qs[0], 0) === 0 || (qs[0].length >= 4 && within(qs[0], first, 1))) score += 0.5;
      }
      out.push([score, d]);
    });
    out.sort(function (a, b) { return b[0] - a[0] || (names[a[1]] < names[b[1]] ? -1 : names[a[1]] > names[b[1]] ? 1 : 0); });
    return out;
  }

  function render(found, query) {
    list.textContent = "";
    if (!query.trim()) { status.textContent = ""; return; }
    status.textContent = found.length ? (found.length + " result" + (found.length === 1 ? "" : "s") +
      (found.length > MAX_RESULTS ? ", showing the first " + MAX_RESULTS : "")) : "No results. Check the filters, or try fewer words.";
    found.slice(0, MAX_RESULTS).forEach(function (hit) {
      var doc = docs[hit[1]], li = document.createElement("li"), a = document.createElement("a");
      a.href = doc[4]; a.textContent = doc[0]; li.appendChild(a);
      var bits = [KIND_LABELS[INDEX.kinds[doc[1]]] || INDEX.kinds[doc[1]]];
      if (doc[2] >= 0) bits.push(INDEX.factions[doc[2]]);
      if (doc[3]) bits.push(doc[3] + "th ed.");
      var meta = document.createElement("span"); meta.className = "meta"; meta.textContent = " " + bits.join(" \u00b7 ");
      li.appendChild(meta);
      if (doc[5]) { var p = document.createElement("p"); p.className = "snippet"; p.textContent = doc[5]; li.appendChild(p); }
      list.appendChild(li);
    });
  }

  var timer = null;
  function update() {
    clearTimeout(timer);
    timer = setTimeout(function () { render(search(input.value), input.value); }, 60);
  }
  input.addEventListener("input", update);
  [selKind, selFaction, selEdition].forEach(function (s) { s.addEventListener("change", update); });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var first = list.querySelector("a");
    if (first) first.click(); else update();
  });
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowDown") { var first = list.querySelector("a"); if (first) { ev.preventDefault(); first.focus(); } }
  });
  var params = new URLSearchParams(window.location.search);
  if (params.get("q")) input.value = params.get("q");
  ["kind", "faction", "edition"].forEach(function (k, i) {
    var v = params.get(k), sel = [selKind, selFaction, selEdition][i];
    if (v !== null) sel.value = v;
  });
  if (input.value) render(search(input.value), input.value);
})();
