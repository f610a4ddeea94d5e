// The zone page: offer the browser's own time zone, where scripts run. Without a script the page
// works the same: the reader picks the zone from the list.
(function () {
  "use strict";
  var select = document.getElementById("zone");
  var note = document.getElementById("browser-zone");
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!select || !note || !zone) { return; }
  for (var i = 0; i < select.options.length; i += 1) {
    if (select.options[i].value === zone) {
      if (!select.dataset.chosen) { select.selectedIndex = i; }
      note.textContent = "Your browser's zone is " + zone + ".";
      note.hidden = false;
      return;
    }
  }
}());
