//! The Texas 42 adapter kit for Rust: the JSON-lines protocol loop of spec/protocol.md
//! done once (`serve`), the wire types generated from spec/schemas/ (`wire`), the error
//! codes in check order (`errors`), and the helpers every adapter needs. Depends on serde
//! and serde_json only.

#[rustfmt::skip] // generated
pub mod errors;
#[rustfmt::skip] // generated
#[allow(non_camel_case_types, clippy::all)]
pub mod wire;

pub use errors::*;
pub use wire::*;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::io::{self, BufRead, Write};

/// The protocol this kit speaks (spec/versions.yaml).
pub const PROTOCOL: i64 = 1;

/// Why a call did not give its result: a refusal with a code of spec/errors.yaml (only
/// setup, deal and act may be refused), or a crash (the scenario errors: protocol.md).
#[derive(Debug, Clone, PartialEq)]
pub enum Fail {
    Rejected { code: String, message: String },
    Crash(String),
}

/// A refusal: `Err(Fail::Rejected { .. })`. `code` is one of the constants of `errors`.
pub fn reject<T>(code: &str, message: impl Into<String>) -> Result<T, Fail> {
    Err(Fail::Rejected {
        code: code.to_string(),
        message: message.into(),
    })
}

impl From<serde_json::Error> for Fail {
    fn from(error: serde_json::Error) -> Self {
        Fail::Crash(error.to_string())
    }
}

/// Who you are and what you support: the hello result without `protocol`.
pub struct Info {
    pub name: String,
    pub version: String,
    /// option names of spec/variants.md (or an option supported in part)
    pub variants: Vec<VariantElement>,
    pub capabilities: Vec<Capability>,
}

/// What you write: the mapping to your engine. `setup`, `deal` and `act` get the payload
/// exactly as sent (it may be malformed on purpose: `strict` reads it into a wire type).
/// `legal`, `perft`, `new_match` and `next_deal` are called only when declared in
/// `capabilities`.
pub trait Engine {
    fn info(&self) -> Info;
    fn setup(&mut self, setup: Value) -> Result<(), Fail>;
    fn deal(&mut self, deal: Value) -> Result<(), Fail>;
    fn act(&mut self, action: Value) -> Result<(), Fail>;
    fn view(&mut self) -> Result<View, Fail>;
    fn observe(&mut self, seat: Seat) -> Result<Observation, Fail>;
    fn legal(&mut self) -> Result<Vec<Action>, Fail> {
        Err(Fail::Crash("legal is not declared".into()))
    }
    fn perft(&mut self, _depth: i64) -> Result<PerftResult, Fail> {
        Err(Fail::Crash("perft is not declared".into()))
    }
    fn new_match(&mut self) -> Result<(), Fail> {
        Err(Fail::Crash("self_deal is not declared".into()))
    }
    fn next_deal(&mut self) -> Result<(), Fail> {
        Err(Fail::Crash("self_deal is not declared".into()))
    }
}

/// Reads a payload into a wire type, refusing with `code` (INVALID_SETUP for a setup or
/// deal, MALFORMED_ACTION for an action) what is not of its form: a wrong type, an
/// unknown field, a null where a value is due. The rules' own checks are yours.
pub fn strict<T: DeserializeOwned + Serialize>(payload: &Value, code: &str) -> Result<T, Fail> {
    let read: T = match serde_json::from_value(payload.clone()) {
        Ok(read) => read,
        Err(error) => return reject(code, error.to_string()),
    };
    // serde ignores an unknown field and reads a null as None: written back, it differs
    match differs(payload, &serde_json::to_value(&read)?, "") {
        Some(at) => reject(
            code,
            format!("{}: not of the form", if at.is_empty() { "." } else { &at }),
        ),
        None => Ok(read),
    }
}

fn differs(given: &Value, back: &Value, at: &str) -> Option<String> {
    match (given, back) {
        (Value::Object(g), Value::Object(b)) => {
            if g.len() != b.len() {
                let extra = g.keys().find(|k| !b.contains_key(*k));
                return Some(format!("{}.{}", at, extra.map_or("?", |k| k.as_str())));
            }
            g.iter().find_map(|(k, v)| match b.get(k) {
                Some(w) => differs(v, w, &format!("{}.{}", at, k)),
                None => Some(format!("{}.{}", at, k)),
            })
        }
        (Value::Array(g), Value::Array(b)) if g.len() == b.len() => g
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (v, w))| differs(v, w, &format!("{}[{}]", at, i))),
        // 1 read as a float writes 1.0: the same number
        (Value::Number(g), Value::Number(b)) if g.as_f64() == b.as_f64() => None,
        _ if given == back => None,
        _ => Some(at.to_string()),
    }
}

