/* Type-ahead search over window.RULESLAWYER_INDEX (static/search-index.js).

   The index is a plain script, not fetched, so this works from file:// as well as served.
   A query is tried as typed and with the CLI's player words swapped for the rules' words
   (index "synonyms": "fnp" -> "feel no pain"); a rule number ("24.12") finds its rule.
   Matching is per word, exact or prefix (type-ahead); every word that is not a stop word must
   match. Near spellings (typos) are tried only when exact matches are few, and rank below
   them. Records whose name matches are the results; records that only mention the words in
   their text wait behind a button when names matched. The whole name asked for, a name the
   words fill, then the current edition rank first.
   Results are built with DOM text nodes, never innerHTML. */
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
  var MAX_RESULTS = 40, FEW = 5;
  if (!INDEX) { status.textContent = "The search index did not load (static/search-index.js)."; return; }
  var CURRENT = INDEX.editions.length ? INDEX.editions[INDEX.editions.length - 1] : 0;
  var STOP = new Set(INDEX.stop || []);
  var SYNONYMS = INDEX.synonyms || [];

  var KIND_LABELS = { datasheet: "Datasheet", stratagem: "Stratagem", enhancement: "Enhancement",
    detachment_rule: "Detachment rule", rule: "Rule", table: "Table", note: "Designer's note", faq: "FAQ" };

  function fold(s) {
    return (s || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/['\u2019`]/g, "").replace(/[^\p{L}\p{M}\p{N}+]+/gu, " ").trim();  // every script's letters
  }
  function option(sel, value, label) {
    var o = document.createElement("option"); o.value = value; o.textContent = label; sel.appendChild(o);
  }
  INDEX.kinds.forEach(function (k, i) { option(selKind, String(i), KIND_LABELS[k] || k); });
  INDEX.factions.forEach(function (f, i) { option(selFaction, String(i), f); });
  INDEX.editions.forEach(function (e) { option(selEdition, String(e), e + "th edition"); });

  // vocabulary: word -> array of [doc, weight]; names weigh 3, text terms 1
  var vocab = new Map(), docs = INDEX.docs, names = new Array(docs.length), byNumber = new Map();
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
    if (docs[i][7]) { var n = byNumber.get(docs[i][7]) || []; n.push(i); byNumber.set(docs[i][7], n); }
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

  // Map doc -> [best score, matched in the name] for one query word; `typos`: near spellings only
  function matchWord(q, typos) {
    var scores = new Map(), typo = q.length >= 8 ? 2 : (q.length >= 4 ? 1 : 0);
    if (typos && !typo) return scores;
    for (var k = 0; k < words.length; k++) {
      var w = words[k], s = 0;
      if (!typos) {
        if (w === q) s = 1;
        else if (q.length >= 2 && w.lastIndexOf(q, 0) === 0) s = 0.75;
      } else if (w !== q && w.lastIndexOf(q, 0) !== 0) {
        if (within(q, w, typo)) s = 0.55;
        else if (w.length > q.length && within(q, w.slice(0, q.length), typo)) s = 0.4;  // typo in a prefix
      }
      if (!s) continue;
      var p = vocab.get(w);
      for (var n = 0; n < p.length; n++) {
        var v = s * p[n][1], old = scores.get(p[n][0]);
        if (old === undefined || v > old[0]) scores.set(p[n][0], [v, p[n][1] === 3]);
      }
    }
    return scores;
  }

  // The query as typed, and with each player word of the synonym table swapped for its equivalents.
  function variants(phrase) {
    var out = [phrase], padded = " " + phrase + " ";
    SYNONYMS.forEach(function (group) {
      group.forEach(function (entry) {
        if (padded.indexOf(" " + entry + " ") < 0) return;
        group.forEach(function (other) {
          if (other === entry) return;
          var v = padded.split(" " + entry + " ").join(" " + other + " ").trim();
          if (out.indexOf(v) < 0) out.push(v);
        });
      });
    });
    return out;
  }

  function passes(doc) {
    var kind = selKind.value, faction = selFaction.value, edition = selEdition.value;
    return !((kind !== "" && String(doc[1]) !== kind) || (faction !== "" && String(doc[2]) !== faction) ||
             (edition !== "" && String(doc[3]) !== edition));
  }

  // doc -> [score, in name] for one phrase: every word that is not a stop word must match
  function matchPhrase(phrase, typos) {
    var qs = phrase.split(" ").filter(Boolean), total = null, nameHits = null;
    qs.forEach(function (q) {
      var m = matchWord(q, false);
      if (typos) matchWord(q, true).forEach(function (v, d) { if (!m.has(d)) m.set(d, v); });
      if (STOP.has(q) || q.length < 2) {  // optional: adds to the score, never required
        if (total !== null) total.forEach(function (v, d) { var w = m.get(d); if (w) v[0] += w[0]; });
        return;
      }
      if (total === null) { total = new Map(); m.forEach(function (v, d) { total.set(d, [v[0], v[1]]); }); return; }
      var next = new Map();
      total.forEach(function (v, d) { var w = m.get(d); if (w !== undefined) next.set(d, [v[0] + w[0], v[1] && w[1]]); });
      total = next;
    });
    total = total || new Map();
    total.forEach(function (v, d) {
      if (names[d] === phrase) v[0] += 6; else if (names[d].lastIndexOf(phrase, 0) === 0) v[0] += 3;
      else if ((" " + names[d] + " ").indexOf(" " + phrase + " ") >= 0) v[0] += 1.5;
      if (v[1]) v[0] += 2 * Math.min(1, qs.length / names[d].split(" ").length);  // short names the words fill
    });
    return total;
  }

  // [[score, doc], ...] in tiers: 0 names, 1 texts, 2 names spelt near, 3 texts spelt near
  function search(query) {
    var raw = query.trim(), tiers = [[], [], [], []], seen = new Set();
    function add(tier, score, d) {
      if (seen.has(d) || !passes(docs[d])) return;
      seen.add(d);
      if (docs[d][3] === CURRENT) score += 1;  // the current edition first
      if (INDEX.kinds[docs[d][1]] === "rule") score += 0.25;  // of two equal names, the rule itself
      tiers[tier].push([score, d]);
    }
    var number = raw.replace(/^(rule|r)\s*/i, "");
    if (/^\d+\.(\d+\.?)*$/.test(number) || /^\d{2,}$/.test(number)) {
      // a rule number: the rule, the rules numbered under it, then the numbers it begins (type-ahead)
      byNumber.forEach(function (ds, n) {
        var score = n === number ? 20 : n.lastIndexOf(number.replace(/\.$/, "") + ".", 0) === 0 ? 10 :
          n.lastIndexOf(number, 0) === 0 ? 5 : 0;
        if (score) ds.forEach(function (d) { add(0, score, d); });
      });
    }
    var phrase = fold(raw);
    if (!phrase) return tiers;
    var best = new Map();
    variants(phrase).forEach(function (v) {
      matchPhrase(v, false).forEach(function (m, d) { var old = best.get(d); if (!old || m[0] > old[0]) best.set(d, m); });
    });
    best.forEach(function (m, d) { add(m[1] ? 0 : 1, m[0], d); });
    if (tiers[0].length + tiers[1].length < FEW) {  // near spellings, names apart from texts again
      matchPhrase(phrase, true).forEach(function (m, d) { add(m[1] ? 2 : 3, m[0] / 2, d); });
    }
    tiers.forEach(function (t) {
      t.sort(function (a, b) { return b[0] - a[0] || (names[a[1]] < names[b[1]] ? -1 : names[a[1]] > names[b[1]] ? 1 : 0); });
    });
    return tiers;
  }

  function item(hit) {
    var doc = docs[hit[1]], li = document.createElement("li"), a = document.createElement("a");
    a.href = doc[4]; a.textContent = doc[0]; li.appendChild(a);
    var bits = [KIND_LABELS[INDEX.kinds[doc[1]]] || INDEX.kinds[doc[1]]];
    if (doc[7]) bits.push(doc[7]);
    if (doc[2] >= 0) bits.push(INDEX.factions[doc[2]]);
    if (doc[3]) bits.push(doc[3] + "th ed." + (doc[3] === CURRENT ? " (current)" : ""));
    var meta = document.createElement("span"); meta.className = "meta"; meta.textContent = " " + bits.join(" \u00b7 ");
    li.appendChild(meta);
    if (doc[5]) { var p = document.createElement("p"); p.className = "snippet"; p.textContent = doc[5]; li.appendChild(p); }
    return li;
  }

  // Name matches are the results; when there are some, text matches wait behind a button.
  function render(tiers, query) {
    list.textContent = "";
    if (!query.trim()) { status.textContent = ""; return; }
    var byName = tiers[0].concat(tiers[2]), shown, more;
    if (byName.length) { shown = byName; more = tiers[1].concat(tiers[3]); }
    else if (tiers[1].length) { shown = tiers[1]; more = tiers[3]; }
    else { shown = tiers[3]; more = []; }
    status.textContent = shown.length ? (shown.length + " result" + (shown.length === 1 ? "" : "s") +
      (shown.length > MAX_RESULTS ? ", showing the first " + MAX_RESULTS : "") +
      (more.length ? "; " + more.length + (more.length === 1 ? " more mentions" : " more mention") + " it in the text" : "")) :
      "No results. Check the filters, or try fewer words.";
    shown.slice(0, MAX_RESULTS).forEach(function (hit) { list.appendChild(item(hit)); });
    if (more.length) {
      var li = document.createElement("li"), b = document.createElement("button");
      li.className = "more-results"; b.type = "button";
      b.textContent = more.length === 1 ? "Show the one that mentions it" : more.length <= MAX_RESULTS ?
        "Show the " + more.length + " that mention it" : "Show " + MAX_RESULTS + " of the " + more.length + " that mention it";
      b.addEventListener("click", function () {
        li.remove();
        more.slice(0, MAX_RESULTS).forEach(function (hit) { list.appendChild(item(hit)); });
      });
      li.appendChild(b); list.appendChild(li);
    }
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
