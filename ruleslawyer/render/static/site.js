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
