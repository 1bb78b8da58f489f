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

  // Deal and flip animations only for cards new since the last swap (chosen here, not by the
  // server, because only the page knows what it showed before): remember each card slot
  // (dealer / hand number + position), its card and whether it was face down.
  var cardsBefore = null;

  function cardSlots(table) {
    var slots = {};
    table.querySelectorAll(".dealer-area, .player-area, .box-hand").forEach(function (area) {
      var box = area.closest("[data-box]");
      var owner = area.classList.contains("dealer-area") ? "dealer"
        : (box ? "box" + box.dataset.box : "") + "hand" + (area.dataset.hand || "");
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

  // Marks the cards new since the last swap and returns them in the order they arrive.
  function markNewCards(table) {
    if (!cardsBefore) { return []; }
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
    return arrived.map(function (item, order) {
      item.card.classList.add("deal-order-" + Math.min(order, LAST_DEAL_ORDER));
      return item.card;
    });
  }

  // The result waits for its cards. The server sends the round's end in one answer; while
  // the cards it brought are still arriving (the hole card turning, each draw), what is new
  // about the result is held back: totals keep their old figure, badges, hand messages,
  // side-bet results and the headline are hidden (their space kept, so nothing jumps), the
  // chips stay where they were, the bank keeps its old amount and the live region stays
  // quiet. The server's markup is the final state: without this script it is simply shown.
  // Parts are matched across the swap by where they are (dealer, hand, split strip, box,
  // side-bet circle), so what did not change never blinks. Each kind of part: what about it
  // counts as a change (its text, its classes, or only that it is there) and the class that
  // holds it back (a total that was there keeps its old text instead).
  var RESULT_PARTS = [
    { selector: ".total, .strip-total", compare: "text", mark: "result-held" },
    { selector: ".badge, .hand-message, .strip-message, .side-circle__result", compare: "text", mark: "result-held" },
    { selector: ".side-bet-results .side-bet, .side-bet-results__won", compare: "text", mark: "result-held" },
    { selector: ".side-circle", compare: "classes", mark: "side-circle--held" },
    { selector: ".message-line", compare: "text", mark: "headline" },
    { selector: ".round-details, .side-bet-results", compare: "presence", mark: "result-held" },
    { selector: ".chip-stack--paid, .betting-circle--taken", compare: "presence", mark: "chips-held" },
    // The game's end comes after the round's last card and its badges, not over them.
    { selector: ".game-over", compare: "presence", mark: "game-over--held" }
  ];

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

  function resultParts(table) {
    var parts = {};
    RESULT_PARTS.forEach(function (group) {
      table.querySelectorAll(group.selector).forEach(function (element) {
        var key = element.classList[0] + " " + ownerOf(element);
        var count = 0;
        while (parts[key + " " + count]) { count += 1; }
        var seen = { text: element.textContent, classes: element.className, presence: "" }[group.compare];
        parts[key + " " + count] = { element: element, mark: group.mark, seen: seen };
      });
    });
    return parts;
  }

  var partsBefore = null;
  var held = null;  // the result held back: { undo: [functions], bank: count or null }

  function holdResult(table, cards) {
    var undo = [];
    var before = partsBefore || {};
    var parts = resultParts(table);
    Object.keys(parts).forEach(function (key) {
      var part = parts[key];
      var element = part.element;
      var was = before[key];
      if (was && was.seen === part.seen) { return; }
      if (part.mark === "result-held" && was && element.matches(".total, .strip-total")) {
        var final = element.textContent;
        element.textContent = was.seen;
        undo.push(function () { element.textContent = final; });
      } else if (part.mark === "headline") {
        // The headline has an id: htmx's settle resets its class, so the felt carries the mark.
        var felt = element.closest(".felt") || table;
        felt.classList.add("felt--headline-held");
        undo.push(function () { felt.classList.remove("felt--headline-held"); });
      } else {
        element.classList.add(part.mark);
        undo.push(function () { element.classList.remove(part.mark); });
      }
    });
    var live = document.getElementById("status-live");
    if (live) {
      var announcement = live.textContent;
      live.textContent = "";
      // Only into the region this answer brought: a later answer's region says its own news.
      undo.push(function () {
        var region = document.getElementById("status-live");
        if (region && region === live) { region.textContent = announcement; }
      });
    }
    held = { undo: undo, bank: holdBank(table) };
    var animations = [];
    cards.forEach(function (card) { animations = animations.concat(card.getAnimations()); });
    var sequence = held;
    // A cancelled animation (its card swapped away) rejects: the result is shown all the same.
    Promise.all(animations.map(function (animation) { return animation.finished; })).then(
      function () { showResult(sequence, false); }, function () { showResult(sequence, false); });
  }

  function showResult(sequence, atOnce) {
    if (!sequence || held !== sequence) { return; }
    held = null;
    sequence.undo.forEach(function (step) { step(); });
    if (sequence.bank) { countBank(sequence.bank, atOnce); }
    revealed();
  }

  // Says on document that the table's latest answer is shown whole, its result included
  // ("table:revealed"): sound.js plays a won round's chime then, not when the answer comes.
  function revealed() {
    var table = document.getElementById("table");
    if (table) { document.dispatchEvent(new CustomEvent("table:revealed", { detail: { table: table } })); }
  }

  // Cards that are still moving, at least one of them.
  function moving(cards) {
    return cards.some(function (card) { return card.getAnimations().length > 0; });
  }

  // Nothing waits for an animation: a click or a key press during one shows its end at once,
  // the result and the bank included.
  function finishSequence() {
    document.getAnimations().forEach(function (animation) {
      var target = animation.effect && animation.effect.target;
      if (target && target.classList && (target.classList.contains("playing-card") || target.classList.contains("chip-stack"))) {
        animation.finish();
      }
    });
    showResult(held, true);
    finishBankCount();
  }
  document.addEventListener("pointerdown", finishSequence, true);
  document.addEventListener("keydown", finishSequence, true);

  // The bank counts to its new value after a round is paid (instant under reduced motion).
  var bankBefore = null;
  var bankCount = null;  // the count under way: { final }
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  function dollars(value) {
    return "$" + value.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  // Shows the old amount until the count starts; null when there is nothing to count.
  function holdBank(table) {
    var shown = table.querySelector('[data-testid="bank"]');
    var after = Number(table.dataset.bank);
    var before = bankBefore;
    bankBefore = null;
    if (!shown || before === null || isNaN(after) || before === after || (still && still.matches)) { return null; }
    var count = { before: before, after: after, final: shown.textContent };
    // The old amount at once, so the new one is never seen before the count reaches it.
    shown.textContent = dollars(before);
    return count;
  }

  function bankShown() {
    // Looked up each time: the swap's settling may put a fresh copy in its place.
    return document.querySelector('#table [data-testid="bank"]');
  }

  function finishBankCount() {
    if (!bankCount) { return; }
    var shown = bankShown();
    if (shown) {
      shown.textContent = bankCount.final;
      shown.classList.remove("bank-counting");
    }
    bankCount = null;
  }

  function countBank(count, atOnce) {
    finishBankCount();
    var shown = bankShown();
    if (!shown) { return; }
    if (atOnce) {
      shown.textContent = count.final;
      return;
    }
    bankCount = count;
    var start = null;
    var frames = 0;
    shown.classList.add("bank-counting");
    function step(now) {
      if (bankCount !== count) { return; }
      shown = bankShown();
      if (!shown) { bankCount = null; return; }
      if (start === null) { start = now; }
      // About 0.6 s, and never fewer than 8 frames: a busy machine still sees it count.
      frames += 1;
      var done = Math.min(1, (now - start) / 600, frames / 8);
      if (done < 1) {
        shown.textContent = dollars(count.before + (count.after - count.before) * done);
        window.requestAnimationFrame(step);
      } else {
        finishBankCount();
      }
    }
    window.requestAnimationFrame(step);
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "table") {
      // What the page shows before the swap is the final state of the last answer.
      finishSequence();
      bankBefore = Number(target.dataset.bank);
      var slots = cardSlots(target);
      cardsBefore = {};
      Object.keys(slots).forEach(function (key) {
        cardsBefore[key] = { code: slots[key].code, faceDown: slots[key].faceDown };
      });
      partsBefore = resultParts(target);
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // Fired once per swapped element: the new table, then the status line (out of band)
    // with the same detail; only the table's own event counts.
    var table = event.target;
    if (!table || table.id !== "table" || !table.isConnected) { return; }
    var cards = markNewCards(table);
    cardsBefore = null;
    if (moving(cards)) {
      holdResult(table, cards);
    } else {
      var count = holdBank(table);
      if (count) { countBank(count, false); }
      revealed();
    }
    partsBefore = null;
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
