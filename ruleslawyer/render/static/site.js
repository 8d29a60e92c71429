/* Progressive enhancement for list filters (faction pages' stratagems): without JavaScript every item shows. */
(function () {
  "use strict";
  document.querySelectorAll("form.filters[data-filter-list]").forEach(function (form) {
    var list = document.getElementById(form.getAttribute("data-filter-list"));
    if (!list) return;
    var selects = form.querySelectorAll("select[data-attr]");
    var output = form.querySelector(".filter-count");
    function apply() {
      // the filtered items: a stratagem card (or row) carries the data-* the selects name
      var shown = 0, items = list.querySelectorAll("[data-phases]");
      for (var i = 0; i < items.length; i++) {
        var li = items[i], ok = true;
        selects.forEach(function (sel) {
          var want = sel.value, attr = sel.getAttribute("data-attr");
          if (!want) return;
          var have = li.getAttribute("data-" + attr) || "";
          if (attr === "phases") {
            var phases = have.split(" ");
            // a stratagem usable in any phase is usable in the one asked for
            ok = ok && (phases.indexOf(want) >= 0 || phases.indexOf("any") >= 0);
          } else {
            ok = ok && have === want;
          }
        });
        li.hidden = !ok;
        if (ok) shown++;
      }
      if (output) output.textContent = shown + " of " + items.length + " shown";
    }
    form.hidden = false;
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });
    apply();
  });
})();

/* Edition tabs (faction pages): one edition's section at a time, the current edition first.
   Without JavaScript every edition shows, one after the other, and the tabs are plain links. */
(function () {
  "use strict";
  document.querySelectorAll("nav.edition-tabs").forEach(function (nav) {
    var links = Array.prototype.slice.call(nav.querySelectorAll("a[href^='#']"));
    var sections = links.map(function (a) {
      var target = document.getElementById(a.getAttribute("href").slice(1));
      return target ? target.closest("section.edition") : null;
    });
    if (sections.indexOf(null) >= 0) return;
    function show(n) {
      sections.forEach(function (s, i) { s.hidden = i !== n; });
      links.forEach(function (a, i) { if (i === n) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current"); });
    }
    function fromHash() {  // the edition holding the element the address points at, else the first
      var el = window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
      var at = el ? sections.indexOf(el.closest("section.edition")) : -1;
      show(at >= 0 ? at : 0);
    }
    links.forEach(function (a, i) {
      a.addEventListener("click", function (ev) {
        ev.preventDefault();
        show(i);
        if (window.history && history.replaceState) history.replaceState(null, "", a.getAttribute("href"));
        nav.scrollIntoView({ block: "nearest" });
      });
    });
    window.addEventListener("hashchange", fromHash);
    fromHash();
  });
})();
