#!/usr/bin/env node
// An example adapter around a tiny engine that deals and goes no further: it checks a
// setup (checkSetup: INVALID_SETUP), deals it (DEAL-02), shows the view and observations
// of the opening, and refuses every action. Run it:
//   t42 run -k deal.order-dealer --variant base --adapter "cmd:node kits/typescript/example/adapter.js"
// Replace the Engine with your own; keep the mapping below.
import {
  INVALID_SETUP, SEATS, WRONG_PHASE,
  Rejected, checkAction, checkSetup, log, nextSeat, serve,
} from "../t42.js";

const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);

class Engine {
  start(setup) {
    const { dealer, marks, variants, hands } = checkSetup(setup); // before anything changes
    if (Object.keys(variants).length) throw new Rejected(INVALID_SETUP, "this engine plays the base game only");
    this.dealer = dealer;
    this.marks = marks;
    this.hands = hands;
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
    checkAction(action); // MALFORMED_ACTION first (DIG-01): the base game's forms
    throw new Rejected(WRONG_PHASE, "this engine only deals");
  },
  view: () => engine.view(),
  observe: (seat) => engine.observe(seat),
});
