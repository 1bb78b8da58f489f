// Table keyboard shortcuts, focus after a swap and the dealing marks. Progressive
// enhancement: every control is a plain form button that works without this file.
(function () {
  "use strict";
  // Answers: A–D or 1–4, T / F (D is Double Down only while no question is up: a button
  // that is disabled never takes a key).
  var KEYS = {
    h: "h", s: "s", d: "d", p: "p", r: "r", n: "n", "?": "?",
    a: "a", b: "b", c: "c", t: "t", f: "f", 1: "a", 2: "b", 3: "c", 4: "d"
  };

  function typingIn(target) {
    if (!target) { return false; }
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  // H Hit, S Stand, D Double, P Split, R Surrender, N Rebet / Deal, ? Hint;
  // on a question A–D / 1–4 or T / F answer it.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) { return; }
    var key = KEYS[(event.key || "").toLowerCase()];
    var table = document.getElementById("table");
    if (!key || !table) { return; }
    if (!settled(table)) {
      // htmx enables the new table's forms only when the swap settles; a click before that
      // would post without htmx (a full page load). Keep the key until then.
      event.preventDefault();
      queuedKey = key;
      return;
    }
    pressKey(table, key, event);
  });

  var queuedKey = null;

  function settled(table) {
    return !table.classList.contains("htmx-added") && !table.classList.contains("htmx-settling");
  }

  function pressKey(table, key, event) {
    var button = table.querySelector('button[data-key="' + key + '"]:not([disabled])');
    if (button) {
      if (event) { event.preventDefault(); }
      button.click();
    }
  }

  // After htmx swaps the table, focus goes where the player needs it next. The swapped-out
  // control is gone (focus falls back to <body>), so we pick a control in the new table:
  // the same control again when the panel did not change (a chip, Hit, Stand), otherwise
  // the new panel's first useful control. Focus the player put elsewhere is left alone.
  var lastSubmit = null;  // { signature, panel } of the control that sent the request

  function controlSignature(button) {
    var form = button.form;
    var action = button.getAttribute("formaction") || (form && form.getAttribute("action")) || "";
    return action + "|" + (button.name || "") + "=" + (button.value || "");
  }

  function usable(element) {
    return element && !element.disabled && element.getClientRects().length > 0;
  }

  function firstUsable(root, selector) {
    var found = root.querySelectorAll(selector);
    for (var i = 0; i < found.length; i++) { if (usable(found[i])) { return found[i]; } }
    return null;
  }

  // The first useful control of a panel; [data-autofocus] lets a panel name its own.
  function primaryControl(table) {
    var chosen = firstUsable(table, "[data-autofocus]");
    if (chosen) { return chosen; }
    if (table.dataset.panel === "bet") {
      var amount = table.querySelector("#bet-amount");
      if (usable(amount) && !amount.value.trim()) { return amount; }
      chosen = firstUsable(table, '.bet-form button[data-key="n"]');
      if (chosen) { return chosen; }
    }
    // A round's outcome: Rebet, the same stakes again in one press.
    if (table.dataset.panel === "outcome") {
      chosen = firstUsable(table, '.bet-form button[data-key="n"]');
      if (chosen) { return chosen; }
    }
    // A panel's own decision first (difficulty, answers, offers); on the
    // player's turn the panel is empty and the first allowed play action is next.
    return firstUsable(table, ".panel button, .panel a.button, .panel input:not([type=hidden])") ||
      firstUsable(table, ".play-actions button") ||
      firstUsable(table, "button, a[href]");
  }

  function sameControlAgain(table) {
    if (!lastSubmit || lastSubmit.panel !== table.dataset.panel) { return null; }
    if (table.dataset.panel === "bet") {
      var amount = table.querySelector("#bet-amount");
      if (usable(amount) && !amount.value.trim()) { return null; }
    }
    var buttons = table.querySelectorAll("button");
    for (var i = 0; i < buttons.length; i++) {
      if (controlSignature(buttons[i]) === lastSubmit.signature && usable(buttons[i])) { return buttons[i]; }
    }
    return null;
  }

  document.addEventListener("submit", function (event) {
    var table = document.getElementById("table");
    if (table && event.submitter && table.contains(event.submitter)) {
      lastSubmit = { signature: controlSignature(event.submitter), panel: table.dataset.panel };
    }
  }, true);

  // The round's answer played out in order (deal_sequence.js, shared with the shared
  // tables): only cards new since the last swap move, 0.4 s apart in the order a dealer
  // deals, and what is new about the result waits for the last of them. The server's
  // markup is the final state: without these scripts it is simply shown.
  var sequences = window.DealSequence || null;

  function ownerOf(element) {
    var circle = element.closest("[data-side-circle]");
    if (circle) { return "circle " + circle.dataset.sideCircle; }
    var sideBet = element.closest("[data-side-bet]");
    if (sideBet) { return "side bet " + sideBet.dataset.sideBet; }
    if (element.closest(".dealer-area")) { return "dealer"; }
    var strip = element.closest(".split-strip li");
    if (strip) {
      var label = strip.querySelector(".strip-label");
      return "strip " + (label ? label.textContent : "");
    }
    var box = element.closest("[data-box]");
    var hand = element.closest("[data-hand]");
    return (box ? "box " + box.dataset.box + " " : "") + (hand ? "hand " + hand.dataset.hand : "table");
  }

  // What the single-player table's result changes. Totals that were there keep their old
  // figure; badges, hand messages, side-bet results and the round's details are hidden in
  // their place (so nothing jumps); a side-bet circle keeps its old look, the chips stay
  // where they were, and the game's end waits. The headline has an id, whose class htmx's
  // settle resets: the felt carries its mark.
  var LAYOUT = {
    areas: function (root) {
      var areas = [];
      root.querySelectorAll(".player-area, .box-hand").forEach(function (area) {
        var box = area.closest("[data-box]");
        areas.push({
          owner: (box ? "box " + box.dataset.box + " " : "") + "hand " + (area.dataset.hand || ""),
          element: area.querySelector(".cards") || area
        });
      });
      var dealer = root.querySelector(".dealer-area .cards");
      if (dealer) { areas.push({ owner: "dealer", element: dealer }); }
      return areas;
    },
    parts: [
      { selector: ".total, .strip-total", hold: "keep" },
      { selector: ".badge, .hand-message, .strip-message, .side-circle__result", hold: "hide" },
      { selector: ".side-bet-results .side-bet, .side-bet-results__won", hold: "hide" },
      { selector: ".side-circle", compare: "classes", hold: "hide", mark: "side-circle--held" },
      { selector: ".message-line", hold: "hide", target: ".felt", mark: "felt--headline-held" },
      { selector: ".round-details, .side-bet-results", compare: "presence", hold: "hide" },
      { selector: ".chip-stack--paid, .betting-circle--taken", compare: "presence", hold: "hide", mark: "chips-held" },
      // The game's end comes after the round's last card and its badges, not over them.
      { selector: ".game-over", compare: "presence", hold: "hide", mark: "game-over--held" }
    ],
    ownerOf: ownerOf,
    bank: {
      selector: '#table [data-testid="bank"]',
      value: function (element) { return Number(element.closest("#table").dataset.bank); }
    },
    // The live region says the round's news once it is shown, not while the cards land.
    announce: function () { sayHeldNews(); }
  };

  var heldNews = null;  // { region, text }: the live region's news, kept back meanwhile

  function holdNews() {
    var region = document.getElementById("status-live");
    if (!region) { return; }
    heldNews = { region: region, text: region.textContent };
    region.textContent = "";
  }

  function sayHeldNews() {
    var news = heldNews;
    heldNews = null;
    // Only into the region this answer brought: a later answer's region says its own news.
    if (news && news.region === document.getElementById("status-live")) {
      news.region.textContent = news.text;
    }
  }

  var before = null;  // what the table showed before the swap under way

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (sequences && target && target.id === "table") { before = sequences.look(target, LAYOUT); }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // Fired once per swapped element: the new table, then the status line (out of band)
    // with the same detail; only the table's own event counts.
    var table = event.target;
    if (!table || table.id !== "table" || !table.isConnected) { return; }
    var previous = before;
    before = null;
    heldNews = null;
    if (sequences && previous && sequences.play(table, previous, LAYOUT)) { holdNews(); }
    focusPending = true;
  });

  // The chips paid into the circle move once the result shows: a press finishes them too.
  function finishChips() {
    document.querySelectorAll("#table .chip-stack").forEach(function (stack) {
      stack.getAnimations().forEach(function (animation) { animation.finish(); });
    });
  }
  document.addEventListener("pointerdown", finishChips, true);
  document.addEventListener("keydown", finishChips, true);

  // Focus moves once the swap has settled: only then has htmx enabled the new table's
  // forms, so a key pressed or Enter on the focused control goes through htmx.
  var focusPending = false;
  document.addEventListener("htmx:afterSettle", function () {
    var table = document.getElementById("table");
    if (!table || !focusPending) { return; }
    focusPending = false;
    var active = document.activeElement;
    var focusLost = !active || active === document.body || !active.isConnected;
    // htmx puts focus back into a field with an id (the bet amount after a refused Deal):
    // the player is typing there, so it stays.
    if (focusLost || (table.contains(active) && !typingIn(active))) {
      // A 409/422 notice (role="alert") announces itself; focus stays on a control.
      var control = sameControlAgain(table) || primaryControl(table);
      // Focus never scrolls: the stage is laid out so the control is already on screen, and a
      // page that moves by itself after an action loses the player's place.
      if (control && control !== active) { control.focus({ preventScroll: true }); }
    }
    lastSubmit = null;
    if (queuedKey) {
      var key = queuedKey;
      queuedKey = null;
      pressKey(table, key, null);
    }
  });

  // Deal waits, disabled with its reason, while nothing is bet (the server marks it
  // data-waits-for-bet and names the reason with aria-describedby); a typed amount is a bet
  // too. Without this script the button stays pressable, so a typed amount can be dealt.
  function waitForBet(root) {
    var field = document.getElementById("bet-amount");
    var empty = !field || field.value.trim() === "";
    (root || document).querySelectorAll("button[data-waits-for-bet]").forEach(function (button) {
      var reason = document.getElementById(button.getAttribute("aria-describedby") || "");
      button.disabled = empty;
      if (empty && reason) { button.title = reason.textContent; } else { button.removeAttribute("title"); }
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "bet-amount") { waitForBet(); }
  });
  document.addEventListener("htmx:afterSwap", function () { waitForBet(); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { waitForBet(); });
  } else {
    waitForBet();
  }

  // The shortcuts list is useful only where this script runs.
  function showShortcuts() {
    var list = document.getElementById("keyboard-shortcuts");
    if (list) { list.hidden = false; }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showShortcuts);
  } else {
    showShortcuts();
  }
})();
