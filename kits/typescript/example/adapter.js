#!/usr/bin/env node
// An example adapter around a tiny engine that deals and goes no further: it checks a
// setup or deal (INVALID_SETUP), deals it (DEAL-02), shows the view and observations of
// the opening, and refuses every action. Run it:
//   t42 run scenarios/deal/order-dealer-a.yaml --adapter "cmd:node kits/typescript/example/adapter.js"
// Replace the Engine with your own; keep the mapping below.
import {
  INVALID_SETUP, MALFORMED_ACTION, SEATS, TILES, WRONG_PHASE,
  Rejected, dealOrder, log, nextSeat, serve,
} from "../t42.js";

const SETUP_FIELDS = new Set(["dealer", "marks", "hands", "order", "variants"]);
const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);

/** The hands of a setup or deal, checked (DIG-06); a Rejected if it is not a deal. */
function handsOf(given, dealer) {
  const bad = (why) => new Rejected(INVALID_SETUP, why);
  if (("hands" in given) === ("order" in given)) throw bad("give exactly one of hands and order");
  const hands = "order" in given ? given.order : given.hands;
  const all = "order" in given ? given.order : isObject(hands) ? SEATS.flatMap((s) => hands[s] ?? []) : null;
  if (!Array.isArray(all) || all.length !== 28 || new Set(all).size !== 28
      || !all.every((t) => TILES.includes(t))) throw bad("not the 28 tiles");
  if ("order" in given) return dealOrder(given.order, dealer);
  if (Object.keys(hands).length !== 4 || !SEATS.every((s) => Array.isArray(hands[s]) && hands[s].length === 7)) {
    throw bad("not 7 tiles for each of A, B, C, D");
  }
  return structuredClone(hands);
}

class Engine {
  start(setup) {
    if (!isObject(setup) || !Object.keys(setup).every((k) => SETUP_FIELDS.has(k))) {
      throw new Rejected(INVALID_SETUP, "a setup is an object of dealer, marks, hands or order, variants");
    }
    if (!SEATS.includes(setup.dealer)) throw new Rejected(INVALID_SETUP, "no dealer seat");
    const marks = setup.marks ?? { AC: 0, BD: 0 };
    const ok = (n) => Number.isInteger(n) && n >= 0 && n <= 6;
    if (!isObject(marks) || Object.keys(marks).length !== 2 || !ok(marks.AC) || !ok(marks.BD)) {
      throw new Rejected(INVALID_SETUP, "marks are {AC, BD}, 0..6 each");
    }
    if (setup.variants !== undefined && !(isObject(setup.variants) && Object.keys(setup.variants).length === 0)) {
      throw new Rejected(INVALID_SETUP, "this engine plays the base game only");
    }
    this.hands = handsOf(setup, setup.dealer); // checked before anything changes
    this.dealer = setup.dealer;
    this.marks = { ...marks };
    log(`dealt by ${this.dealer}`); // logs go to stderr
  }

  view() {
    return {
      phase: "bidding", round: 1, dealer: this.dealer, to_act: nextSeat(this.dealer),
      hands: structuredClone(this.hands), bids: [], contract: null, trick: [], tricks: [],
      points: { AC: 0, BD: 0 }, tricks_won: { AC: 0, BD: 0 }, result: null,
      marks: { ...this.marks }, winner: null, history: [],
    };
  }

  observe(seat) {
    const { hands, tricks, history, ...shared } = this.view();
    const sizes = Object.fromEntries(SEATS.map((s) => [s, hands[s].length]));
    return { seat, ...shared, hand: hands[seat], hand_sizes: sizes, captured: [], history: null };
  }
}

const engine = new Engine();
serve({
  name: "tiny-dealer", version: "0.1.0", variants: [], capabilities: [],
  setup: (setup) => engine.start(setup),
  deal: (deal) => {
    throw new Rejected(isObject(deal) ? WRONG_PHASE : INVALID_SETUP, "a deal waits for round_over");
  },
  act: (action) => {
    throw new Rejected(isObject(action) ? WRONG_PHASE : MALFORMED_ACTION, "this engine only deals");
  },
  view: () => engine.view(),
  observe: (seat) => engine.observe(seat),
});
