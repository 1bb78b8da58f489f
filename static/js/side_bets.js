// The extra-bet panel (R-SB-20): the fee (20 % of the amount, rounded down to the cent)
// and the chips follow the amount as it is typed or chips are pressed. Money stays in
// integer cents here too: no floating point ever touches an amount. Progressive
// enhancement: without this file the chips post to the server, which answers the same.
(function () {
  "use strict";
  var AMOUNT = /^\s*\$?(\d{1,9})(?:\.(\d{1,2}))?\s*$/;

  function toCents(text) {
    var match = AMOUNT.exec(String(text).replace(/,/g, ""));
    if (!match) { return null; }
    var fraction = match[2] || "";
    while (fraction.length < 2) { fraction += "0"; }
    return parseInt(match[1], 10) * 100 + parseInt(fraction, 10);
  }

  function twoDigits(number) { return (number < 10 ? "0" : "") + number; }

  function plainDollars(cents) {
    return Math.floor(cents / 100) + "." + twoDigits(cents % 100);
  }

  function dollars(cents) {
    var whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return "$" + whole + "." + twoDigits(cents % 100);
  }

  function data(form, name) { return parseInt(form.getAttribute("data-" + name), 10); }

  function feeFor(form, cents) {
    // cents × 20 stays far below 2^53, so this integer division is exact.
    return Math.floor(cents * data(form, "fee-numerator") / data(form, "fee-denominator"));
  }

  // The same words as game/side_bet_panels.extra_chip_refusal.
  function refusal(form, cents) {
    var cap = data(form, "cap-cents");
    if (cents > cap) { return "Over the limit of 5× your base bet (" + dollars(cap) + ")"; }
    var fee = feeFor(form, cents);
    if (cents + fee > data(form, "bank-cents")) {
      return "Your bank does not cover " + dollars(cents) + " and its fee of " + dollars(fee);
    }
    return "";
  }

  function update(form) {
    var input = form.querySelector("[data-extra-amount]");
    var cents = toCents(input.value);
    var fee = form.querySelector("[data-fee]");
    var cost = form.querySelector("[data-cost]");
    var problem = form.querySelector("[data-problem]");
    var why;
    if (cents === null) {
      fee.textContent = "—";
      cost.textContent = "—";
      why = "Type the extra bet in dollars, such as 25 or 12.50.";
    } else {
      fee.textContent = dollars(feeFor(form, cents));
      cost.textContent = dollars(cents + feeFor(form, cents));
      why = refusal(form, cents);
      if (!why && cents < data(form, "min-cents")) {
        why = "The extra bet must be at least " + dollars(data(form, "min-cents"));
      }
    }
    problem.textContent = why ? why + "." : "";
    problem.hidden = !why;
    Array.prototype.forEach.call(form.querySelectorAll("button[data-chip-cents]"), function (chip) {
      var reason = refusal(form, (cents || 0) + parseInt(chip.getAttribute("data-chip-cents"), 10));
      chip.disabled = Boolean(reason);
      if (reason) { chip.title = reason; } else { chip.removeAttribute("title"); }
    });
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-extra-bet]");
    if (form) { update(form); }
  });

  document.addEventListener("click", function (event) {
    var chip = event.target.closest && event.target.closest("form[data-extra-bet] button[data-chip-cents]");
    if (!chip) { return; }
    event.preventDefault();
    var form = chip.form;
    var input = form.querySelector("[data-extra-amount]");
    var cents = toCents(input.value) || 0;
    input.value = plainDollars(cents + parseInt(chip.getAttribute("data-chip-cents"), 10));
    update(form);
    // A chip that no longer fits is disabled: keep the keyboard focus somewhere useful.
    if (chip.disabled) { input.focus(); }
  });
})();
