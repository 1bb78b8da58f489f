// A table's new cards played out in order, and the result held back until they have landed
// (UI.md "The flow of a round": the hole card turns, each draw lands about 0.4 s apart, and
// only then do the totals, badges, headline, chips and bank change; a click finishes it at
// once; instant under prefers-reduced-motion). The server answers in one response: the
// markup it sends is the final state, shown as it is without this file.
//
// No table's markup is known here: a page describes its own in a layout, and calls
//   var before = DealSequence.look(root, layout);   // just before its table is swapped
//   DealSequence.play(newRoot, before, layout);      // just after
// Layout: {
//   areas(root)   — the places cards lie, in the order a dealer deals to them (the dealer
//                   last): [{ owner: "seat 1 hand 0", element }]; a card's slot is its owner
//                   and its place in the element's .playing-card list
//   parts         — what a result changes: [{ selector, compare, hold, target }] where
//                   compare is "text", "classes", "presence" or function (element) → string,
//                   hold is "keep" (a part that was there keeps its old content until the
//                   cards have landed; a new one is hidden) or "hide" (hidden while held),
//                   target (optional) a selector of the ancestor hidden instead, and mark
//                   (optional) the class that holds it (default result-held)
//   ownerOf(el)   — whose a part is ("dealer", "seat 3 hand 0"): parts are matched across
//                   the swap by owner, so what did not change never blinks
//   bank          — optional { selector, value(element) → number }: the bank counts up or
//                   down to its new value once the cards have landed
//   announce()    — optional: said once the result is shown (the page's live region)
// The classes are the single-player table's (table.css): playing-card--dealt / --flipped with
// deal-order-0 … deal-order-15 for the 0.4 s steps, result-held to hide, bank-counting.
// Once a swap's result is shown "table:revealed" is dispatched on document (detail: table).
(function () {
  "use strict";
  var LAST_DEAL_ORDER = 15;
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var held = null;       // the sequence under way: { undo: [functions], bank, root, layout }
  var bankCount = null;  // the bank's count under way: { final, selector }

  function calm() { return Boolean(still && still.matches); }

  // ------------------------------------------------------------------ cards

  function cardSlots(root, layout) {
    var slots = {};
    layout.areas(root).forEach(function (area, order) {
      area.element.querySelectorAll(".playing-card").forEach(function (card, index) {
        slots[area.owner + ":" + index] = {
          card: card,
          order: order,
          position: index,
          code: card.getAttribute("data-card") || "",
          faceDown: card.classList.contains("playing-card--back")
        };
      });
    });
    return slots;
  }

  // Marks the cards new since ``before`` and returns them in the order they arrive: round
  // the table card by card, each area in the layout's order, so the deal, the hole card's
  // turn and each draw come 0.4 s apart.
  function markNewCards(root, before, layout) {
    var arrived = [];
    var slots = cardSlots(root, layout);
    Object.keys(slots).forEach(function (key) {
      var now = slots[key];
      var was = before[key];
      if (was && was.faceDown && !now.faceDown) {
        now.card.classList.add("playing-card--flipped");
      } else if (!was || was.code !== now.code || was.faceDown !== now.faceDown) {
        // A split hand keeps its first card; the slot's new card is the one just dealt.
        now.card.classList.add("playing-card--dealt");
      } else {
        return;
      }
      arrived.push(now);
    });
    arrived.sort(function (a, b) { return a.position - b.position || a.order - b.order; });
    return arrived.map(function (slot, order) {
      slot.card.classList.add("deal-order-" + Math.min(order, LAST_DEAL_ORDER));
      return slot.card;
    });
  }

  function moving(cards) {
    return cards.some(function (card) { return card.getAnimations().length > 0; });
  }

  // ------------------------------------------------------------------ the result

  function seenOf(part, element) {
    if (typeof part.compare === "function") { return part.compare(element); }
    if (part.compare === "classes") { return element.className; }
    if (part.compare === "presence") { return ""; }
    return element.textContent;
  }

  function resultParts(root, layout) {
    var parts = {};
    layout.parts.forEach(function (part) {
      root.querySelectorAll(part.selector).forEach(function (element) {
        var key = part.selector + " " + layout.ownerOf(element);
        var count = 0;
        while (parts[key + " " + count]) { count += 1; }
        parts[key + " " + count] = { element: element, part: part, seen: seenOf(part, element) };
      });
    });
    return parts;
  }

  function hide(element, mark, undo) {
    element.classList.add(mark);
    undo.push(function () { element.classList.remove(mark); });
  }

  function holdParts(root, before, layout) {
    var undo = [];
    var parts = resultParts(root, layout);
    Object.keys(parts).forEach(function (key) {
      var now = parts[key];
      var was = before[key];
      if (was && was.seen === now.seen) { return; }
      var element = now.element;
      if (now.part.hold === "keep" && was && !now.part.target) {
        // The markup, not only the text: a part may hold a visually hidden label.
        var final = element.innerHTML;
        element.innerHTML = was.html;
        undo.push(function () { element.innerHTML = final; });
        return;
      }
      var shown = (now.part.target && element.closest(now.part.target)) || element;
      hide(shown, now.part.mark || "result-held", undo);
    });
    return undo;
  }

  // ------------------------------------------------------------------ the bank

  function dollars(value) {
    return "$" + value.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function bankOf(root, layout) {
    if (!layout.bank) { return null; }
    var shown = root.querySelector(layout.bank.selector);
    if (!shown) { return null; }
    var value = layout.bank.value(shown);
    return isNaN(value) ? null : value;
  }

  // Shows the old amount until the count starts; null when there is nothing to count.
  function holdBank(root, layout, before) {
    var after = bankOf(root, layout);
    if (before === null || after === null || before === after || calm()) { return null; }
    var shown = root.querySelector(layout.bank.selector);
    var count = { before: before, after: after, final: shown.textContent, selector: layout.bank.selector };
    shown.textContent = dollars(before);
    return count;
  }

  function finishBankCount() {
    if (!bankCount) { return; }
    // Looked up each time: a swap's settling may put a fresh copy in its place.
    var shown = document.querySelector(bankCount.selector);
    if (shown) {
      shown.textContent = bankCount.final;
      shown.classList.remove("bank-counting");
    }
    bankCount = null;
  }

  function countBank(count, atOnce) {
    finishBankCount();
    var shown = document.querySelector(count.selector);
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
      shown = document.querySelector(count.selector);
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

  // ------------------------------------------------------------------ the sequence

  function revealed(sequence) {
    if (sequence.layout.announce) { sequence.layout.announce(); }
    document.dispatchEvent(new CustomEvent("table:revealed", { detail: { table: sequence.root } }));
  }

  function show(sequence, atOnce) {
    if (!sequence || held !== sequence) { return; }
    held = null;
    sequence.undo.forEach(function (step) { step(); });
    if (sequence.bank) { countBank(sequence.bank, atOnce); }
    revealed(sequence);
  }

  // What the page shows of ``root`` now: the final state of its last swap.
  function look(root, layout) {
    finish();
    var slots = cardSlots(root, layout);
    var cards = {};
    Object.keys(slots).forEach(function (key) {
      cards[key] = { code: slots[key].code, faceDown: slots[key].faceDown };
    });
    var parts = resultParts(root, layout);
    Object.keys(parts).forEach(function (key) {
      parts[key] = { seen: parts[key].seen, html: parts[key].element.innerHTML };
    });
    return { cards: cards, parts: parts, bank: bankOf(root, layout) };
  }

  // ``root`` has just replaced what ``before`` looked at: its new cards arrive in order and
  // what its result changed waits for them. Returns whether a sequence is under way.
  function play(root, before, layout) {
    finish();
    if (!before || !root || !root.isConnected) { return false; }
    var cards = markNewCards(root, before.cards, layout);
    var sequence = { undo: [], bank: null, root: root, layout: layout };
    if (!moving(cards)) {
      var count = holdBank(root, layout, before.bank);
      if (count) { countBank(count, false); }
      // Said once every listener of the swap itself has run.
      window.setTimeout(function () { revealed(sequence); }, 0);
      return false;
    }
    sequence.undo = holdParts(root, before.parts, layout);
    sequence.bank = holdBank(root, layout, before.bank);
    held = sequence;
    var animations = [];
    cards.forEach(function (card) { animations = animations.concat(card.getAnimations()); });
    // A cancelled animation (its card swapped away) rejects: the result is shown all the same.
    Promise.all(animations.map(function (animation) { return animation.finished; })).then(
      function () { show(sequence, false); }, function () { show(sequence, false); });
    return true;
  }

  // Nothing waits for an animation: a click or a key press during one shows its end at once,
  // the result and the bank included.
  function finish() {
    if (held) {
      var root = held.root;
      root.querySelectorAll(".playing-card").forEach(function (card) {
        card.getAnimations().forEach(function (animation) { animation.finish(); });
      });
    }
    show(held, true);
    finishBankCount();
  }

  function playing() { return held !== null; }

  document.addEventListener("pointerdown", finish, true);
  document.addEventListener("keydown", finish, true);

  window.DealSequence = { look: look, play: play, finish: finish, playing: playing };
})();
