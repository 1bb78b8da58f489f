// The Daily Shoe's Share button (FAIRNESS.md D-7): copies the spoiler-free summary with the
// Clipboard API; without it (or without JavaScript) the summary stays a selectable text.
(function () {
  "use strict";

  function say(button, text) {
    const note = button.parentElement.querySelector("[data-copy-note]");
    if (note) { note.textContent = text; }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) { return; }
    const field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) { return; }
    try {
      await navigator.clipboard.writeText(field.value);
      say(button, "Copied: paste it anywhere.");
    } catch (error) {
      field.select();
      say(button, "Select the text above and copy it.");
    }
  });
})();
