// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  // Disable the control that sent an htmx request until the answer arrives, so a double
  // click sends one post (pages also set hx-disabled-elt; this covers plain forms too).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.submitted === "1") { event.preventDefault(); return; }
    if (!form.hasAttribute("hx-post")) { form.dataset.submitted = "1"; }
  });
  // A page restored from the back/forward cache must accept a submit again, and a table
  // restored so would show a moment that is over (a question already answered): fetch it
  // anew. (The server sends no-store, which most browsers already honour by not caching.)
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("table")) {
      window.location.reload();
      return;
    }
    document.querySelectorAll("form[data-submitted]").forEach(function (form) {
      delete form.dataset.submitted;
    });
  });
})();
