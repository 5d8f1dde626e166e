//! The Rust kit's action-form checker as an adapter uses it (tests/kits/test_rust_kit.py
//! copies this into a copy of the kit's examples/ and runs it): each stdin line,
//! [action, variants], read as a setup's variants (`forms_of`) and the action checked
//! (`check_action`); "ok" or the refusal's code on a line.

use serde_json::Value;
use std::io::BufRead;
use t42::*;

fn main() {
    for line in std::io::stdin().lock().lines() {
        let given: Vec<Value> = serde_json::from_str(&line.unwrap()).unwrap();
        let variants: Option<Variants> = serde_json::from_value(given[1].clone()).unwrap();
        match check_action(&given[0], &forms_of(&variants)) {
            Ok(_) => println!("ok"),
            Err(Fail::Rejected { code, .. }) => println!("{}", code),
            Err(Fail::Crash(why)) => panic!("{}", why),
        }
    }
}
