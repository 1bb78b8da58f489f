// The Options menu: an option that needs others switches them on, visibly. Progressive
// enhancement: without this file the server applies the same "needs" when the form is sent.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var needsData = document.getElementById("option-needs");
    if (!needsData || !event.target.name) { return; }
    var needs = JSON.parse(needsData.textContent)[event.target.name];
    if (!needs || !event.target.checked) { return; }
    needs.forEach(function (name) {
      var box = document.querySelector('input[name="' + name + '"]');
      if (box && !box.checked) {
        box.checked = true;
        var field = box.closest(".field");
        if (field && !field.querySelector(".implied")) {
          var note = document.createElement("span");
          note.className = "help implied";
          note.textContent = "Switched on: another option needs it.";
          field.appendChild(note);
        }
      }
    });
  });
})();
