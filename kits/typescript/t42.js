// The Texas 42 adapter kit for node: the JSON-lines protocol loop of spec/protocol.md,
// done once, and the helpers every adapter needs. Plain JavaScript (ES modules, node >= 18)
// with JSDoc types from wire.d.ts (generated from spec/schemas/): TypeScript reads them.
import { createInterface } from "node:readline";

import { INVALID_SETUP, MALFORMED_ACTION } from "./errors.js";

export * from "./errors.js";

/** @typedef {import("./wire").Action} Action */
/** @typedef {import("./wire").Setup} Setup */
/** @typedef {import("./wire").Setup_Deal} Deal */
/** @typedef {import("./wire").View} View */
/** @typedef {import("./wire").Observation} Observation */
/** @typedef {import("./wire").PerftResult} PerftResult */
/** @typedef {"A" | "B" | "C" | "D"} Seat */

/**
 * What you write: the mapping to your engine. setup, deal and act return nothing and
 * throw Rejected for an illegal input; anything else they throw is a crash.
 * @typedef {object} Engine
 * @property {string} name
 * @property {string} version
 * @property {import("./wire").HelloResult["variants"]} [variants]  options of spec/variants.md
 *   you support: a name, or {name, settings} for an option supported in part
 * @property {string} [spec]            the spec version your declaration was written for
 * @property {string[]} [capabilities]  subset of ["legal", "perft", "self_deal"]
 * @property {(setup: Setup) => void} setup
 * @property {(deal: Deal) => void} deal
 * @property {(action: Action) => void} act
 * @property {() => View} view
 * @property {(seat: Seat) => Observation} observe
 * @property {() => Action[]} [legal]
 * @property {(depth: number) => PerftResult} [perft]
 * @property {() => void} [newMatch]
 * @property {() => void} [nextDeal]
 */

export const PROTOCOL = 1;
export const SEATS = Object.freeze(["A", "B", "C", "D"]);
/** The 28 tiles "a|b", a <= b, in sorted order (TIL-02). */
export const TILES = Object.freeze(
  Array.from({ length: 7 }, (_, a) => Array.from({ length: 7 - a }, (_, i) => `${a}|${a + i}`)).flat(),
);

/** A refusal of a setup, deal or action: code from spec/errors.yaml (the constants above). */
export class Rejected extends Error {
  /** @param {string} code @param {string} [message] */
  constructor(code, message = "") {
    super(message || code);
    this.code = code;
  }
}

/** "a|b" from two pips in either order. @param {number} a @param {number} b */
export function tile(a, b) {
  return a <= b ? `${a}|${b}` : `${b}|${a}`;
}

/** [a, b] of a well-formed tile "a|b" (0 <= a <= b <= 6), else null (MALFORMED_ACTION). */
export function parseTile(text) {
  const m = typeof text === "string" ? /^([0-6])\|([0-6])$/.exec(text) : null;
  return m && Number(m[1]) <= Number(m[2]) ? [Number(m[1]), Number(m[2])] : null;
}

/** The seat after `seat`, clockwise. @param {Seat} seat @returns {Seat} */
export function nextSeat(seat) {
  return SEATS[(SEATS.indexOf(seat) + 1) % 4];
}

/** "AC" or "BD". @param {Seat} seat */
export function teamOf(seat) {
  return seat === "A" || seat === "C" ? "AC" : "BD";
}

/**
 * DEAL-02: tile t_i of a shuffled order goes to seat (d + 1 + i) mod 4, d the dealer's
 * index (A=0); each hand keeps the order received (DEAL-03).
 * @param {string[]} order the 28 tiles @param {Seat} dealer
 * @returns {Record<Seat, string[]>}
 */
export function dealOrder(order, dealer) {
  const d = SEATS.indexOf(dealer);
  const hands = { A: [], B: [], C: [], D: [] };
  order.forEach((t, i) => hands[SEATS[(d + 1 + i) % 4]].push(t));
  return hands;
}

const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);
const SETUP_FIELDS = new Set(["dealer", "marks", "variants", "hands", "order"]);

/**
 * The hands of a setup or deal (its `hands`, or its `order` dealt by DEAL-02), checked:
 * exactly one of the two, the 28 tiles once each, 7 to each seat; else a Rejected
 * INVALID_SETUP (DIG-06). Nothing of `given` is kept: the hands are a copy.
 * @param {object} given a setup or deal @param {Seat} dealer
 * @returns {Record<Seat, string[]>}
 */
