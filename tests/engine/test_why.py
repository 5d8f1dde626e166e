"""reference_impl.why: a traced copy of a match plays as the match does, records each
decision of its rule table with the rules the deciding code names, and makes a decision
otherwise when told to."""

from __future__ import annotations

import random

from reference_impl import Match
from reference_impl.rules import BASE_RULES, Contract, contract_outcome
from reference_impl.tables import tables_for
from reference_impl.why import (
    Record,
    TracedRules,
    TracedTables,
    deciding_clause,
    named_rules,
    rule_ids,
    traced,
)


def played(seed: int, record: Record | None = None) -> Match:
    match = Match.from_seed(seed)
    if record is not None:
        match = traced(match, record)
    rng = random.Random(seed)
    while match.phase not in ("round_over", "match_over"):
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_a_traced_match_plays_as_the_match():
    for seed in range(20):
        assert played(seed, Record()).view() == played(seed).view()


def test_every_decision_names_its_rules():
    record = Record()
    played(3, record)
    entries = {d.entry for d in record.decisions.values()}
    assert {"trick_winner", "team_of", "outcome", "stake", "score", "trick_rank",
            "counters", "trick_point"} <= entries
    assert all(d.rules for d in record.decisions.values()), [
        d.entry for d in record.decisions.values() if not d.rules]
    team = next(d for d in record.decisions.values() if d.entry == "team_of")
    assert team.rules == ("TBL-02",)


def test_an_override_makes_one_decision_otherwise():
    plain = Record()
    played(5, plain)
    decision = next(d for d in plain.decisions.values() if d.entry == "team_of")
    other = Record(overrides={decision.id: 1 - decision.value})
    assert played(5, other).view() != played(5).view()


def test_a_range_of_rules_is_every_rule_in_it():
    assert rule_ids("END-01..END-04 and PTS-02") == [
        "END-01", "END-02", "END-03", "END-04", "PTS-02"]
    assert named_rules(BASE_RULES.trick_winner)[:2] == ("RANK-01", "RANK-02")


def test_the_clause_that_decided_names_its_rule_first():
    contract = Contract(0, 0, "marks", 2)
    value, clause = deciding_clause(
        lambda: contract_outcome(BASE_RULES, contract, [0, 1], [0, 1]))
    assert value == "set" and clause[0] == "END-04"


def test_every_decision_under_every_option_names_a_rule():
    """Every rule function names the rules it decides: under the setups of the corpus's
    option scenarios, every decision a traced game records names one."""
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2] / "scenarios" / "variants"
    unnamed: set[str] = set()
    played = 0
    for path in sorted(root.rglob("*.yaml"))[::7]:
        scenario = yaml.safe_load(path.read_text()) or {}
        setup, variants = scenario.get("setup"), scenario.get("variants")
        if not isinstance(setup, dict) or not variants:
            continue
        try:
            match = Match.start({**setup, "variants": variants})
        except Exception:  # noqa: BLE001 - a scenario about a refused setup
            continue
        record = Record(clauses=True)
        match, rng = traced(match, record), random.Random(path.name)
        for _ in range(40):
            actions = match.legal_actions()
            if not actions:
                break
            match.apply(rng.choice(actions))
        match.view()
        played += 1
        unnamed |= {d.entry for d in record.decisions.values() if not d.rules}
    assert played >= 20, played
    assert not unnamed, f"decisions that name no rule: {sorted(unnamed)}"


def test_a_table_entry_read_is_named_by_the_clause_that_built_it():
    """The suit tables are built once from the rule functions; a record that names clauses
    names each entry read by the clause of the function that decided it, as a call would
    (a non-trump lead calls its larger number: SUIT-05, not the docstring's SUIT-04)."""
    from reference_impl.tiles import TILE_INDEX

    record = Record(clauses=True)
    tables = TracedTables(tables_for(BASE_RULES), TracedRules(BASE_RULES, record), record)
    trump = BASE_RULES.trumps.index(6)
    assert tables.called[trump][TILE_INDEX["2|4"]] == 4
    assert tables.called[trump][TILE_INDEX["5|6"]] != 5  # a trump: calls trumps
    called = {d.key[-1]: d for d in record.decisions.values() if d.entry == "called_suit"}
    assert called[TILE_INDEX["2|4"]].deciding == ("SUIT-05",)
    assert called[TILE_INDEX["5|6"]].deciding == ("SUIT-04",)
    assert called[TILE_INDEX["2|4"]].rules[:1] == ("SUIT-05",)  # every rule named, after
    assert set(named_rules(BASE_RULES.called_suit)) <= set(called[TILE_INDEX["2|4"]].rules)
    tables.follow[trump][4]  # noqa: B018 - reading the row records each tile's decision
    follows = {d.key[-1]: d for d in record.decisions.values() if d.entry == "follows"}
    assert follows[TILE_INDEX["1|4"]].deciding == ("SUIT-06",)


def test_without_clauses_a_decision_is_named_by_all_its_code_names():
    record = Record()
    tables = TracedTables(tables_for(BASE_RULES), TracedRules(BASE_RULES, record), record)
    tables.called[BASE_RULES.trumps.index(6)][0]  # noqa: B018
    decision = next(d for d in record.decisions.values() if d.entry == "called_suit")
    assert decision.deciding == decision.rules == named_rules(BASE_RULES.called_suit)


def test_a_clause_computed_from_a_test_is_the_callers_own():
    """`return not is_trump(...) and called in PIPS[tile]` is SUIT-06's clause even when
    is_trump's False equals its value by chance; `return is_trump(...)` passes the test's
    clause on (SUIT-03 under no-trump, SUIT-01 under a number)."""
    from reference_impl import rules as R
    from reference_impl.tiles import TILE_INDEX

    assert deciding_clause(lambda: R.follows(TILE_INDEX["1|2"], 3, "none"))[1] == ("SUIT-06",)
    assert deciding_clause(lambda: R.follows(TILE_INDEX["5|5"], R.TRUMP_SUIT, "none"))[1] \
        == ("SUIT-03",)
    assert deciding_clause(lambda: R.follows(TILE_INDEX["1|6"], R.TRUMP_SUIT, 6))[1] \
        == ("SUIT-01",)
