// The chip rack and the betting spots: after htmx swaps the table, put focus back on the
// button that was pressed (same id in the new table), so keyboard users can press a chip or
// a spot again, or walk on from there. Progressive enhancement only: without JavaScript the
// buttons are plain submit buttons of the bet form.
(function () {
  "use strict";
  var pressedId = null;

  function inBetForm(button) {
    return button.closest(".bet-form") || button.getAttribute("form") === "bet-form";
  }

  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    pressedId = button && button.id && inBetForm(button) ? button.id : null;
  }, true);

  document.addEventListener("htmx:afterSettle", function () {
    if (!pressedId) { return; }
    var button = document.getElementById(pressedId);
    pressedId = null;
    if (button && !button.disabled) { button.focus({ preventScroll: true }); }
  });
})();
