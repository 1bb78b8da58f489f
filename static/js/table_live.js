// The shared table's live updates (T-10, T-14): one EventSource on the table's stream
// (game/tables/sse.py). No inline script (CSP): the page names the stream on an element
// that table swaps do not replace, and loads this file with defer:
//   <ol id="table-log" data-events-url="/tables/7/events/" data-last-seq="42"> … </ol>
// (data-last-seq: the last event the page already shows; optional.)
// Events (game/tables/views.py table_events, game/tables/sse.py):
//   table    — the table as this viewer sees it: the whole #shared-table element, swapped
//              outerHTML by htmx, so hx- attributes work and elements marked hx-swap-oob
//              replace their namesakes; one whose id is below #shared-table's data-version
//              (an action's answer showed a later table already) is skipped
//   log      — put first in #table-log (the newest line on top)
//   live     — "paused" while the server cannot hear the other servers' news (Redis is
//              down: the stream polls the database meanwhile), "flowing" when it can
//   end      — the stream ends for good ("closed": the table is closed; "gone": the viewer
//              may no longer see it): no reopening, #live-ended says so and offers Reload
// After a table or log event "table:updated" is dispatched on document (detail: event, id).
// #live-status (the page's "reconnecting" notice, worded by the server) is shown while news
// is paused or while this script waits to reopen a stream the browser gave up on.
//
// Reconnecting: the stream ends every minute and the browser reopens it by itself, sending
// Last-Event-ID. When the browser gives up instead (the server answered an error, e.g. a
// proxy's 502 while an app server restarts) this script asks the stream's URL once more
// itself: refused for good (a redirect to the login page, 401/403/404/410: logged out in
// another tab, or no longer let in) ends it as an "end" event would; anything else opens a
// new EventSource with ?after=<last event id>, backing off from 1 s to 30 s, so nothing is
// lost either way. (htmx's SSE extension would open its new EventSource without the last id.)
//
// Also here, for the table's page and the invitation's own page: the headline said through
// #turn-live when it changes ("Your turn"), Invite Link's dialog and its Copy button, and
// the keys of the viewer's controls (H S D P R, N Ready, A–D / 1–4 and T / F answers).
//
// The cards of every swap, the viewer's own answer's and the stream's alike, arrive as at
// the single-player table (deal_sequence.js, loaded before this file): dealt 0.4 s apart,
// the hole card turned, each draw landing, and only then the totals, badges, headline,
// banks and the viewer's new controls; a click finishes it at once. The log's lines of a
// swap wait for its cards too (they would tell the result first), and a stream's table that
// only repeats the one on screen (the viewer's own answer, come back) is not swapped again.
(function () {
  "use strict";

  // ------------------------------------------------------------ the cards, in order

  var sequences = window.DealSequence || null;

  function ownerOf(element) {
    if (element.closest(".dealer-area")) { return "dealer"; }
    var seat = element.closest(".seat");
    if (!seat) { return "table"; }
    var hand = element.closest(".box-hand");
    var index = hand ? Array.prototype.indexOf.call(seat.querySelectorAll(".box-hand"), hand) : -1;
    return "seat " + seat.getAttribute("data-seat") + (hand ? " hand " + index : "");
  }

  function headlineOf(head) {
    var line = head.querySelector(".headline");
    return line ? line.textContent : "";
  }

  // What the shared table's result changes (deal_sequence.js's layout): the totals, the
  // seats' money keep their old figures; badges, statuses, side-bet lines, the headline with
  // its clock and the viewer's new controls wait hidden; the viewer's bank counts.
  var LAYOUT = {
    areas: function (root) {
      var areas = [];
      root.querySelectorAll(".seat").forEach(function (seat) {
        seat.querySelectorAll(".box-hand .cards").forEach(function (cards, index) {
          areas.push({ owner: "seat " + seat.getAttribute("data-seat") + " hand " + index, element: cards });
        });
      });
      var dealer = root.querySelector(".dealer-area .cards");
      if (dealer) { areas.push({ owner: "dealer", element: dealer }); }
      return areas;
    },
    parts: [
      { selector: ".total", hold: "keep" },
      { selector: ".seat__money", hold: "keep" },
      { selector: ".my-status [data-held]", hold: "keep" },
      { selector: ".badge, .hand-message, .seat__status, .seat__side-bets", hold: "hide" },
      { selector: ".felt-head", compare: headlineOf, hold: "hide" },
      { selector: ".my-controls, .watching", hold: "hide" }
    ],
    ownerOf: ownerOf,
    bank: {
      selector: '#shared-table [data-testid="my-bank"]',
      value: function (element) { return Number(element.getAttribute("data-bank")); }
    }
  };

  function lookBefore(target) {
    return sequences && target ? sequences.look(target, LAYOUT) : null;
  }

  function playAfter(before) {
    var table = document.getElementById("shared-table");
    if (!sequences || !before || !table) { return false; }
    return sequences.play(table, before, LAYOUT);
  }

  // The log's new lines, waiting for the table they came with to be shown whole.
  var pendingLog = [];
  var logTimer = null;

  function flushLog() {
    if (logTimer) { window.clearTimeout(logTimer); logTimer = null; }
    var log = document.getElementById("table-log");
    var lines = pendingLog;
    pendingLog = [];
    if (log) { lines.forEach(function (html) { swapInto(log, html, "afterbegin"); }); }
  }

  function queueLog(html) {
    pendingLog.push(html);
    // A stream sends a table after its lines; should it not come, the lines go in anyway.
    if (logTimer) { window.clearTimeout(logTimer); }
    logTimer = window.setTimeout(function () {
      logTimer = null;
      if (!(sequences && sequences.playing())) { flushLog(); }
    }, 2000);
  }

  function swapInto(target, html, style) {
    if (window.htmx && typeof window.htmx.swap === "function") {
      window.htmx.swap(target, html, { swapStyle: style, swapDelay: 0, settleDelay: 0 },
        { contextElement: target });
    } else if (style === "afterbegin") {
      target.insertAdjacentHTML(style, html);
    } else {
      target.outerHTML = html;
    }
  }

  // ------------------------------------------------------------ what every update redoes

  // The headline, said once when it changes (the region is outside the swapped table).
  function announce() {
    if (sequences && sequences.playing()) { return; }  // said once the result is shown
    var table = document.getElementById("shared-table");
    var region = document.getElementById("turn-live");
    if (!table || !region) { return; }
    var line = table.getAttribute("data-announce") || "";
    if (region.textContent !== line) { region.textContent = line; }
  }

  // Copy buttons are shown only where this script can make them work.
  function enhance() {
    document.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
    announce();
  }

  // ------------------------------------------------------------ Invite Link's dialog

  function inviteDialog() {
    return document.getElementById("invite-dialog");
  }

  function openDialog(dialog) {
    if (dialog && !dialog.open && typeof dialog.showModal === "function") { dialog.showModal(); }
  }

  // A live update or an htmx answer replaces the table and the dialog in it: an open dialog
  // opens again (with the link as it is now), focus back on the control it was on.
  function dialogState() {
    var dialog = inviteDialog();
    if (!dialog || !dialog.open) { return null; }
    var active = document.activeElement;
    var focus = null;
    if (active && dialog.contains(active)) {
      focus = active.getAttribute("data-copy") ? "[data-copy]" : (active.id ? "#" + active.id : null);
    }
    return { focus: focus };
  }

  function restoreDialog(state) {
    if (!state) { return; }
    var dialog = inviteDialog();
    openDialog(dialog);
    if (dialog && state.focus) {
      var control = dialog.querySelector(state.focus);
      if (control) { control.focus(); }
    }
  }

  // ------------------------------------------------------------ disclosures and typing

  // A live update or an htmx answer replaces the table: a disclosure the viewer opened (the
  // shoe's commitment, their client seed) stays open, and the field they were typing in
  // keeps the focus and the caret (hx-preserve keeps its value).
  function placeState() {
    var table = document.getElementById("shared-table");
    if (!table) { return null; }
    var open = Array.prototype.map.call(table.querySelectorAll("details[id][open]"),
      function (details) { return details.id; });
    var active = document.activeElement;
    var focus = null;
    if (active && active.id && table.contains(active) && typingIn(active)) {
      focus = { id: active.id, start: active.selectionStart, end: active.selectionEnd };
    }
    return { open: open, focus: focus };
  }

  function restorePlace(state) {
    if (!state) { return; }
    state.open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details && details.tagName === "DETAILS") { details.open = true; }
    });
    var focus = state.focus;
    var field = focus ? document.getElementById(focus.id) : null;
    if (!field || document.activeElement === field) { return; }
    field.focus();
    if (focus.start !== null && typeof field.setSelectionRange === "function") {
      try { field.setSelectionRange(focus.start, focus.end); } catch (error) { /* no caret */ }
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) { return; }
    var opener = target.closest("[data-dialog]");
    if (opener) {
      var dialog = document.getElementById(opener.getAttribute("data-dialog"));
      if (dialog && typeof dialog.showModal === "function") {
        event.preventDefault();
        openDialog(dialog);
      }
      return;
    }
    var copy = target.closest("button[data-copy]");
    if (copy) {
      copyField(copy);
      return;
    }
    if (target.closest("[data-reload]")) { window.location.reload(); }
  });

  function copyField(button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = document.getElementById(button.getAttribute("aria-describedby") || "");
    if (!field) { return; }
    function say(done) {
      if (status) {
        status.textContent = button.getAttribute(done ? "data-copied" : "data-copy-failed") || "";
      }
    }
    function byCommand() {
      field.select();
      try { return document.execCommand("copy"); } catch (error) { return false; }
    }
    field.select();
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      navigator.clipboard.writeText(field.value).then(function () { say(true); },
        function () { say(byCommand()); });
    } else {
      say(byCommand());
    }
  }

  // ------------------------------------------------------------ keys of the viewer's controls

  var KEYS = {
    h: "h", s: "s", d: "d", p: "p", r: "r", n: "n",
    a: "a", b: "b", c: "c", t: "t", f: "f", 1: "a", 2: "b", 3: "c", 4: "d"
  };

  function typingIn(target) {
    if (!target || !target.tagName) { return false; }
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) { return; }
    var dialog = inviteDialog();
    if (dialog && dialog.open) { return; }
    var key = KEYS[(event.key || "").toLowerCase()];
    var controls = document.querySelector("#shared-table .my-controls");
    if (!key || !controls) { return; }
    var button = controls.querySelector('button[data-key="' + key + '"]:not([disabled])');
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // htmx answers to the viewer's own posts (the stream's swaps, also made by htmx, are
  // looked at before and played after by the stream's own handler).
  var heldDialog = null;
  var heldPlace = null;
  var beforeAnswer = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    heldDialog = dialogState();
    heldPlace = placeState();
    var target = event.detail && event.detail.target;
    if (target && target.id === "shared-table") { beforeAnswer = lookBefore(target); }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "shared-table" && beforeAnswer) {
      var before = beforeAnswer;
      beforeAnswer = null;
      playAfter(before);
    }
    enhance();
    restoreDialog(heldDialog);
    heldDialog = null;
    restorePlace(heldPlace);
    heldPlace = null;
  });
  // Once a swap's result is shown: its log lines and its headline, said.
  document.addEventListener("table:revealed", function (event) {
    var table = event.detail && event.detail.table;
    if (table && table.id === "shared-table") { announce(); flushLog(); }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhance);
  } else {
    enhance();
  }

  // ------------------------------------------------------------ the live stream

  var root = document.querySelector("[data-events-url]");
  if (!root || typeof window.EventSource !== "function") { return; }
  var baseUrl = root.getAttribute("data-events-url");
  var lastId = root.getAttribute("data-last-seq") || "";
  var source = null;
  var backoffMs = 1000;
  var timer = null;
  var status = document.getElementById("live-status");
  var newsPaused = status ? !status.hidden : false;
  var streamLost = false;
  var ended = false;
  // Refused for good: the viewer is logged out (the login page's redirect) or not let in.
  var FINAL_STATUSES = [401, 403, 404, 410];

  function showStatus() {
    if (status) { status.hidden = ended || !(newsPaused || streamLost); }
  }

  function streamUrl() {
    if (!lastId) { return baseUrl; }
    return baseUrl + (baseUrl.indexOf("?") === -1 ? "?" : "&") + "after=" + encodeURIComponent(lastId);
  }

  // An action's own answer may have shown a later version already (data-version), or this
  // very one: the stream's table of the same version and the same seat version is the one
  // on screen (swapped again, it would cut short the cards still arriving).
  function isOlderThanShown(target, html, id) {
    var shown = parseInt(target.getAttribute("data-version") || "", 10);
    var incoming = parseInt(id, 10);
    if (isNaN(shown) || isNaN(incoming) || incoming > shown) { return false; }
    if (incoming < shown) { return true; }
    var shownSeat = parseInt(target.getAttribute("data-seat-version") || "", 10);
    var incomingSeat = seatVersionOf(html);
    return !isNaN(shownSeat) && !isNaN(incomingSeat) && incomingSeat <= shownSeat;
  }

  // The viewer's own chips, side bets and Ready change their seat's version, not the
  // table's: a table rendered for the stream just before such a press and arriving after its
  // answer would put the old bet back on screen. Such a table is not shown: the answer on
  // screen is newer for this viewer, and the next update brings the others' news.
  function seatVersionOf(html) {
    var found = /data-seat-version="(\d+)"/.exec(html);
    return found ? parseInt(found[1], 10) : NaN;
  }

  function isOlderSeat(target, html) {
    var shown = parseInt(target.getAttribute("data-seat-version") || "", 10);
    var incoming = seatVersionOf(html);
    return !isNaN(shown) && !isNaN(incoming) && incoming < shown;
  }

  function showTable(html, id) {
    var target = document.getElementById("shared-table");
    if (!target || isOlderThanShown(target, html, id) || isOlderSeat(target, html)) {
      if (!(sequences && sequences.playing())) { flushLog(); }
      return;
    }
    var dialog = dialogState();
    var place = placeState();
    var before = lookBefore(target);
    swapInto(target, html, "outerHTML");
    if (!playAfter(before)) { flushLog(); }
    enhance();
    restoreDialog(dialog);
    restorePlace(place);
  }

  // While the viewer's own post is on its way, a table from the stream waits for its
  // answer: swapped in meanwhile, it would take the place of the element the answer is
  // meant for, and the answer (the chip just pressed) would be lost. Once the answer is in,
  // the table waiting is shown only if it is newer than the answer.
  var posting = 0;
  var heldTable = null;
  var postingTimer = null;

  function showHeldTable() {
    var held = heldTable;
    heldTable = null;
    if (held) { showTable(held.html, held.id); }
  }

  function postDone() {
    posting = Math.max(0, posting - 1);
    if (posting === 0) {
      if (postingTimer) { window.clearTimeout(postingTimer); postingTimer = null; }
      showHeldTable();
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var table = document.getElementById("shared-table");
    if (!table || !event.target || !table.contains(event.target)) { return; }
    posting += 1;
    // An answer that never comes (a request cancelled unseen) holds nothing for long.
    if (postingTimer) { window.clearTimeout(postingTimer); }
    postingTimer = window.setTimeout(function () { postingTimer = null; posting = 1; postDone(); }, 10000);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (posting > 0 && event.detail && event.detail.elt) { postDone(); }
  });

  function handled(name, apply) {
    return function (event) {
      if (event.lastEventId) { lastId = event.lastEventId; }
      apply(event.data);
      document.dispatchEvent(new CustomEvent("table:updated", { detail: { event: name, id: lastId } }));
    };
  }

  // The stream is over for good: say why and offer Reload; the table below, which no
  // longer changes, is dimmed and out of reach (a press could only be refused).
  function endForGood(reason) {
    close();
    ended = true;
    showStatus();
    var table = document.getElementById("shared-table");
    if (table) {
      table.classList.add("shared-table--ended");
      table.inert = true;
    }
    var notice = document.getElementById("live-ended");
    if (!notice) { return; }
    var shown = false;
    notice.querySelectorAll("[data-ended]").forEach(function (line) {
      line.hidden = line.getAttribute("data-ended") !== reason;
      shown = shown || !line.hidden;
    });
    if (!shown) {
      var gone = notice.querySelector('[data-ended="gone"]');
      if (gone) { gone.hidden = false; }
    }
    notice.hidden = false;
  }

  function retryLater() {
    streamLost = true;
    showStatus();
    timer = window.setTimeout(connect, backoffMs);
    backoffMs = Math.min(backoffMs * 2, 30000);
  }

  // The browser gave up on the stream: ask its URL once, to tell a refusal from a hiccup.
  function probe() {
    if (typeof window.fetch !== "function") { retryLater(); return; }
    var controller = typeof window.AbortController === "function" ? new AbortController() : null;
    window.fetch(streamUrl(), {
      headers: { Accept: "text/event-stream" },
      credentials: "same-origin",
      cache: "no-store",
      redirect: "manual",
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      // Only the status matters: the body (a stream, when it answers) is not read.
      if (controller) { controller.abort(); }
      if (response.type === "opaqueredirect" || FINAL_STATUSES.indexOf(response.status) !== -1) {
        endForGood("gone");
      } else {
        retryLater();
      }
    }, retryLater);
  }

  function connect() {
    timer = null;
    if (ended) { return; }
    source = new EventSource(streamUrl());
    source.addEventListener("open", function () {
      backoffMs = 1000;
      streamLost = false;
      showStatus();
    });
    source.addEventListener("live", function (event) {
      newsPaused = event.data === "paused";
      showStatus();
    });
    source.addEventListener("table", handled("table", function (html) {
      if (posting > 0) {
        heldTable = { html: html, id: lastId };
        return;
      }
      showTable(html, lastId);
    }));
    source.addEventListener("log", handled("log", queueLog));
    source.addEventListener("end", function (event) {
      endForGood(event.data);
    });
    source.addEventListener("error", function () {
      // CONNECTING: the browser is reconnecting by itself, with Last-Event-ID.
      if (source && source.readyState === EventSource.CLOSED) {
        source.close();
        source = null;
        probe();
      }
    });
  }

  function close() {
    if (timer) { window.clearTimeout(timer); timer = null; }
    if (source) { source.close(); source = null; }
  }

  // A page put in the back/forward cache holds no connection (site.js reloads a table
  // page restored from it).
  window.addEventListener("pagehide", close);
  connect();
})();
