// The Options menu: an option that needs others switches them on, visibly; an option that
// makes others inactive (simple, an infinite shoe) says so beside them. Progressive
// enhancement: without this file the server applies the same "needs" when the form is sent
// and marks the inactive options when the menu is shown.
(function () {
  "use strict";

  function data(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : {};
  }

  function fieldOf(name) {
    var input = document.querySelector('[name="' + name + '"]');
    return input ? { input: input, field: input.closest(".field") } : null;
  }

  // A needed checkbox is ticked; a needed number (splits of aces) goes from 0 to 1.
  function switchOn(name) {
    var found = fieldOf(name);
    if (!found) { return; }
    var input = found.input;
    if (input.type === "checkbox") {
      if (input.checked) { return; }
      input.checked = true;
    } else if (input.tagName === "SELECT" && input.value === "0") {
      input.value = "1";
    } else {
      return;
    }
    if (found.field && !found.field.querySelector(".implied")) {
      var note = document.createElement("span");
      note.className = "help implied";
      note.textContent = "Switched on: another option needs it.";
      found.field.appendChild(note);
    }
  }

  function isOn(input) {
    if (input.type === "checkbox") { return input.checked; }
    return input.value === "infinite";
  }

  // The notes of one inactivating option (its entry: the note, then the options it marks).
  function markInactive(entry, on) {
    var text = entry[0];
    entry.slice(1).forEach(function (name) {
      var found = fieldOf(name);
      if (!found || !found.field) { return; }
      var note = found.field.querySelector('[data-inactive-note]');
      if (on && !note) {
        note = document.createElement("span");
        note.className = "help inactive";
        note.setAttribute("data-inactive-note", "");
        note.textContent = text;
        found.field.appendChild(note);
      } else if (!on && note && note.textContent === text) {
        note.remove();
      }
    });
  }

  document.addEventListener("change", function (event) {
    var name = event.target.name;
    if (!name) { return; }
    var needs = data("option-needs")[name];
    if (needs && event.target.checked) {
      needs.forEach(switchOn);
    }
    var inactive = data("option-inactive")[name];
    if (inactive) { markInactive(inactive, isOn(event.target)); }
  });
})();
