// The types of t42.js, for TypeScript: the loop and helpers typed with the wire types of
// wire.d.ts (generated from spec/schemas/). Written by hand: keep it beside t42.js.
import type {
  Action, Action_Seat, Action_Team, Action_Tile, HelloResult, Observation, PerftResult, Setup, Setup_Deal, Setup_Hands, View,
} from "./wire.js";

export * from "./errors.js";
export type {
  Action, HelloResult, Observation, PerftResult, Setup, Setup_Deal, Setup_Hands, View,
} from "./wire.js";

export type Seat = Action_Seat;
export type Team = Action_Team;
/** A tile "a|b", a <= b (TIL-02). */
export type Tile = Action_Tile;
export type Deal = Setup_Deal;
export type Hands = Record<Seat, Tile[]>;

/**
 * What you write: the mapping to your engine. setup, deal and act return nothing (or a
 * promise of nothing) and throw Rejected for an illegal input; anything else they throw
 * is a crash. Results of view, observe, legal and perft are sent as they are.
 */
export interface Engine {
  name: string;
  version: string;
  /**
   * options of spec/variants.md you support: a name, or an option supported in part,
   * `{ name: "forced_bid", settings: { bid: ["any"] } }` (protocol.md, "Partial support")
   */
  variants?: HelloResult["variants"];
  /** the spec version the declaration was written for (protocol.md); optional */
  spec?: string;
  /** subset of ["legal", "perft", "self_deal"] */
  capabilities?: ("legal" | "perft" | "self_deal")[];
  setup(setup: Setup): void | Promise<void>;
  deal(deal: Deal): void | Promise<void>;
  act(action: Action): void | Promise<void>;
  view(): View | Promise<View>;
  observe(seat: Seat): Observation | Promise<Observation>;
  legal?(): Action[] | Promise<Action[]>;
  perft?(depth: number): PerftResult | Promise<PerftResult>;
  newMatch?(): void | Promise<void>;
  nextDeal?(): void | Promise<void>;
}

export declare const PROTOCOL: 1;
export declare const SEATS: readonly Seat[];
/** The 28 tiles "a|b", a <= b, in sorted order (TIL-02). */
export declare const TILES: readonly Tile[];

/** A refusal of a setup, deal or action: code from spec/errors.yaml (the constants). */
export declare class Rejected extends Error {
  code: string;
  constructor(code: string, message?: string);
}

/** "a|b" from two pips in either order. */
export declare function tile(a: number, b: number): Tile;
/** [a, b] of a well-formed tile "a|b" (0 <= a <= b <= 6), else null (MALFORMED_ACTION). */
export declare function parseTile(text: unknown): [number, number] | null;
/** The seat after `seat`, clockwise. */
export declare function nextSeat(seat: Seat): Seat;
/** "AC" or "BD". */
export declare function teamOf(seat: Seat): Team;
/** DEAL-02: the hands of a shuffled order of the 28 tiles dealt by `dealer`. */
export declare function dealOrder(order: readonly Tile[], dealer: Seat): Hands;
/**
 * The hands of a setup or deal (its hands, or its order dealt by DEAL-02), checked: exactly
 * one of the two, the 28 tiles once each, 7 to each seat; else a Rejected INVALID_SETUP.
 */
export declare function handsOf(given: Setup | Deal, dealer: Seat): Hands;
/**
 * A base-game setup, checked: dealer, marks (0..6 each), variants (an object) and hands or
 * order; else a Rejected INVALID_SETUP. Marks default to 0, variants to {}.
 */
export declare function checkSetup(setup: Setup): {
  dealer: Seat; marks: { AC: number; BD: number }; variants: Record<string, unknown>; hands: Hands;
};
/** The action forms the options in force add (actions.md; VAR-04), from a setup's variants. */
export declare function actionForms(variants?: Setup["variants"] | Record<string, unknown>): {
  special: Record<string, "true" | "marks">; announces: string[]; namesDoubles: boolean;
};
/**
 * An action's form checked (DIG-01): a known type with exactly its fields, seat A..D,
 * integers, trump an integer or string, a tile of the 28, an option's field only with the
 * option in force (`variants`, the setup's); else a Rejected MALFORMED_ACTION. Values are
 * left to the rules (`"points": 29` is well formed).
 */
export declare function checkAction(
  action: unknown, variants?: Setup["variants"] | Record<string, unknown>,
): Action;
/** A log line for people: stderr (stdout carries only replies). */
export declare function log(...args: unknown[]): void;
/**
 * Serve `engine` on stdin/stdout until `stop`: one reply per request, in order, each
 * echoing its seq. A Rejected from setup, deal or act is `"ok": false`; any other throw is
 * a crash: its stack goes to stderr and the process exits 1.
 */
export declare function serve(engine: Engine, input?: unknown, output?: unknown): Promise<void>;
