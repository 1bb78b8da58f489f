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

  // H Hit, S Stand, D Double, P Split, R Surrender, N Next round / Deal / Continue, ? Hint;
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
    // A panel's own decision first (difficulty, answers, offers, Next Round); on the
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

  // Deal and flip animations only for cards new since the last swap (chosen here, not by the
  // server, because only the page knows what it showed before): remember each card slot
  // (dealer / hand number + position), its card and whether it was face down.
  var cardsBefore = null;

  function cardSlots(table) {
    var slots = {};
    table.querySelectorAll(".dealer-area, .player-area").forEach(function (area) {
      var owner = area.classList.contains("dealer-area") ? "dealer" : "hand" + (area.dataset.hand || "");
      area.querySelectorAll(".cards .playing-card").forEach(function (card, index) {
        slots[owner + ":" + index] = {
          card: card, code: card.dataset.card || "", faceDown: card.classList.contains("playing-card--back")
        };
      });
    });
    return slots;
  }

  // The delay of each card is a class (deal-order-0 … in table.css), never a style
  // attribute: under style-src 'self' the browser refuses one whenever it is applied again
  // (htmx's settle copies class and style between elements of the same id).
  var LAST_DEAL_ORDER = 15;

  function markNewCards(table) {
    if (!cardsBefore) { return; }
    var arrived = [];
    var slots = cardSlots(table);
    Object.keys(slots).forEach(function (key) {
      var now = slots[key];
      var before = cardsBefore[key];
      if (before && before.faceDown && !now.faceDown) {
        now.card.classList.add("playing-card--flipped");
      } else if (!before || before.code !== now.code) {
        // A split hand keeps its first card; the slot's new card is the one just dealt.
        now.card.classList.add("playing-card--dealt");
      } else {
        return;
      }
      var position = Number(key.split(":")[1]);
      arrived.push({ card: now.card, position: position, dealer: key.indexOf("dealer") === 0 });
    });
    // In the order a dealer deals: round the table card by card, the player's before the
    // dealer's, so the deal, the hole card's turn and each draw arrive 0.4 s apart.
    arrived.sort(function (a, b) { return a.position - b.position || Number(a.dealer) - Number(b.dealer); });
    arrived.forEach(function (item, order) {
      item.card.classList.add("deal-order-" + Math.min(order, LAST_DEAL_ORDER));
    });
  }

  // Nothing waits for an animation: a click or a key press during one shows its end at once.
  function finishCardAnimations() {
    document.getAnimations().forEach(function (animation) {
      var target = animation.effect && animation.effect.target;
      if (target && target.classList && target.classList.contains("playing-card")) { animation.finish(); }
    });
  }
  document.addEventListener("pointerdown", finishCardAnimations, true);
  document.addEventListener("keydown", finishCardAnimations, true);

  // The bank counts to its new value after a round is paid (instant under reduced motion).
  var bankBefore = null;
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  function dollars(value) {
    return "$" + value.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function countBank(table) {
    var shown = table.querySelector('[data-testid="bank"]');
    var after = Number(table.dataset.bank);
    var before = bankBefore;
    bankBefore = null;
    if (!shown || before === null || isNaN(after) || before === after || (still && still.matches)) { return; }
    var final = shown.textContent;
    var start = null;
    var frames = 0;
    // The old amount at once, so the new one is never seen before the count reaches it.
    shown.textContent = dollars(before);
    shown.classList.add("bank-counting");
    function step(now) {
      // Looked up each frame: the swap's settling may put a fresh copy in its place.
      shown = document.querySelector('#table [data-testid="bank"]');
      if (!shown) { return; }
      if (start === null) { start = now; }
      // About 0.6 s, and never fewer than 8 frames: a busy machine still sees it count.
      frames += 1;
      var done = Math.min(1, (now - start) / 600, frames / 8);
      shown.textContent = done < 1 ? dollars(before + (after - before) * done) : final;
      if (done < 1) { window.requestAnimationFrame(step); } else { shown.classList.remove("bank-counting"); }
    }
    window.requestAnimationFrame(step);
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "table") {
      bankBefore = Number(target.dataset.bank);
      var slots = cardSlots(target);
      cardsBefore = {};
      Object.keys(slots).forEach(function (key) {
        cardsBefore[key] = { code: slots[key].code, faceDown: slots[key].faceDown };
      });
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // Fired once per swapped element: the new table, then the status line (out of band)
    // with the same detail; only the table's own event counts.
    var table = event.target;
    if (!table || table.id !== "table" || !table.isConnected) { return; }
    markNewCards(table);
    cardsBefore = null;
    countBank(table);
    focusPending = true;
  });

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
      if (control && control !== active) { control.focus(); }
    }
    lastSubmit = null;
    if (queuedKey) {
      var key = queuedKey;
      queuedKey = null;
      pressKey(table, key, null);
    }
  });

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
