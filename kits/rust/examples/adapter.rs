//! An example adapter around a tiny engine that deals and goes no further: it checks a
//! setup (check_setup: INVALID_SETUP), deals it (DEAL-02), shows the view and
//! observations of the opening, and refuses every action. Build and run it:
//!
//!     cargo build --example adapter
//!     t42 run -k deal.order-dealer --variant base --adapter cmd:target/debug/examples/adapter
//!
//! Replace the engine with your own; keep the mapping.

use serde_json::Value;
use t42::*;

#[derive(Default)]
struct Tiny {
    dealer: Option<Seat>,
    hands: Option<DealHands>,
    marks: (i64, i64),
}

impl Tiny {
    fn dealt(&self) -> Result<(Seat, &DealHands), Fail> {
        match (&self.dealer, &self.hands) {
            (Some(dealer), Some(hands)) => Ok((dealer.clone(), hands)),
            _ => Err(Fail::Crash("no match yet".into())),
        }
    }
}

impl Engine for Tiny {
    fn info(&self) -> Info {
        Info {
            name: "tiny-dealer-rust".into(),
            version: "0.1.0".into(),
            variants: vec![],
            capabilities: vec![],
        }
    }

    fn setup(&mut self, payload: Value) -> Result<(), Fail> {
        let setup: Setup = strict(&payload, INVALID_SETUP)?;
        match &setup.variants {
            Some(v) if serde_json::to_value(v)? != Value::Object(Default::default()) => {
                return reject(INVALID_SETUP, "the base game only")
            }
            _ => {}
        }
        let (dealer, marks, hands) = check_setup(setup)?; // dealer, marks, hands or order
        log(format!("dealt by {:?}", dealer)); // logs go to stderr
        *self = Tiny {
            dealer: Some(dealer),
            hands: Some(hands),
            marks,
        }; // checked: now change
        Ok(())
    }

    fn deal(&mut self, _deal: Value) -> Result<(), Fail> {
        reject(WRONG_PHASE, "a deal waits for round_over")
    }

    fn act(&mut self, action: Value) -> Result<(), Fail> {
        // MALFORMED_ACTION first (DIG-01); the base game's forms (forms_of(&setup.variants))
        check_action(&action, &ActionForms::default())?;
        reject(WRONG_PHASE, "this engine only deals")
    }

    fn view(&mut self) -> Result<View, Fail> {
        let (dealer, hands) = self.dealt()?;
        Ok(View {
            phase: Phase::Bidding,
            round: 1,
            to_act: Some(next_seat(&dealer)),
            dealer,
            hands: ViewHands {
                a: hands.a.clone(),
                b: hands.b.clone(),
                c: hands.c.clone(),
                d: hands.d.clone(),
            },
            bids: vec![],
            contract: None,
            trick: vec![],
            tricks: vec![],
            history: vec![],
            points: PointsClass { ac: 0, bd: 0 },
            tricks_won: TricksWon { ac: 0, bd: 0 },
            marks: ObservationMarks {
                ac: self.marks.0,
                bd: self.marks.1,
            },
            result: None,
            winner: None,
        })
    }

    fn observe(&mut self, seat: Seat) -> Result<Observation, Fail> {
        let (dealer, hands) = self.dealt()?;
        Ok(Observation {
            hand: hand_of(hands, &seat).clone(),
            seat,
            phase: Phase::Bidding,
            round: 1,
            to_act: Some(next_seat(&dealer)),
            dealer,
            hand_sizes: HandSizes {
                a: 7,
                b: 7,
                c: 7,
                d: 7,
            },
            bids: vec![],
            contract: None,
            trick: vec![],
            captured: vec![],
            history: Some(vec![]),
            points: Some(PointsClass { ac: 0, bd: 0 }),
            tricks_won: TricksWon { ac: 0, bd: 0 },
            marks: ObservationMarks {
                ac: self.marks.0,
                bd: self.marks.1,
            },
            result: None,
            winner: None,
        })
    }
}

fn main() {
    serve(&mut Tiny::default());
}
