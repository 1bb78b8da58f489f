// Side-bet menu: after htmx swaps the table, put focus back on the button that was pressed
// (same id in the new table), so keyboard users can press a chip again or walk on from
// there. Progressive enhancement only: without JavaScript the buttons are plain forms.
(function () {
  "use strict";
  var pressedId = null;

  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    pressedId = button && button.id && button.closest(".side-bets") ? button.id : null;
  }, true);

  document.addEventListener("htmx:afterSettle", function () {
    if (!pressedId) { return; }
    var button = document.getElementById(pressedId);
    pressedId = null;
    if (button && !button.disabled) { button.focus({ preventScroll: true }); }
  });
})();
