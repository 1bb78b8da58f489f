// Sound at both tables, off until the player turns it on with the Sound toggle in the top
// bar (templates/game/_sound_toggle.html); the choice is kept in this browser. Every sound is
// made here with the Web Audio API, no audio files: a soft tick as each card lands, a clack
// for a chip put on a spot, a rising chime for a won round.
//
// No AudioContext exists before the player turns sound on: the first one is made by that
// click (browsers let a page start audio only after a gesture). When the choice was kept from
// an earlier visit, the context waits for the page's first click or key press the same way.
//
// Hooks (nothing here re-binds a handler after a swap; all listen on document):
//   cards  — both tables animate each new card (table.js, deal_sequence.js: card-deal,
//            card-flip, 0.4 s apart): a tick at each animation's end. Where cards do not
//            move (reduced motion) a swap that brings more cards ticks once per card.
//   chips  — a chip or a betting spot submitting its form.
//   a win  — once the table says its result is shown (table:revealed): single-player,
//            #table[data-round-won]; shared, the viewer's own seat's badges netting a gain.
(function () {
  "use strict";
  var STORAGE_KEY = "blackjack-trivia:sound";
  var VOLUME = 0.15;
  var AudioContextClass = window.AudioContext || window.webkitAudioContext;
  if (!AudioContextClass) { return; }  // the toggles stay hidden: nothing could play

  var enabled = remembered();
  var context = null;
  var master = null;
  var noise = null;
  var lastTick = 0;
  var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  function remembered() {
    try { return window.localStorage.getItem(STORAGE_KEY) === "on"; } catch (error) { return false; }
  }

  function remember() {
    try {
      if (enabled) { window.localStorage.setItem(STORAGE_KEY, "on"); } else { window.localStorage.removeItem(STORAGE_KEY); }
    } catch (error) { /* storage refused (private mode): the choice lasts for this page */ }
  }

  // ------------------------------------------------------------------ the toggle

  function showToggles(root) {
    root.querySelectorAll("[data-sound-toggle]").forEach(function (toggle) {
      toggle.setAttribute("aria-pressed", enabled ? "true" : "false");
      toggle.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-sound-toggle]");
    if (!toggle) { return; }
    enabled = !enabled;
    remember();
    showToggles(document);
    if (enabled) {
      play(cardTick);  // made (and heard) inside the click, as browsers ask
    } else if (context && context.state === "running") {
      context.suspend();  // a chime already under way stops too
    }
  });

  // ------------------------------------------------------------------ the audio

  // The context, made or woken only while sound is on and only once the page has had a
  // click or key press (before that a browser keeps it silent and warns).
  function audio() {
    if (!enabled) { return null; }
    if (!context) {
      var activation = navigator.userActivation;
      if (activation && !activation.hasBeenActive) { return null; }
      context = new AudioContextClass();
      master = context.createGain();
      master.gain.value = VOLUME;
      master.connect(context.destination);
    }
    if (context.state === "suspended") {
      var waking = context.resume();
      if (waking && waking.catch) { waking.catch(function () { /* tried again on the next sound */ }); }
    }
    return context;
  }

  // A remembered "on" wakes the context at the page's first gesture, so the first sound,
  // which may come a moment after it (a card landing), is heard.
  function wake(event) {
    if (event.target.closest && event.target.closest("[data-sound-toggle]")) { return; }
    if (enabled && (!context || context.state === "suspended")) { audio(); }
  }
  document.addEventListener("pointerdown", wake, true);
  document.addEventListener("keydown", wake, true);

  function play(sound, delay) {
    var ctx = audio();
    if (ctx) { sound(ctx, ctx.currentTime + 0.01 + (delay || 0)); }
  }

  function noiseBuffer(ctx) {
    if (!noise) {
      noise = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.3), ctx.sampleRate);
      var samples = noise.getChannelData(0);
      for (var i = 0; i < samples.length; i++) { samples[i] = Math.random() * 2 - 1; }
    }
    return noise;
  }

  // A gain that rises to `peak` in a few milliseconds and dies away over `decay` seconds.
  function envelope(ctx, at, peak, decay) {
    var gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(peak, at + 0.004);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + decay);
    gain.connect(master);
    return gain;
  }

  function tone(ctx, at, shape, from, to, peak, decay) {
    var oscillator = ctx.createOscillator();
    oscillator.type = shape;
    oscillator.frequency.setValueAtTime(from, at);
    if (to !== from) { oscillator.frequency.exponentialRampToValueAtTime(to, at + decay); }
    oscillator.connect(envelope(ctx, at, peak, decay));
    oscillator.start(at);
    oscillator.stop(at + decay + 0.02);
  }

  function hiss(ctx, at, filterType, frequency, peak, decay) {
    var source = ctx.createBufferSource();
    source.buffer = noiseBuffer(ctx);
    var filter = ctx.createBiquadFilter();
    filter.type = filterType;
    filter.frequency.value = frequency;
    source.connect(filter);
    filter.connect(envelope(ctx, at, peak, decay));
    source.start(at, Math.random() * 0.2);
    source.stop(at + decay + 0.02);
  }

  // A card on the felt: a short papery snap over a soft low thud.
  function cardTick(ctx, at) {
    hiss(ctx, at, "bandpass", 2600, 0.7, 0.05);
    tone(ctx, at, "sine", 190, 90, 0.45, 0.06);
  }

  // A clay chip on a stack: a bright click, and a fainter one as it settles.
  function chipClack(ctx, at) {
    [[0, 1], [0.06, 0.4]].forEach(function (bounce) {
      var when = at + bounce[0];
      var level = bounce[1];
      hiss(ctx, when, "highpass", 3000, 0.4 * level, 0.025);
      tone(ctx, when, "triangle", 2400, 2250, 0.4 * level, 0.07);
      tone(ctx, when, "sine", 3720, 3600, 0.18 * level, 0.05);
    });
  }

  // A won round: four notes rising (C E G C), each with a faint octave above.
  function winChime(ctx, at) {
    [523.25, 659.25, 783.99, 1046.5].forEach(function (frequency, index) {
      var when = at + index * 0.09;
      tone(ctx, when, "sine", frequency, frequency, 0.5, 0.7);
      tone(ctx, when, "triangle", frequency * 2, frequency * 2, 0.08, 0.35);
    });
  }

  // One tick however many cards land at once (a click that finishes every animation).
  function tick(delay) {
    var now = window.performance.now() + (delay || 0) * 1000;
    if (now - lastTick < 60) { return; }
    lastTick = now;
    play(cardTick, delay);
  }

  // ------------------------------------------------------------------ the hooks

  document.addEventListener("animationend", function (event) {
    if (event.animationName === "card-deal" || event.animationName === "card-flip") { tick(0); }
  }, true);

  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (button && button.matches(".chip, .bet-spot")) { play(chipClack); }
  }, true);

  // What a table region showed last: its cards (face down ones apart) and, at a shared
  // table, whether the viewer's own seat shows a gain.
  var shown = {};

  function look(region) {
    var seen = { cards: 0, faces: 0, won: false, round: region.dataset.round || "" };
    region.querySelectorAll(".playing-card").forEach(function (card) {
      seen.cards += 1;
      if (!card.classList.contains("playing-card--back")) { seen.faces += 1; }
    });
    if (region.id === "table") {
      seen.won = region.hasAttribute("data-round-won");
    } else {
      var net = 0;
      region.querySelectorAll(".seat--mine .badge[data-net]").forEach(function (badge) {
        net += Number(badge.dataset.net) || 0;
      });
      seen.won = net > 0;
    }
    return seen;
  }

  function tableRegions(root) {
    var regions = [];
    ["table", "shared-table"].forEach(function (id) {
      var region = root.id === id ? root : root.querySelector && root.querySelector("#" + id);
      if (region) { regions.push(region); }
    });
    return regions;
  }

  // The single-player table's won round chimes once, when its result is shown; so does the
  // shared table's, once the swap that brought it has shown it (deal_sequence.js).
  var chimedRound = null;
  var sharedWinPending = false;

  function arrived(region) {
    var before = shown[region.id];
    var now = look(region);
    shown[region.id] = now;
    if (!before) { return; }
    var animated = !(still && still.matches);
    var dealt = Math.max(now.cards - before.cards, now.faces - before.faces, 0);
    if (!animated) {
      for (var i = 0; i < Math.min(dealt, 4); i++) { tick(i * 0.09); }
    }
    if (region.id === "shared-table") { sharedWinPending = now.won && !before.won; }
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    // Fired for each element a swap put in: the table, and out-of-band parts of it.
    showToggles(event.target);
    tableRegions(event.target).forEach(arrived);
  });

  document.addEventListener("table:revealed", function (event) {
    var table = event.detail && event.detail.table;
    if (table && table.id === "shared-table") {
      if (sharedWinPending) { sharedWinPending = false; play(winChime); }
      return;
    }
    if (!table || !table.hasAttribute("data-round-won")) { return; }
    var round = table.dataset.round || "";
    if (round === chimedRound) { return; }
    chimedRound = round;
    play(winChime);
  });

  function start() {
    showToggles(document);
    tableRegions(document).forEach(function (region) {
      shown[region.id] = look(region);
      // A won round already on screen when the page opens was heard before, if at all.
      if (region.id === "table" && shown.table.won) { chimedRound = shown.table.round; }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