/// A log line for people: stderr (stdout carries only replies; never `println!`).
pub fn log(line: impl std::fmt::Display) {
    eprintln!("{}", line);
}

/// The seats in clockwise order.
pub const SEATS: [Seat; 4] = [Seat::A, Seat::B, Seat::C, Seat::D];

/// A=0, B=1, C=2, D=3.
pub fn seat_index(seat: &Seat) -> usize {
    SEATS.iter().position(|s| s == seat).unwrap_or(0)
}

/// The seat after `seat`, clockwise.
pub fn next_seat(seat: &Seat) -> Seat {
    SEATS[(seat_index(seat) + 1) % 4].clone()
}

/// AC or BD.
pub fn team_of(seat: &Seat) -> Team {
    if seat_index(seat) % 2 == 0 {
        Team::Ac
    } else {
        Team::Bd
    }
}

/// The tile "a|b" of two pips in either order; None past 6.
pub fn tile(a: u8, b: u8) -> Option<Tile> {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    serde_json::from_value(Value::String(format!("{}|{}", lo, hi))).ok()
}

/// The pips (a, b), a <= b, of a tile.
pub fn pips(tile: &Tile) -> (u8, u8) {
    let name = serde_json::to_value(tile).unwrap_or(Value::Null);
    let digits: Vec<u8> = name
        .as_str()
        .unwrap_or("")
        .bytes()
        .filter(u8::is_ascii_digit)
        .collect();
    (digits[0] - b'0', digits[1] - b'0')
}

/// The 28 tiles in sorted order (TIL-02).
pub fn all_tiles() -> Vec<Tile> {
    (0..=6)
        .flat_map(|a| (a..=6).filter_map(move |b| tile(a, b)))
        .collect()
}

/// DEAL-02: tile t_i of a shuffled order goes to seat (d + 1 + i) mod 4, d the dealer's
/// index (A=0); each hand keeps the order received (DEAL-03).
pub fn deal_order(order: &[Tile], dealer: &Seat) -> DealHands {
    let mut hands: [Vec<Tile>; 4] = Default::default();
    for (i, t) in order.iter().enumerate() {
        hands[(seat_index(dealer) + 1 + i) % 4].push(t.clone());
    }
    let [a, b, c, d] = hands;
    DealHands { a, b, c, d }
}

/// The hand of `seat` in a deal.
pub fn hand_of<'h>(hands: &'h DealHands, seat: &Seat) -> &'h Vec<Tile> {
    match seat {
        Seat::A => &hands.a,
        Seat::B => &hands.b,
        Seat::C => &hands.c,
        Seat::D => &hands.d,
    }
}

/// The hands of a setup or deal (its `hands`, or its `order` dealt by DEAL-02), checked:
/// exactly one of the two, 7 tiles to each seat, the 28 tiles once each; else a refusal
/// INVALID_SETUP (DIG-06).
pub fn hands_of(
    hands: Option<DealHands>,
    order: Option<Vec<Tile>>,
    dealer: &Seat,
) -> Result<DealHands, Fail> {
    let hands = match (hands, order) {
        (Some(hands), None) => hands,
        (None, Some(order)) if order.len() == 28 => deal_order(&order, dealer),
        (None, Some(_)) => return reject(INVALID_SETUP, "not the 28 tiles"),
        _ => return reject(INVALID_SETUP, "give exactly one of hands and order"),
    };
    if SEATS.iter().any(|s| hand_of(&hands, s).len() != 7) {
        return reject(INVALID_SETUP, "not 7 tiles for each of A, B, C, D");
    }
    let all: Vec<&Tile> = SEATS.iter().flat_map(|s| hand_of(&hands, s)).collect();
    if !all_tiles().iter().all(|t| all.contains(&t)) {
        return reject(INVALID_SETUP, "not the 28 tiles");
    }
    Ok(hands)
}

/// A base-game setup, checked: a dealer, no draws, marks 0..6 each (SCORE-03), and hands
/// or order (`hands_of`); else a refusal INVALID_SETUP. The variants are yours to check.
/// Returns the dealer, the marks (AC, BD; 0 when absent) and the hands.
pub fn check_setup(setup: Setup) -> Result<(Seat, (i64, i64), DealHands), Fail> {
    let dealer = match (setup.dealer, setup.draws) {
        (Some(dealer), None) => dealer,
        (_, Some(_)) => return reject(INVALID_SETUP, "draws belong to deal_by_drawing"),
        (None, None) => return reject(INVALID_SETUP, "no dealer seat"),
    };
    let marks = setup.marks.map_or((0, 0), |m| (m.ac.into(), m.bd.into()));
    if !(0..=6).contains(&marks.0) || !(0..=6).contains(&marks.1) {
        return reject(INVALID_SETUP, "marks are 0..6");
    }
    let hands = hands_of(setup.hands, setup.order, &dealer)?;
    Ok((dealer, marks, hands))
}

