/* Type-ahead search over window.RULESLAWYER_INDEX (static/search-index.js).

   The index is a plain script, not fetched, so this works from file:// as well as served.
   A query is tried as typed and with the CLI's player words swapped for the rules' words
   (index "synonyms": "fnp" -> "feel no pain"); a rule number ("24.12") finds its rule.

   The results are the best matches, at most BEST of them, in tiers:
     the rule numbered so; records whose name holds the words as a phrase; records whose lead
     (first sentence, a datasheet's keywords, a FAQ's question) holds the phrase.
   Only when those are few: names the last word begins (type-ahead), names holding the words
   apart or spelt by one word run together ("deepstrike"), then names spelt near (typos), in
   that order below them. Within a tier the current
   edition comes first, then the closer match. Records that only have the words somewhere in
   their text are not results: a link under the list runs that broader search ("all text"),
   which lists every record holding all the words anywhere, the best matches first.
   Results are built with DOM text nodes, never innerHTML. */
(function () {
  "use strict";
  var form = document.getElementById("search-form");
  if (!form) return;
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("results");
  var broader = document.getElementById("search-all");
  var selKind = document.getElementById("f-kind");
  var selFaction = document.getElementById("f-faction");
  var selEdition = document.getElementById("f-edition");
  var INDEX = window.RULESLAWYER_INDEX;
  var BEST = 20, FEW = 5, MAX_ALL = 200;
  var NUMBER = 0, NAME = 1, LEAD = 2, PREFIX = 3, APART = 4, TYPO = 5, TEXT = 6;  // tiers, best first
  if (!INDEX) { status.textContent = "The search index did not load (static/search-index.js)."; return; }
  var CURRENT = INDEX.editions.length ? INDEX.editions[INDEX.editions.length - 1] : 0;
  var STOP = new Set(INDEX.stop || []);
  var SYNONYMS = INDEX.synonyms || [];
  var LEAD_KINDS = new Set(["faq"]);  // a FAQ's name is its question: a lead, not a name

  var KIND_LABELS = { datasheet: "Datasheet", stratagem: "Stratagem", enhancement: "Enhancement",
    detachment_rule: "Detachment rule", rule: "Rule", table: "Table", note: "Designer's note", faq: "FAQ" };

  // ASCII with typographic quotes, dashes and ellipses (most texts) folds the same without
  // Unicode normalization, several times faster
  var PLAIN = /^[\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u25a0]*$/;
  function fold(s) {
    s = s || "";
    if (PLAIN.test(s)) return s.toLowerCase().replace(/['\u2019`]/g, "").replace(/[^a-z0-9+]+/g, " ").trim();
    return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
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
  var leads = new Array(docs.length), nameIsLead = new Array(docs.length);
  function post(word, doc, weight) {
    var p = vocab.get(word);
    if (!p) { vocab.set(word, [[doc, weight]]); return; }
    var last = p[p.length - 1];
    if (last[0] === doc) { if (weight > last[1]) last[1] = weight; } else p.push([doc, weight]);
  }
  for (var i = 0; i < docs.length; i++) {
    names[i] = fold(docs[i][0]);
    nameIsLead[i] = LEAD_KINDS.has(INDEX.kinds[docs[i][1]]);
    names[i].split(" ").forEach(function (w) { if (w) post(w, i, 3); });
    (docs[i][6] || "").split(" ").forEach(function (w) { if (w) post(w, i, 1); });
    if (docs[i][7]) { var n = byNumber.get(docs[i][7]) || []; n.push(i); byNumber.set(docs[i][7], n); }
  }
  var words = Array.from(vocab.keys());
  function lead(d) {  // folded on first use, or a little at a time once the page has loaded
    if (leads[d] === undefined) leads[d] = " " + fold(docs[d][5]) + " ";
    return leads[d];
  }
  (function warm(from) {  // so the first letter typed on a phone does not wait for all of them
    for (var d = from; d < Math.min(from + 500, docs.length); d++) lead(d);
    if (d < docs.length) setTimeout(warm, 0, d);
  })(0);

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

  // [the query as typed and with each player word of the synonym table swapped for its
  //  equivalents, the player phrases of several words it holds, alone, with their equivalents
  //  ("can a unit shoot after falling back" -> "fall back move"): tried when the first are few]
  function variants(phrase) {
    var out = [phrase], parts = [], padded = " " + phrase + " ";
    function add(to, v) { if (v && out.indexOf(v) < 0 && parts.indexOf(v) < 0) to.push(v); }
    SYNONYMS.forEach(function (group) {
      group.forEach(function (entry) {
        if (padded.indexOf(" " + entry + " ") < 0) return;
        group.forEach(function (other) {
          if (other !== entry) add(out, padded.split(" " + entry + " ").join(" " + other + " ").trim());
          if (entry !== phrase && entry.indexOf(" ") > 0) add(parts, other);
        });
      });
    });
    return [out, parts];
  }

  function passes(doc) {
    var kind = selKind.value, faction = selFaction.value, edition = selEdition.value;
    return !((kind !== "" && String(doc[1]) !== kind) || (faction !== "" && String(doc[2]) !== faction) ||
             (edition !== "" && String(doc[3]) !== edition));
  }

  // The words of a phrase as a pattern over a folded, space-padded text: each word as typed or
  // with a plural ending; with `prefix`, the last word may be the start of a longer one.
  function phrasePattern(ws, prefix) {
    var parts = ws.map(function (w, k) {
      var e = w.replace(/\+/g, "\\+");
      return prefix && k === ws.length - 1 ? e + "\\S*" : e + "(?:s|es)?";
    });
    return new RegExp(" " + parts.join(" ") + "(?= )");
  }
  function trimStops(ws) {  // "the deep strike rule" still asks for "deep strike"
    var a = 0, b = ws.length;
    while (a < b && STOP.has(ws[a])) a++;
    while (b > a && STOP.has(ws[b - 1])) b--;
    return a < b ? ws.slice(a, b) : ws;
  }
  function required(ws) { return ws.filter(function (w) { return !STOP.has(w) && w.length >= 2; }); }

  // docs holding each word: name words only (`inName`) or name and text terms; `typos`: near spellings;
  // `begun`: the words it begins (the last word typed so far)
  function holding(q, inName, typos, begun) {
    var out = new Map(), typo = q.length >= 8 ? 2 : (q.length >= 4 ? 1 : 0);
    function take(w, s) {
      vocab.get(w).forEach(function (p) {
        if (inName && p[1] !== 3) return;
        var old = out.get(p[0]); if (old === undefined || s > old) out.set(p[0], s);
      });
    }
    if (begun) {
      words.forEach(function (w) { if (w.lastIndexOf(q, 0) === 0) take(w, w === q ? 1 : 0.75); });
      return out;
    }
    if (!typos) {
      [q, q + "s", q + "es"].forEach(function (w) { if (vocab.has(w)) take(w, 1); });
      return out;
    }
    if (!typo) return out;
    for (var k = 0; k < words.length; k++) {
      var w = words[k];
      if (w !== q && w.lastIndexOf(q, 0) !== 0 && within(q, w, typo)) take(w, 0.5);
    }
    return out;
  }
  // doc -> summed score of the docs holding every word; `typing`: the last word may be unfinished
  function everyWord(qs, inName, typos, typing) {
    var total = null;
    qs.forEach(function (q, k) {
      var begun = typing && k === qs.length - 1 && q.length >= 3 && !vocab.has(q);
      var m = holding(q, inName, typos, begun);
      if (typos) holding(q, inName, false).forEach(function (v, d) { m.set(d, v); });
      if (total === null) { total = m; return; }
      var next = new Map();
      total.forEach(function (v, d) { var w = m.get(d); if (w !== undefined) next.set(d, v + w); });
      total = next;
    });
    return total || new Map();
  }

  // hits: doc -> [tier, score]; the better tier (then score) of two wins
  function hit(hits, d, tier, score) {
    var old = hits.get(d);
    if (!old || tier < old[0] || (tier === old[0] && score > old[1])) hits.set(d, [tier, score]);
  }

  // One phrase: its name and lead matches (exact), its loose ones (type-ahead, words apart, typos)
  // and the documents holding all its words anywhere (for the "all text" search).
  function matchPhrase(phrase, hits, loose, anywhere, weight) {
    var ws = trimStops(phrase.split(" ").filter(Boolean)), req = required(ws), n = ws.length;
    if (!ws.length) return;
    // "deep s" is being typed: its last letter is not yet a word to find as it stands
    var exact = n > 1 && ws[n - 1].length < 2 ? / ^/ : phrasePattern(ws, false);
    var typing = phrasePattern(ws, true), whole = " " + ws.join(" ") + " ";
    for (var d = 0; d < docs.length; d++) {
      // every pattern holds the first word as it stands: a plain look for it passes over most documents
      if (names[d].indexOf(ws[0]) < 0 && lead(d).indexOf(ws[0]) < 0) continue;
      var name = " " + names[d] + " ", at = name.search(exact);
      if (at >= 0 && !nameIsLead[d]) {
        // the whole name, then a name that begins with the words, then the share of the name they fill
        var score = (name === whole ? 3 : at === 0 ? 2 : 1) + n / names[d].split(" ").length;
        hit(hits, d, NAME, weight * score);
        continue;
      }
      var text = nameIsLead[d] ? name : lead(d), pos = nameIsLead[d] ? at : text.search(exact);
      if (pos < 0 && nameIsLead[d]) pos = lead(d).search(exact);
      if (pos >= 0) { hit(hits, d, LEAD, weight * (1 - Math.min(pos, 200) / 400)); continue; }
      if (name.search(typing) >= 0) hit(loose, d, PREFIX, weight);
      else if (text.search(typing) >= 0) hit(loose, d, PREFIX, weight / 2);
    }
    if (!req.length) return;
    if (req.length > 1) everyWord(req, true, false).forEach(function (s, d) { hit(loose, d, APART, weight * s); });
    everyWord(req, false, false, req[req.length - 1] === ws[n - 1]).forEach(function (s, d) {
      hit(anywhere, d, TEXT, weight * s);
    });
  }

  // One word that is a name's words run together ("deepstrike", "rerolls"): the names it spells.
  var joined = null;
  function joinedNames(q, hits) {
    if (!joined) joined = names.map(function (n) { return n.split(" ").join(""); });
    for (var d = 0; d < docs.length; d++) {
      var at = joined[d].indexOf(q);
      if (at >= 0 && names[d].indexOf(" ") > 0) hit(hits, d, APART, (at === 0 ? 1 : 0) + q.length / joined[d].length);
    }
  }

  // {best: [doc...], all: [doc...]}: the best matches (at most BEST) and everything holding the words
  function search(query) {
    var raw = query.trim(), hits = new Map(), loose = new Map(), anywhere = new Map();
    var number = raw.replace(/^(rule|r)\s*/i, "");
    if (/^\d+\.(\d+\.?)*$/.test(number) || /^\d{2,}$/.test(number)) {
      // a rule number: the rule, the rules numbered under it, then the numbers it begins (type-ahead)
      byNumber.forEach(function (ds, n) {
        var score = n === number ? 3 : n.lastIndexOf(number.replace(/\.$/, "") + ".", 0) === 0 ? 2 :
          n.lastIndexOf(number, 0) === 0 ? 1 : 0;
        if (score) ds.forEach(function (d) { hit(hits, d, NUMBER, score); });
      });
    }
    var phrase = fold(raw), tries = phrase ? variants(phrase) : [[], []];
    tries[0].forEach(function (v, k) { matchPhrase(v, hits, loose, anywhere, k ? 0.9 : 1); });
    var exactCount = 0;
    function count() {
      exactCount = 0;
      hits.forEach(function (v, d) { if (passes(docs[d])) exactCount++; anywhere.set(d, v); });
    }
    count();
    if (exactCount < FEW && tries[1].length) {
      tries[1].forEach(function (v) { matchPhrase(v, hits, loose, new Map(), 0.8); });
      count();
    }
    if (exactCount < FEW) {
      loose.forEach(function (v, d) { hit(hits, d, v[0], v[1]); });
      if (phrase.length >= 5 && phrase.indexOf(" ") < 0) joinedNames(phrase, hits);
      var qs = required(phrase.split(" ").filter(Boolean));
      if (qs.length) {
        everyWord(qs, true, true).forEach(function (s, d) {  // near spellings, names they fill first
          hit(hits, d, TYPO, s + qs.length / names[d].split(" ").length);
        });
      }
    }
    function ranked(m) {
      var out = [];
      m.forEach(function (v, d) { if (passes(docs[d])) out.push([v[0], v[1], d]); });
      out.sort(function (a, b) {
        var ea = docs[a[2]][3], eb = docs[b[2]][3];
        return a[0] - b[0] || (eb === CURRENT) - (ea === CURRENT) || b[1] - a[1] || eb - ea ||
          (INDEX.kinds[docs[b[2]][1]] === "rule") - (INDEX.kinds[docs[a[2]][1]] === "rule") ||
          (names[a[2]] < names[b[2]] ? -1 : names[a[2]] > names[b[2]] ? 1 : 0);
      });
      var seen = new Set();
      return out.filter(function (h) {  // records printed alike in two files read as one entry
        var doc = docs[h[2]], key = [doc[0], doc[1], doc[2], doc[3], doc[5]].join("\u0000");
        return !seen.has(key) && seen.add(key);
      }).map(function (h) { return h[2]; });
    }
    var best = ranked(hits);
    return { best: best.slice(0, BEST), cut: best.length > BEST, all: ranked(anywhere) };
  }

  function item(d) {
    var doc = docs[d], li = document.createElement("li"), a = document.createElement("a");
    a.href = doc[4]; a.textContent = doc[0]; li.appendChild(a);
    var bits = [KIND_LABELS[INDEX.kinds[doc[1]]] || INDEX.kinds[doc[1]]];
    if (doc[7]) bits.push(doc[7]);
    if (doc[2] >= 0) bits.push(INDEX.factions[doc[2]]);
    if (doc[3]) bits.push(doc[3] + "th ed." + (doc[3] === CURRENT ? " (current)" : ""));
    if (doc[8] >= 0 && INDEX.sources) bits.push(INDEX.sources[doc[8]]);  // where and when it was printed
    var meta = document.createElement("span"); meta.className = "meta"; meta.textContent = " " + bits.join(" \u00b7 ");
    li.appendChild(meta);
    if (doc[5]) { var p = document.createElement("p"); p.className = "snippet"; p.textContent = doc[5]; li.appendChild(p); }
    return li;
  }

  // The URL of the "all text" search for the query and filters (works opened in a new tab too).
  function allTextUrl(query) {
    var params = new URLSearchParams({ q: query.trim(), all: "1" });
    [["kind", selKind], ["faction", selFaction], ["edition", selEdition]].forEach(function (p) {
      if (p[1].value !== "") params.set(p[0], p[1].value);
    });
    return form.getAttribute("action") + "?" + params.toString();
  }
  function link(text, href, onClick) {
    var a = document.createElement("a");
    a.href = href; a.textContent = text;
    a.addEventListener("click", function (ev) { ev.preventDefault(); onClick(); });
    return a;
  }

  var allText = false;  // showing the "all text" search instead of the best matches
  function render(found, query) {
    list.textContent = ""; broader.textContent = "";
    var q = query.trim(), quoted = "\u201c" + q + "\u201d";
    if (!q) { status.textContent = ""; return; }
    var shown = allText ? found.all : found.best;
    if (allText) {
      status.textContent = found.all.length ? found.all.length + (found.all.length === 1 ? " record holds " : " records hold ") +
        "the words of " + quoted + (found.all.length === 1 ? " in its" : " in their") + " name or text" +
        (found.all.length > MAX_ALL ? "; showing the first " + MAX_ALL : "") + "." :
        "No record holds the words of " + quoted + ". Check the filters, or try fewer words.";
      broader.appendChild(link("Back to the best matches for " + quoted, form.getAttribute("action") + "?" +
        new URLSearchParams({ q: q }).toString(), function () { allText = false; update(true); }));
    } else {
      status.textContent = shown.length ? (found.cut || found.all.length > shown.length ? shown.length + " best match" +
        (shown.length === 1 ? "" : "es") : shown.length + " result" + (shown.length === 1 ? "" : "s")) + " for " + quoted + "." :
        "No name or rule opening matches " + quoted + "." + (found.all.length ? "" : " Check the filters, or try fewer words.");
      if (found.all.length > shown.length) {
        broader.appendChild(link("Search all text for " + quoted + " (" + found.all.length +
          (found.all.length === 1 ? " record)" : " records)"), allTextUrl(q), function () { allText = true; update(true); }));
      }
    }
    shown.slice(0, MAX_ALL).forEach(function (d) { list.appendChild(item(d)); });
  }

  var timer = null;
  function update(now) {
    clearTimeout(timer);
    if (now === true) { render(search(input.value), input.value); return; }
    timer = setTimeout(function () { render(search(input.value), input.value); }, 60);
  }
  input.addEventListener("input", function () { allText = false; update(); });
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
  allText = params.get("all") === "1";
  ["kind", "faction", "edition"].forEach(function (k, i) {
    var v = params.get(k), sel = [selKind, selFaction, selEdition][i];
    if (v !== null) sel.value = v;
  });
  if (input.value) update(true);
})();
