// The Fairness page's own check of revealed shoes (FAIRNESS.md F-7): the browser rebuilds
// each shoe from its seed with Web Crypto and compares the cards the site says it dealt, so
// the verdict does not rest on the server's word. The same rules as tools/verify_shoe.py,
// written out again here on purpose; both are tested against tools/fairness_vectors.json.
//
//   F-3 stream:   block k = HMAC-SHA256(key = server seed, "{client}:{nonce}:{purpose}:{k}")
//   F-4 integers: next 4 bytes big-endian x; x < 2**32 - (2**32 % n) gives x % n, else retry
//   F-5 shuffle:  Jackpot Ace marks over the unshuffled shoe, then Fisher-Yates
//                 (infinite deck: 52 draws from one deck, then the marks; no Fisher-Yates)
//
// Pure functions are on window.BlackjackFairness; the page check runs on load.
(function () {
  "use strict";

  // One deck in the order of SUITS then RANKS: 2-9, 0 (ten), J, Q, K, A of spades,
  // clubs, diamonds, hearts.
  const DECK = Object.freeze([
    "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "0S", "JS", "QS", "KS", "AS",
    "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "0C", "JC", "QC", "KC", "AC",
    "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "0D", "JD", "QD", "KD", "AD",
    "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "0H", "JH", "QH", "KH", "AH",
  ]);
  const INFINITE = "infinite";
  const BATCH_SIZE = 52;
  const MAX_DECKS = 8;
  const JACKPOT_ACE = "AS";
  const JACKPOT_CARD = "AS*";
  const JACKPOT_ODDS = 6;
  const TWO_TO_32 = 4294967296;
  const SEED_HEX_LENGTH = 64;
  const SHOE_KEYS = ["nonce", "commitment", "client_seed", "server_seed", "deck_count",
                     "cards_dealt"];
  const INSECURE_MESSAGE =
    "Your browser can check this only over HTTPS; use tools/verify_shoe.py";

  function subtleCrypto() {
    // Web Crypto exists only in a secure context (HTTPS, or 127.0.0.1 / localhost).
    return window.crypto && window.crypto.subtle ? window.crypto.subtle : null;
  }

  function requireSubtle() {
    const subtle = subtleCrypto();
    if (!subtle) { throw new Error(INSECURE_MESSAGE); }
    return subtle;
  }

  function isHex(text, length) {
    return typeof text === "string" && text.length === length && /^[0-9a-fA-F]*$/.test(text);
  }

  function hexToBytes(hex) {
    if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
      throw new Error("not hexadecimal: " + hex);
    }
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i += 1) {
      bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
    }
    return bytes;
  }

  function bytesToHex(bytes) {
    let hex = "";
    for (let i = 0; i < bytes.length; i += 1) {
      hex += bytes[i].toString(16).padStart(2, "0");
    }
    return hex;
  }

  function isAscii(text) {
    return typeof text === "string" && /^[\x00-\x7f]*$/.test(text);
  }

  // The nonce is written as Python's str() writes it: 7 as "7", a Daily Shoe's as itself.
  function streamMessage(clientSeed, nonce, purpose, k) {
    const message = clientSeed + ":" + String(nonce) + ":" + purpose + ":" + k;
    if (!isAscii(message)) { throw new Error("the client seed is not ASCII"); }
    return new TextEncoder().encode(message);
  }

  async function commitment(seedHex) {
    const digest = await requireSubtle().digest("SHA-256", hexToBytes(seedHex));
    return bytesToHex(new Uint8Array(digest));
  }

  function hmacKey(seedHex) {
    return requireSubtle().importKey(
      "raw", hexToBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]
    );
  }

  // The stream of one purpose ("shoe" or "dice"), read front to back; each 32-byte block
  // is signed when the reader gets to it.
  class ByteStream {
    constructor(seedHex, clientSeed, nonce, purpose) {
      this.keyPromise = hmacKey(seedHex);
      this.clientSeed = clientSeed;
      this.nonce = nonce;
      this.purpose = purpose;
      this.buffer = new Uint8Array(0);
      this.nextBlock = 0;
    }

    async read(count) {
      while (this.buffer.length < count) {
        const key = await this.keyPromise;
        const message = streamMessage(this.clientSeed, this.nonce, this.purpose,
                                      this.nextBlock);
        const block = new Uint8Array(await requireSubtle().sign("HMAC", key, message));
        const joined = new Uint8Array(this.buffer.length + block.length);
        joined.set(this.buffer);
        joined.set(block, this.buffer.length);
        this.buffer = joined;
        this.nextBlock += 1;
      }
      const taken = this.buffer.slice(0, count);
      this.buffer = this.buffer.slice(count);
      return taken;
    }
  }

  // Fixed bytes read the same way: lets the integer rule be checked on chosen bytes.
  class FixedBytes {
    constructor(bytes) {
      this.bytes = bytes;
      this.offset = 0;
    }

    async read(count) {
      if (this.offset + count > this.bytes.length) { throw new Error("the bytes ran out"); }
      const taken = this.bytes.slice(this.offset, this.offset + count);
      this.offset += count;
      return taken;
    }
  }

  // Uniform integers in [0, n) (F-4). x % n is uniform only below the largest multiple of
  // n that fits in 32 bits, so 4 bytes at or above it are dropped and the next 4 tried.
  // `draws` keeps each integer given as [n, value], in the order they were taken.
  class IntegerReader {
    constructor(source) {
      this.source = source;
      this.draws = [];
    }

    async below(n) {
      const limit = TWO_TO_32 - (TWO_TO_32 % n);
      for (;;) {
        const chunk = await this.source.read(4);
        const x = new DataView(chunk.buffer, chunk.byteOffset, 4).getUint32(0, false);
        if (x < limit) {
          const value = x % n;
          this.draws.push([n, value]);
          return value;
        }
      }
    }
  }

  async function markJackpotAces(cards, reader) {
    for (let position = 0; position < cards.length; position += 1) {
      if (cards[position] === JACKPOT_ACE && (await reader.below(JACKPOT_ODDS)) === 0) {
        cards[position] = JACKPOT_CARD;
      }
    }
  }

  async function fisherYates(cards, reader) {
    for (let i = cards.length - 1; i >= 1; i -= 1) {
      const j = await reader.below(i + 1);
      const held = cards[i];
      cards[i] = cards[j];
      cards[j] = held;
    }
  }

  function isDeckCount(deckCount) {
    return deckCount === INFINITE ||
      (Number.isInteger(deckCount) && deckCount >= 1 && deckCount <= MAX_DECKS);
  }

  // The shoe's cards in dealing order, with the integers drawn to make them.
  async function buildShoe(seedHex, clientSeed, nonce, deckCount) {
    if (!isDeckCount(deckCount)) {
      throw new Error("deck_count is not 1 to " + MAX_DECKS + " or '" + INFINITE + "'");
    }
    const reader = new IntegerReader(new ByteStream(seedHex, clientSeed, nonce, "shoe"));
    let cards;
    if (deckCount === INFINITE) {
      cards = [];
      for (let drawn = 0; drawn < BATCH_SIZE; drawn += 1) {
        cards.push(DECK[await reader.below(DECK.length)]);
      }
      await markJackpotAces(cards, reader);
    } else {
      cards = [];
      for (let deck = 0; deck < deckCount; deck += 1) { cards.push(...DECK); }
      await markJackpotAces(cards, reader);
      await fisherYates(cards, reader);
    }
    return { cards: cards, draws: reader.draws };
  }

  async function shoeOrder(seedHex, clientSeed, nonce, deckCount) {
    return (await buildShoe(seedHex, clientSeed, nonce, deckCount)).cards;
  }

  async function shoeDraws(seedHex, clientSeed, nonce, deckCount) {
    return (await buildShoe(seedHex, clientSeed, nonce, deckCount)).draws;
  }

  async function streamBytes(seedHex, clientSeed, nonce, purpose, count) {
    const bytes = await new ByteStream(seedHex, clientSeed, nonce, purpose).read(count);
    return bytesToHex(bytes);
  }

  async function dice(seedHex, clientSeed, nonce, count) {
    const reader = new IntegerReader(new ByteStream(seedHex, clientSeed, nonce, "dice"));
    const faces = [];
    for (let i = 0; i < count; i += 1) { faces.push((await reader.below(6)) + 1); }
    return faces;
  }

  async function integersFromBytes(hex, bounds) {
    const reader = new IntegerReader(new FixedBytes(hexToBytes(hex)));
    const values = [];
    for (const bound of bounds) { values.push(await reader.below(bound)); }
    return values;
  }

  // What makes a shoe impossible to check at all, worded as tools/verify_shoe.py words it.
  function shapeProblems(shoe) {
    const missing = SHOE_KEYS.filter((key) => !(key in shoe))
      .map((key) => key + " is missing");
    if (missing.length) { return missing; }
    const problems = [];
    if (!isHex(shoe.server_seed, SEED_HEX_LENGTH)) {
      problems.push("server_seed is not 64 hexadecimal characters");
    }
    if (!isAscii(shoe.client_seed)) {
      problems.push("client_seed is not a string of ASCII characters");
    }
    if (!(Number.isInteger(shoe.nonce) || typeof shoe.nonce === "string")) {
      problems.push("nonce is not a number or a string");
    }
    if (!isDeckCount(shoe.deck_count)) {
      problems.push("deck_count is not 1 to " + MAX_DECKS + " or '" + INFINITE + "'");
    }
    if (typeof shoe.commitment !== "string") {
      problems.push("commitment is not a string");
    }
    const cards = shoe.cards_dealt;
    if (!Array.isArray(cards) || !cards.every((card) => typeof card === "string")) {
      problems.push("cards_dealt is not a list of card codes");
    }
    return problems;
  }

  // The differences between a revealed shoe ({nonce, commitment, client_seed, server_seed,
  // deck_count, cards_dealt}, as the Fairness page's JSON has it) and what its seed gives.
  // An empty list means verified: the seed matches the commitment and cards_dealt is the
  // start of the recomputed order.
  async function checkShoe(shoe) {
    if (shoe.server_seed === null || shoe.server_seed === undefined) {
      return ["the server seed is not revealed yet"];
    }
    const problems = shapeProblems(shoe);
    if (problems.length) { return problems; }
    const differences = [];
    const actual = await commitment(shoe.server_seed);
    if (actual !== shoe.commitment.toLowerCase()) {
      differences.push("the seed's SHA-256 is " + actual + ", the commitment was " +
                       shoe.commitment);
    }
    const order = await shoeOrder(shoe.server_seed, shoe.client_seed, shoe.nonce,
                                  shoe.deck_count);
    const dealt = shoe.cards_dealt;
    const compared = Math.min(dealt.length, order.length);
    for (let i = 0; i < compared; i += 1) {
      if (dealt[i] !== order[i]) {
        differences.push("card " + (i + 1) + " is " + dealt[i] + ", the shuffle gives " +
                         order[i]);
        break;
      }
    }
    if (dealt.length > order.length) {
      differences.push(dealt.length + " cards listed, the shoe holds only " + order.length);
    }
    return differences;
  }

  window.BlackjackFairness = Object.freeze({
    DECK: DECK,
    commitment: commitment,
    streamBytes: streamBytes,
    shoeOrder: shoeOrder,
    shoeDraws: shoeDraws,
    dice: dice,
    integersFromBytes: integersFromBytes,
    checkShoe: checkShoe,
  });

  // ---- The page: every [data-fairness-shoe] is checked and its verdict written ----

  function splitCards(text) {
    return (text || "").split(/[\s,]+/).filter((card) => card !== "");
  }

  function deckCountOf(text) {
    const trimmed = (text || "").trim();
    return /^\d+$/.test(trimmed) ? parseInt(trimmed, 10) : trimmed;
  }

  // The shoe's values: from its editable fields when asked (a player trying another seed
  // or card sees the verdict change), else as the page published them.
  function shoeValues(element, fromFields) {
    const data = element.dataset;
    function field(selector, fallback) {
      const found = fromFields ? element.querySelector(selector) : null;
      return found ? found.value.trim() : fallback;
    }
    return {
      nonce: data.nonce || "",
      commitment: data.commitment || "",
      client_seed: field("input[name=client_seed]", data.clientSeed || ""),
      server_seed: field("input[name=server_seed]", data.serverSeed || ""),
      deck_count: deckCountOf(data.deckCount),
      cards_dealt: splitCards(field("textarea[name=cards_dealt]", data.cards || "")),
    };
  }

  function verdictText(shoe, differences) {
    if (differences.length) { return "\u2718 " + differences[0]; }
    const count = shoe.cards_dealt.length;
    return count === 1
      ? "\u2714 Verified: this 1 card is the shuffle of this seed"
      : "\u2714 Verified: these " + count + " cards are the shuffle of this seed";
  }

  // Each shoe's latest check: a slower earlier one finishing later must not overwrite it.
  const latestRun = new WeakMap();

  async function checkElement(element, fromFields) {
    const verdict = element.querySelector("[data-fairness-verdict]");
    if (!verdict) { return; }
    if (!verdict.hasAttribute("aria-live") && !verdict.hasAttribute("role")) {
      verdict.setAttribute("aria-live", "polite");
    }
    if (!subtleCrypto()) {
      verdict.textContent = INSECURE_MESSAGE;
      element.setAttribute("data-verdict", "unavailable");
      return;
    }
    const run = (latestRun.get(element) || 0) + 1;
    latestRun.set(element, run);
    element.removeAttribute("data-verdict");
    verdict.textContent = "Checking\u2026";
    const shoe = shoeValues(element, fromFields);
    let differences;
    try {
      differences = await checkShoe(shoe);
    } catch (error) {
      differences = ["the check could not run: " + error.message];
    }
    if (latestRun.get(element) !== run) { return; }
    verdict.textContent = verdictText(shoe, differences);
    element.setAttribute("data-verdict", differences.length ? "differs" : "ok");
  }

  const checkedOnLoad = new WeakSet();

  // Shoes whose seed is revealed; an unrevealed one keeps what the server wrote by it.
  function checkShoesWithin(root) {
    const shoes = Array.from(root.querySelectorAll("[data-fairness-shoe]"));
    if (root.matches && root.matches("[data-fairness-shoe]")) { shoes.unshift(root); }
    shoes.forEach((element) => {
      if (checkedOnLoad.has(element) || !element.dataset.serverSeed) { return; }
      checkedOnLoad.add(element);
      checkElement(element, false);
    });
  }

  function start() {
    document.addEventListener("click", (event) => {
      const button = event.target.closest("[data-fairness-verify]");
      const shoe = button ? button.closest("[data-fairness-shoe]") : null;
      if (shoe) { checkElement(shoe, true); }
    });
    // Content swapped in later (htmx) is checked as it arrives.
    document.addEventListener("htmx:load", (event) => {
      if (event.target instanceof Element) { checkShoesWithin(event.target); }
    });
    checkShoesWithin(document);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