/// The action forms the options in force add (actions.md, "Actions and setup fields added
/// by variants"; VAR-04): the special bids (`"plunge": true`; a splash, `true` or, with
/// `marks: "bid"`, its marks), the choices a bid may announce (`"nello": true`), and
/// whether a declaration may name its doubles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionForms {
    /// special bid -> whether it carries its marks (an integer) instead of `true`
    pub special: Vec<(String, bool)>,
    pub announces: Vec<String>,
    pub names_doubles: bool,
}

/// The action forms of a setup's variants (`None`: the base game).
pub fn forms_of(variants: &Option<Variants>) -> ActionForms {
    let options = serde_json::to_value(variants).unwrap_or(Value::Null);
    let on = |option: &str| options.get(option).is_some();
    let setting = |option: &str, name: &str| -> Option<String> {
        options.get(option)?.get(name)?.as_str().map(str::to_string)
    };
    let mut forms = ActionForms::default();
    // PTERMS-06: with announce "declaration" the plunge is a trump choice, never a bid
    if (on("plunge") || on("plunge_terms"))
        && setting("plunge_terms", "announce").as_deref() != Some("declaration")
    {
        forms.special.push(("plunge".into(), false));
    }
    if on("splash") {
        let carries = setting("splash", "marks").as_deref() == Some("bid");
        forms.special.push(("splash".into(), carries));
    }
    if on("nello") && setting("nello", "announce").as_deref() == Some("bid") {
        forms.announces.push("nello".into());
    }
    forms.names_doubles = (on("nello")
        && setting("nello", "doubles").as_deref() == Some("declared"))
        || (on("no_trump") && setting("no_trump", "doubles").as_deref() == Some("declared"));
    forms
}

/// An action's form checked (DIG-01, actions.md "Malformed or illegal") before anything
/// else: an object of a known type with exactly its fields, seat A..D, integers where the
/// form has integers (never a boolean or a fraction), trump an integer or a string, a tile
/// of the 28; a field an option adds only with that option in force (`forms`, from
/// `forms_of`). Else a refusal MALFORMED_ACTION. Values are left to the rules (`"points":
/// 29` and `"trump": 7` are well formed). Returns the action read.
pub fn check_action(payload: &Value, forms: &ActionForms) -> Result<Action, Fail> {
    if let Some(why) = action_form_break(payload, forms) {
        return reject(MALFORMED_ACTION, why);
    }
    strict(payload, MALFORMED_ACTION)
}

fn action_form_break(payload: &Value, forms: &ActionForms) -> Option<String> {
    let fields = match payload.as_object() {
        Some(fields) => fields,
        None => return Some("an action is an object".into()),
    };
    let is_integer = |v: Option<&Value>| v.map_or(false, |v| v.is_i64() || v.is_u64());
    let exactly = |names: &[&str]| {
        fields.len() == names.len() && names.iter().all(|n| fields.contains_key(*n))
    };
    let has = |name: &str| fields.contains_key(name);
    match fields.get("type").and_then(Value::as_str) {
        Some("pass") if !exactly(&["type", "seat"]) => {
            return Some("a pass has type and seat only".into())
        }
        Some("pass") => {}
        Some("play") => {
            if !exactly(&["type", "seat", "tile"]) {
                return Some("a play has type, seat and tile only".into());
            }
            let tile = fields.get("tile").cloned().unwrap_or(Value::Null);
            if !all_tiles()
                .iter()
                .any(|t| serde_json::to_value(t).ok().as_ref() == Some(&tile))
            {
                return Some("tile is one of the 28 \"a|b\", a <= b".into());
            }
        }
        Some("bid") => {
            let mut rest: Vec<&str> = fields
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "type" && *k != "seat")
                .collect();
            if rest.len() == 2 && (has("points") || has("marks")) {
                if let Some(choice) = forms.announces.iter().find(|c| has(c)) {
                    if fields.get(choice.as_str()) != Some(&Value::Bool(true)) {
                        return Some(format!("{} is always true", choice));
                    }
                    rest.retain(|k| *k != choice.as_str());
                }
            }
            if !has("seat") || rest.len() != 1 {
                return Some(
                    "a bid has type, seat and exactly one of points, marks or a special bid".into(),
                );
            }
            let which = rest[0];
            let carries = if which == "points" || which == "marks" {
                true
            } else {
                match forms.special.iter().find(|(name, _)| name == which) {
                    Some((_, carries)) => *carries,
                    None => {
                        return Some(format!(
                            "a bid with {} needs the option that adds it (VAR-04)",
                            which
                        ))
                    }
                }
            };
            let value = fields.get(which);
            if (carries && !is_integer(value)) || (!carries && value != Some(&Value::Bool(true))) {
                return Some(format!("{} is not of its form", which));
            }
        }
        Some("trump") => {
            for name in fields.keys() {
                match name.as_str() {
                    "type" | "seat" | "trump" | "stacks" => {}
                    "doubles" if forms.names_doubles => {}
                    _ => return Some(format!("a declaration has no field {} here (VAR-04)", name)),
                }
            }
            if !has("seat") || !has("trump") {
                return Some("a declaration has type, seat and trump".into());
            }
            if !is_integer(fields.get("trump")) && !fields["trump"].is_string() {
                return Some("trump is an integer or a string".into());
            }
            if has("stacks") && !is_integer(fields.get("stacks")) {
                return Some("stacks is an integer".into());
            }
            if has("doubles") && !fields["doubles"].is_string() {
                return Some("doubles is a string".into());
            }
        }
        _ => return Some("unknown action type".into()),
    }
    match fields.get("seat").and_then(Value::as_str) {
        Some("A" | "B" | "C" | "D") => None,
        _ => Some("seat is one of A, B, C, D".into()),
    }
}

