// An example adapter in TypeScript around a tiny engine that deals and goes no further: it
// checks a setup (checkSetup: INVALID_SETUP), deals it (DEAL-02), shows the view and
// observations of the opening, and refuses every action. Build and run it:
//   npm ci && npm run build
//   t42 run -k deal.order-dealer --variant base --adapter "cmd:node --enable-source-maps kits/typescript/dist/adapter.js"
// Replace the Engine with your own; keep the mapping below.
import {
  INVALID_SETUP, WRONG_PHASE,
  Rejected, checkAction, checkSetup, log, nextSeat, serve,
} from "../t42.js";
import type { Hands, Observation, Seat, Setup, View } from "../t42.js";

const isObject = (x: unknown): boolean => typeof x === "object" && x !== null && !Array.isArray(x);
const copy = (hands: Hands): Hands => ({ A: [...hands.A], B: [...hands.B], C: [...hands.C], D: [...hands.D] });

class Engine {
  private dealer: Seat = "A";
  private marks = { AC: 0, BD: 0 };
  private hands: Hands = { A: [], B: [], C: [], D: [] };

  start(setup: Setup): void {
    const { dealer, marks, variants, hands } = checkSetup(setup); // before anything changes
    if (Object.keys(variants).length) throw new Rejected(INVALID_SETUP, "this engine plays the base game only");
    this.dealer = dealer;
    this.marks = marks;
    this.hands = hands;
    log(`dealt by ${this.dealer}`); // logs go to stderr
  }

  view(): View {
    return {
      phase: "bidding", round: 1, dealer: this.dealer, to_act: nextSeat(this.dealer),
      hands: copy(this.hands), bids: [], contract: null, trick: [], tricks: [],
      points: { AC: 0, BD: 0 }, tricks_won: { AC: 0, BD: 0 }, result: null,
      marks: { ...this.marks }, winner: null, history: [],
    };
  }

  observe(seat: Seat): Observation {
    const { hands, tricks, history, ...shared } = this.view();
    const sizes = { A: hands.A.length, B: hands.B.length, C: hands.C.length, D: hands.D.length };
    return { ...shared, seat, hand: [...hands[seat]], hand_sizes: sizes, captured: [], history: null };
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