export function handsOf(given, dealer) {
  const bad = (why) => new Rejected(INVALID_SETUP, why);
  if (!isObject(given) || ("hands" in given) === ("order" in given)) {
    throw bad("give exactly one of hands and order");
  }
  const hands = given.hands;
  const all = "order" in given ? given.order
    : isObject(hands) ? SEATS.flatMap((s) => (Array.isArray(hands[s]) ? hands[s] : [])) : null;
  if (!Array.isArray(all) || all.length !== 28 || new Set(all).size !== 28
      || !all.every((t) => TILES.includes(t))) throw bad("not the 28 tiles");
  if ("order" in given) return dealOrder(all, dealer);
  if (Object.keys(hands).length !== 4 || !SEATS.every((s) => Array.isArray(hands[s]) && hands[s].length === 7)) {
    throw bad("not 7 tiles for each of A, B, C, D");
  }
  return structuredClone(hands);
}

/**
 * A base-game setup, checked before anything changes: an object of dealer, marks (0..6
 * each, SCORE-03), variants (an object) and hands or order; else a Rejected
 * INVALID_SETUP. Returns its parts, marks defaulted to 0 and variants to {}. Options
 * with setup fields of their own (deal_by_drawing's draws, match_points' marks) are
 * yours to check: this refuses them.
 * @param {Setup} setup
 * @returns {{dealer: Seat, marks: {AC: number, BD: number}, variants: object, hands: Record<Seat, string[]>}}
 */
export function checkSetup(setup) {
  const bad = (why) => new Rejected(INVALID_SETUP, why);
  if (!isObject(setup)) throw bad("a setup is an object");
  const unknown = Object.keys(setup).filter((k) => !SETUP_FIELDS.has(k));
  if (unknown.length) throw bad(`unknown field ${unknown[0]}: a setup has dealer, marks, variants, hands or order`);
  if (!SEATS.includes(setup.dealer)) throw bad("no dealer seat");
  // absent is the default; null is not (VAR-01: a variants of null is refused)
  const marks = "marks" in setup ? setup.marks : { AC: 0, BD: 0 };
  const ok = (n) => Number.isInteger(n) && n >= 0 && n <= 6;
  if (!isObject(marks) || Object.keys(marks).length !== 2 || !ok(marks.AC) || !ok(marks.BD)) {
    throw bad("marks are {AC, BD}, 0..6 each");
  }
  const variants = "variants" in setup ? setup.variants : {};
  if (!isObject(variants)) throw bad("variants are an object of options");
  const hands = handsOf(setup, setup.dealer);
  return { dealer: setup.dealer, marks: { AC: marks.AC, BD: marks.BD }, variants: structuredClone(variants), hands };
}

/** A setting of the options in force (a setup's `variants`), else its default. */
function setting(variants, option, name, fallback) {
  const value = variants[option];
  return isObject(value) && name in value ? value[name] : fallback;
}

/**
 * The action forms the options in force add (actions.md, "Actions and setup fields added
 * by variants"; VAR-04): the special bids (`"plunge": true`; `"splash": true`, or its
 * marks under `marks: "bid"`), the choices a bid may announce (`"nello": true`), and
 * whether a declaration may name its doubles.
 * @param {object} variants a setup's `variants` (absent: the base game)
 */
export function actionForms(variants = {}) {
  const on = (option) => isObject(variants) && option in variants;
  const special = {};
  // PTERMS-06: with announce "declaration" the plunge is a trump choice, never a bid
  if ((on("plunge") || on("plunge_terms"))
      && setting(variants, "plunge_terms", "announce", "bid") !== "declaration") special.plunge = "true";
  if (on("splash")) special.splash = setting(variants, "splash", "marks", 3) === "bid" ? "marks" : "true";
  return {
    special,
    announces: on("nello") && setting(variants, "nello", "announce", "declaration") === "bid" ? ["nello"] : [],
    namesDoubles: (on("nello") && setting(variants, "nello", "doubles", "high") === "declared")
      || (on("no_trump") && setting(variants, "no_trump", "doubles", "low") === "declared"),
  };
}

const isInteger = (x) => typeof x === "number" && Number.isInteger(x);

/**
 * An action's form checked (DIG-01, actions.md "Malformed or illegal"), before anything
 * else: an object of a known `type` with exactly its fields, `seat` A..D, integers where
 * the form has integers (never a boolean or a fraction), `trump` an integer or a string,
 * `tile` one of the 28; a field an option adds only with that option in force (VAR-04).
 * Else a Rejected MALFORMED_ACTION. Values are not judged: `"points": 29` and `"trump": 7`
 * are well formed, for the rules to refuse with their own codes, in check order.
 * @param {unknown} action @param {object} [variants] the setup's `variants`
 * @returns {Action} the action, now known to be of a form
 */