/// Serve `engine` on stdin and stdout until `stop`. A crash (a `Fail::Crash`, a refusal
/// of a command that may not be refused, a request it cannot read) is written to stderr
/// and the process exits with status 1, without a reply (protocol.md). A panic is a
/// crash too.
pub fn serve<E: Engine>(engine: &mut E) {
    let stdin = io::stdin();
    let stdout = io::stdout();
    if let Err(crash) = serve_io(engine, stdin.lock(), stdout.lock()) {
        eprintln!("{}", crash);
        std::process::exit(1);
    }
}

/// `serve` on other streams: one reply per request, in order, each echoing its seq and
/// flushed; returns at `stop` or the end of input, or the crash.
pub fn serve_io<E: Engine>(
    engine: &mut E,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), String> {
    for line in input.lines() {
        let line = line.map_err(|e| format!("reading a request: {}", e))?;
        if line.trim().is_empty() {
            continue;
        }
        let request: Request =
            serde_json::from_str(&line).map_err(|e| format!("bad request {}: {}", line, e))?;
        let refusable = matches!(request.cmd, Cmd::Setup | Cmd::Deal | Cmd::Act);
        let reply = match dispatch(engine, &request) {
            Ok(result) => Response {
                seq: request.seq,
                ok: true,
                result: Some(result),
                error: None,
            },
            Err(Fail::Rejected { code, message }) if refusable => Response {
                seq: request.seq,
                ok: false,
                result: None,
                error: Some(wire::Error { code, message }),
            },
            Err(Fail::Rejected { code, message }) => {
                return Err(format!(
                    "{:?}: refused with {} ({}), but only setup, deal and act may be refused",
                    request.cmd, code, message
                ))
            }
            Err(Fail::Crash(why)) => return Err(format!("{:?}: {}", request.cmd, why)),
        };
        let text = serde_json::to_string(&reply).map_err(|e| e.to_string())?;
        writeln!(output, "{}", text)
            .and_then(|_| output.flush())
            .map_err(|e| e.to_string())?;
        if request.cmd == Cmd::Stop {
            break;
        }
    }
    Ok(())
}

fn dispatch<E: Engine>(engine: &mut E, request: &Request) -> Result<Value, Fail> {
    let payload = |p: &Option<Value>| p.clone().unwrap_or(Value::Null);
    let done = |r: Result<(), Fail>| r.map(|_| Value::Null);
    match request.cmd {
        Cmd::Hello => {
            let info = engine.info();
            Ok(serde_json::to_value(HelloResult {
                name: info.name,
                version: info.version,
                protocol: PROTOCOL,
                variants: info.variants,
                capabilities: info.capabilities,
                spec: None, // no spec version named: protocol.md, "Declarations and spec versions"
            })?)
        }
        Cmd::Setup => done(engine.setup(payload(&request.setup))),
        Cmd::Deal => done(engine.deal(payload(&request.deal))),
        Cmd::Act => done(engine.act(payload(&request.action))),
        Cmd::View => Ok(serde_json::to_value(engine.view()?)?),
        Cmd::Observe => {
            let seat = request
                .seat
                .clone()
                .ok_or_else(|| Fail::Crash("observe without a seat".into()))?;
            Ok(serde_json::to_value(engine.observe(seat)?)?)
        }
        Cmd::Legal => Ok(serde_json::to_value(engine.legal()?)?),
        Cmd::Perft => Ok(serde_json::to_value(
            engine.perft(request.depth.unwrap_or(0).into())?,
        )?),
        Cmd::NewMatch => done(engine.new_match()),
        Cmd::NextDeal => done(engine.next_deal()),
        Cmd::Stop => Ok(Value::Null),
    }
}
