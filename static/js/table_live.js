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
// After a table or log event "table:updated" is dispatched on document (detail: event, id).
// #live-status (the page's "reconnecting" notice, worded by the server) is shown while news
// is paused or while this script waits to reopen a stream the browser gave up on.
//
// Reconnecting: the stream ends every minute and the browser reopens it by itself, sending
// Last-Event-ID. When the browser gives up instead (the server answered an error, e.g. a
// proxy's 502 while an app server restarts) this script opens a new EventSource with
// ?after=<last event id>, backing off from 1 s to 30 s, so nothing is lost either way.
// (htmx's SSE extension would open its new EventSource without the last id.)
(function () {
  "use strict";
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

  function showStatus() {
    if (status) { status.hidden = !(newsPaused || streamLost); }
  }

  function streamUrl() {
    if (!lastId) { return baseUrl; }
    return baseUrl + (baseUrl.indexOf("?") === -1 ? "?" : "&") + "after=" + encodeURIComponent(lastId);
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

  // An action's own answer may have shown a later version already (data-version).
  function isOlderThanShown(target) {
    var shown = parseInt(target.getAttribute("data-version") || "", 10);
    var incoming = parseInt(lastId, 10);
    return !isNaN(shown) && !isNaN(incoming) && incoming < shown;
  }

  function handled(name, apply) {
    return function (event) {
      if (event.lastEventId) { lastId = event.lastEventId; }
      apply(event.data);
      document.dispatchEvent(new CustomEvent("table:updated", { detail: { event: name, id: lastId } }));
    };
  }

  function connect() {
    timer = null;
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
      var target = document.getElementById("shared-table");
      if (!target || isOlderThanShown(target)) { return; }
      swapInto(target, html, "outerHTML");
    }));
    source.addEventListener("log", handled("log", function (html) {
      var log = document.getElementById("table-log");
      if (log) { swapInto(log, html, "afterbegin"); }
    }));
    source.addEventListener("error", function () {
      // CONNECTING: the browser is reconnecting by itself, with Last-Event-ID.
      if (source && source.readyState === EventSource.CLOSED) {
        source.close();
        source = null;
        streamLost = true;
        showStatus();
        timer = window.setTimeout(connect, backoffMs);
        backoffMs = Math.min(backoffMs * 2, 30000);
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