export function checkAction(action, variants = {}) {
  const bad = (why) => new Rejected(MALFORMED_ACTION, why);
  if (!isObject(action)) throw bad("an action is an object");
  const forms = actionForms(variants);
  const fields = new Set(Object.keys(action));
  const exactly = (...names) => fields.size === names.length && names.every((n) => fields.has(n));
  const kind = action.type;
  if (kind === "pass" || kind === "play") {
    if (!(kind === "pass" ? exactly("type", "seat") : exactly("type", "seat", "tile"))) {
      throw bad(`a ${kind} action has ${kind === "pass" ? "type and seat" : "type, seat and tile"} only`);
    }
    if (kind === "play" && !TILES.includes(action.tile)) throw bad("tile is one of the 28 \"a|b\", a <= b");
  } else if (kind === "bid") {
    const rest = [...fields].filter((f) => f !== "type" && f !== "seat");
    const announced = rest.length === 2 && rest.find((f) => forms.announces.includes(f));
    if (announced && (rest.includes("points") || rest.includes("marks"))) {
      if (action[announced] !== true) throw bad(`${announced} is always true`);
      rest.splice(rest.indexOf(announced), 1);
    }
    if (!fields.has("seat") || rest.length !== 1) {
      throw bad(`a bid has type, seat and exactly one of ${["points", "marks", ...Object.keys(forms.special)].join(", ")}`);
    }
    const [which] = rest;
    const form = which === "points" || which === "marks" ? "marks" : forms.special[which];
    if (form === undefined) throw bad(`a bid with ${which} needs the option that adds it (VAR-04)`);
    if (form === "marks" ? !isInteger(action[which]) : action[which] !== true) {
      throw bad(`${which} is ${form === "marks" ? "an integer" : "always true"}`);
    }
  } else if (kind === "trump") {
    const allowed = ["type", "seat", "trump", "stacks", ...(forms.namesDoubles ? ["doubles"] : [])];
    const extra = [...fields].find((f) => !allowed.includes(f));
    if (extra !== undefined || !fields.has("seat") || !fields.has("trump")) {
      throw bad(extra === undefined ? "a declaration has type, seat and trump"
        : `a declaration has no field ${extra}${extra === "doubles" ? " without a doubles: declared setting (VAR-04)" : ""}`);
    }
    if (!isInteger(action.trump) && typeof action.trump !== "string") throw bad("trump is an integer or a string");
    if (fields.has("stacks") && !isInteger(action.stacks)) throw bad("stacks is an integer");
    if (fields.has("doubles") && typeof action.doubles !== "string") throw bad("doubles is a string");
  } else {
    throw bad(`unknown action type ${JSON.stringify(kind)}`);
  }
  if (!SEATS.includes(action.seat)) throw bad("seat is one of A, B, C, D");
  return action;
}

/** A log line for people: stderr (stdout carries only replies). */
export function log(...args) {
  process.stderr.write(args.join(" ") + "\n");
}

const REFUSABLE = new Set(["setup", "deal", "act"]);

/** The result of one request, by the engine. */
async function dispatch(engine, req) {
  switch (req.cmd) {
    case "hello":
      return {
        name: engine.name, version: engine.version, protocol: PROTOCOL,
        variants: engine.variants ?? [], capabilities: engine.capabilities ?? [],
        ...(engine.spec === undefined ? {} : { spec: engine.spec }),
      };
    case "setup": await engine.setup(req.setup); return null;
    case "deal": await engine.deal(req.deal); return null;
    case "act": await engine.act(req.action); return null;
    case "view": return engine.view();
    case "observe": return engine.observe(req.seat);
    case "legal": return engine.legal();
    case "perft": return engine.perft(req.depth);
    case "new_match": await engine.newMatch(); return null;
    case "next_deal": await engine.nextDeal(); return null;
    case "stop": return null;
    default: throw new Error(`unknown command ${JSON.stringify(req.cmd)}`);
  }
}

/**
 * Serve `engine` on stdin/stdout until `stop`: one reply per request, in order, each
 * echoing its seq. A Rejected from setup, deal or act is `"ok": false`; any other
 * throw is a crash: its stack goes to stderr and the process exits 1 (protocol.md).
 * console.log is sent to stderr, so a stray log cannot break the protocol.
 * @param {Engine} engine
 */
export async function serve(engine, input = process.stdin, output = process.stdout) {
  console.log = console.error;
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const req = JSON.parse(line);
    let reply;
    try {
      reply = { seq: req.seq, ok: true, result: (await dispatch(engine, req)) ?? null };
    } catch (error) {
      if (!(error instanceof Rejected) || !REFUSABLE.has(req.cmd)) {
        process.stderr.write(`${req.cmd}: ${error?.stack ?? error}\n`);
        process.exit(1);
      }
      reply = { seq: req.seq, ok: false, error: { code: error.code, message: error.message } };
    }
    await new Promise((done) => output.write(JSON.stringify(reply) + "\n", done));
    if (req.cmd === "stop") break;
  }
  lines.close();
}
