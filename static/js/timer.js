// The decision and answer clocks. The server keeps the deadline and
// enforces it; this only shows it: whole seconds counted down from what the page said
// when it was made (so the player's own clock does not matter), the last five seconds
// announced to screen readers, and at 0 the table fetched again to show the server's
// verdict (the hand stood, or the answer counted as wrong).
(function () {
  "use strict";
  var ANNOUNCED = 5;
  var running = null;

  function stop() {
    if (running !== null) { window.clearInterval(running); running = null; }
  }

  function refresh(timer) {
    var url = timer.getAttribute("data-table-url");
    // A shared table has none: its live stream brings the server's verdict.
    if (!url) { return; }
    if (window.htmx) {
      window.htmx.ajax("GET", url, { target: "#table", swap: "outerHTML" });
    } else {
      window.location.assign(url);
    }
  }

  function start() {
    stop();
    var timer = document.querySelector(".timer[data-seconds-left]");
    if (!timer) { return; }
    var count = timer.querySelector(".timer__count");
    var announce = timer.querySelector(".timer__announce");
    var endsAt = Date.now() + 1000 * parseInt(timer.getAttribute("data-seconds-left"), 10);
    function tick() {
      var left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      count.textContent = String(left);
      timer.classList.toggle("timer--urgent", left <= ANNOUNCED);
      if (left > 0 && left <= ANNOUNCED) {
        announce.textContent = left + (left === 1 ? " second" : " seconds");
      }
      if (left === 0) {
        stop();
        announce.textContent = "Time ran out";
        // A moment's grace so the server's clock has passed the deadline too.
        window.setTimeout(function () { refresh(timer); }, 300);
      }
    }
    tick();
    running = window.setInterval(tick, 250);
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSettle", start);
  document.addEventListener("table:updated", start);
})();
