"""The cause of a failure, per kind of difference (spec/INTERPRETING.md, "How a cause is
found"): the rule found, one group for one cause, and the sentence of the rule printed.

Each engine here breaks one rule (a planted bug of `conformance/planted/`, or a form mistake), and
its report over the scenarios of the rule's area must be one group under that rule.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus import select
from conformance.planted import BY_NAME
from conformance.report.text import groups
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.run.settle import settle

ROOT = Path(__file__).resolve().parents[3]


@cache
def scenarios(*folders: str) -> tuple:
    loaded = select.load([ROOT / "scenarios" / f for f in folders])
    return tuple(item.scenario for item in loaded if item.scenario)


def report(adapter, folders: tuple[str, ...], level: str = "rules"):
    results = [run_scenario(s, adapter, level=level) for s in scenarios(*folders)]
    return groups(settle(results))


# (plant, scenario folders, the one rule, words of its cause, words of the rule's sentence)
ONE_CAUSE = [
    # an action accepted that the reference refuses: the rule of the reference's refusal;
    # a later marks bid is BID-06's, not the first one's BID-05
    ("marks-step-two", ("bidding",), "BID-06", "accepted, though it must be refused",
     "exactly one mark more"),
    # an action refused that the reference accepts: the rule the code claims here (no
    # forced bid in the base game: four passes are BID-09's)
    ("dealer-forced-to-bid", ("bidding",), "BID-09", "refused with FORCED_BID",
     "all four seats pass"),
    # legal plays that differ: the rule whose misreading gives the engine's set
    ("must-follow-not-enforced", ("play", "suits"), "PLAY-05", "no duty to follow",
     "MUST play"),
    ("lead-calls-smaller-number", ("suits",), "SUIT-05", "called its smaller number",
     "larger number"),
    # a view field: the rule the reference applied where the states first part
    ("leader-rotates", ("play", "visibility"), "PLAY-03", "view.to_act differs",
     "winner of a trick MUST lead"),
    ("trick-point-forgotten", ("points",), "PTS-01", "view.tricks.points differs",
     "1 round point"),
    # a leak: once, under the rule that hides it (the covered faces, not also `captured`)
    ("covered-tricks-shown", ("visibility",), "VIS-06", "faces of covered tricks",
     "MUST NOT"),
    # positions that fit two rules are settled by the run's other failures: a seat void in
    # both numbers of a trump lead (no duty to follow, or the lead's larger number called)
    ("trump-lead-calls-larger-number", ("suits", "play"), "SUIT-04",
     "trump lead called its larger number", "calls trumps"),
    ("must-overtrump", ("play", "suits", "perft"), "PLAY-06", "beat the highest trump",
     "MAY play any tile"),
    # a round played on after it is decided: the rule that decided it, or END-05's early
    # end; one engine that never ends early is END-05's, whatever decided each round
    ("round-played-out-when-decided", ("outcome", "contract"), "END-05",
     "view.result differs", "even if tricks remain"),
    ("marks-not-set-by-blank-trick", ("outcome", "contract"), "END-04",
     "view.result differs", "whatever it holds"),
    # a marks bid raised by two after a plunge: RAISE-02's raise, not the plunge's marks
    ("marks-raise-ignored", ("variants/marks_raise",), "RAISE-02", "refused with MARKS_BID_STEP",
     "one or two marks more"),
    # a Nel-O bid from a seat that is not the forced dealer: NELLO-14 says it is refused;
    # an engine that ignores forced_only for declarations too breaks FORCE-06 (settled)
    ("nello-bid-forced-only-ignored", ("variants/nello",), "NELLO-14",
     "accepted, though it must be refused", "MUST"),
    ("forced-only-ignored", ("variants/nello", "variants/forced_bid"), "FORCE-06",
     "accepted, though it must be refused", "MUST"),
    # a field the schema does not know, a leak during the round and only unknown after it
    ("captured-names-seats", ("visibility",), "VIS-08", "who played or won", "never the seats"),
    # an option's interaction rule names the refusal (PLUNGE-08: plunge_terms' plunge
    # jumps), not the rule it extends (PLUNGE-07)
    ("plunge-terms-jump-dropped", ("variants/plunge", "variants/plunge_terms"), "PLUNGE-08",
     "refused with MARKS_BID_STEP", "jumps too"),
    # ... and the rule it extends where the engine ignores that rule everywhere
    ("plunge-any-time-ignored", ("variants/plunge", "variants/plunge_terms"), "PLUNGE-07",
     "refused with MARKS_BID_STEP", "also after other bids"),
    # a legal point bid announcing Nel-O is the rule that lets a point contract carry it
    ("nello-point-contract-refused", ("variants/nello",), "NELLO-11",
     "refused with TRUMP_NOT_ALLOWED", "point contract"),
    # a failure whose readings name one rule twice counts for it once (PTERMS-11 here)
    ("declared-plunge-not-raised", ("variants/plunge_terms",), "PTERMS-11",
     "view.contract.bid differs", "raise"),
    # a value that fits two rules (the terms' marks, equal to the unraised bid): settled
    # by the run's other failures
    # a special bid's jump taken where the reference refuses it fits the bid's marks too
    ("splash-bids-four-marks", ("variants/splash", "variants/plunge"), "SPLASH-03",
     "view.contract.bid differs", "marks bid of"),
    ("plunge-bids-five-marks", ("variants/plunge",), "PLUNGE-03",  # extra legal bids too
     "view.contract.bid differs", "ranks as 4 marks"),
    ("declared-plunge-played-for-setting", ("variants/plunge_terms",), "PTERMS-08",
     "view.contract.bid differs", "Once the plunge is declared"),
]


@pytest.mark.parametrize("plant,folders,rule,cause,sentence", ONE_CAUSE,
                         ids=[c[0] for c in ONE_CAUSE])
def test_one_cause_is_one_group_under_its_rule(plant, folders, rule, cause, sentence):
    found = report(BY_NAME[plant].adapter(), folders)
    assert [g.rule for g in found] == [rule], [(g.rule, g.what) for g in found]
    assert cause in found[0].what
    block = found[0].render()
    line = next(li for li in block.splitlines() if li.strip().startswith(f"rule {rule}:"))
    assert sentence in line  # the sentence of the rule broken, not merely its first one


class CamelCaseView(ReferenceAdapter):
    """A form mistake: the view's `to_act` written `toAct`."""

    name = "camel-case-view"

    def view(self):
        view = dict(super().view())
        view["toAct"] = view.pop("to_act")
        return view


def test_a_form_mistake_is_one_group_that_says_what_to_change():
    found = report(CamelCaseView(), ("bidding", "play"))
    assert len(found) == 1 and found[0].rule == "observation.md"
    assert found[0].what == "view.toAct: unknown field; the field is to_act"
    assert len(found[0].ids) > 10


class StringTrump(ReferenceAdapter):
    """A form mistake: a number trump written as a string, `"6"` for `6`."""

    name = "string-trump"

    def view(self):
        view = dict(super().view())
        contract = view.get("contract")
        if contract and isinstance(contract.get("trump"), int):
            view["contract"] = {**contract, "trump": str(contract["trump"])}
        return view


def test_a_value_of_the_wrong_type_is_a_form_mistake_not_a_rule_whatever_the_value():
    found = report(StringTrump(), ("play", "suits"))
    assert [g.rule for g in found] == ["observation.md"], [(g.rule, g.what) for g in found]
    assert found[0].what.startswith("view.contract.trump: a string is not 0..6")


def test_a_state_that_parted_earlier_names_the_step_where_it_did():
    """A round that ended at a step nothing checked is shown with that step, and the
    reference's round points against the bid."""
    found = report(BY_NAME["set-awards-bidders"].adapter(), ("outcome",))
    detail = next(d for g in found for _, d in g.members if d.first_seen)
    lines = "\n".join(detail.lines() + detail.context)
    assert f"first differed from the reference's after {detail.first_seen}" in lines
    assert "the reference there: round points AC" in lines and "against" in lines


class RoundKeptAtDeal(ReferenceAdapter):
    """State carried across rounds: after a deal the view keeps the last round's bids and
    contract, as an engine that never clears them at a new deal would show them."""

    name = "round-kept-at-deal"
    kept = None

    def deal(self, deal):
        last = self.match.view()
        super().deal(deal)
        self.kept = {"bids": last["bids"], "contract": last["contract"]}

    def start(self, setup):
        super().start(setup)
        self.kept = None

    def act(self, action):
        super().act(action)
        self.kept = None

    def view(self):
        return {**super().view(), **(self.kept or {})}


def test_a_field_kept_from_the_last_round_is_the_rule_of_what_it_shows():
    """A deal begins a round: a field the engine carried over from the last one is filed
    under the rule of what the field shows (spec/observation.md: the bids and the contract
    are this round's, VIS-02), not under the deal's rules."""
    found = report(RoundKeptAtDeal(), ("bidding", "visibility"))
    assert {g.rule for g in found} == {"VIS-02"}, [(g.rule, g.what) for g in found]
    assert "after a deal" in found[0].what or "differs" in found[0].what


class PassWithoutSeat(ReferenceAdapter):
    """The record of an action written otherwise: a pass shown in `bids` without its seat."""

    name = "pass-without-seat"

    def view(self):
        view = super().view()
        return {**view, "bids": [{"type": "pass"} if b["type"] == "pass" else b
                                 for b in view["bids"]]}


def test_an_action_recorded_otherwise_is_the_rule_of_the_record():
    """A pass the reference records as it was sent and the engine records without its
    seat: no rule decided the record's form but the one of what the field shows (VIS-02:
    every bid and pass with its seat), not the rule that made the pass legal (BID-01)."""
    found = report(PassWithoutSeat(), ("bidding",))
    assert {g.rule for g in found} == {"VIS-02"}, [(g.rule, g.what) for g in found]


def test_the_reference_explains_a_refusal_by_the_rule_that_decides_it():
    """explain.refusal_rule: a trump that shows the called number does not follow it by
    SUIT-01 (a number trump belongs to the trump suit only), not merely PLAY-05."""
    from conformance.run.diagnosis import explain
    from reference_impl import Match

    hands = {"A": ["0|0", "0|4", "1|2", "2|5", "3|3", "4|6", "5|6"],
             "B": ["0|1", "0|5", "1|3", "2|2", "3|4", "3|6", "4|5"],
             "C": ["0|2", "1|1", "1|4", "2|3", "2|6", "3|5", "6|6"],
             "D": ["0|3", "0|6", "1|5", "1|6", "2|4", "4|4", "5|5"]}
    m = Match.start({"dealer": "D", "hands": hands})
    m.apply({"type": "bid", "seat": "A", "points": 30})
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    m.apply({"type": "trump", "seat": "A", "trump": 6})
    m.apply({"type": "play", "seat": "A", "tile": "2|5"})  # calls fives
    # B holds 0|5 and 4|5 (fives), and 3|6 is a trump: not a five
    assert explain.refusal_rule(m, {"type": "play", "seat": "B", "tile": "3|6"}) == "PLAY-05"
    assert explain.refusal_rule(m, {"type": "play", "seat": "B", "tile": "2|2"}) == "SUIT-05"
    assert explain.refusal(m, {"type": "play", "seat": "B", "tile": "0|5"}) is None


def test_a_malformed_action_judged_by_its_content_is_dig_01():
    """`{"points": true}` refused with POINT_BID_RANGE: the engine read `true` as a
    number; the form is DIG-01's, not the check order's."""
    found = report(BY_NAME["boolean-is-integer"].adapter(), ("actions",), level="strict")
    assert {g.rule for g in found} == {"DIG-01"}, [(g.rule, g.what) for g in found]


# ---- special bids (issue 30): the rule follows the special bid in play -----------------

# B holds four doubles (a plunge), A three (a splash); A deals, so B bids first
SPECIAL_HANDS = {"A": ["0|0", "1|1", "2|2", "0|1", "0|2", "1|2", "0|3"],
                 "B": ["6|6", "5|5", "4|4", "3|3", "5|6", "4|6", "4|5"],
                 "C": ["1|3", "2|3", "1|4", "2|4", "3|4", "0|4", "1|5"],
                 "D": ["0|5", "2|5", "3|5", "0|6", "1|6", "2|6", "3|6"]}


def special_match(variants: dict, *actions: dict):
    from reference_impl import Match

    match = Match.start({"dealer": "A", "hands": SPECIAL_HANDS, "variants": variants})
    for action in actions:
        match.apply(action)
    return match


def test_a_marks_bid_refused_after_a_plunge_fits_the_plunges_marks_under_any_raise():
    """After a plunge the next marks bid counts from the plunge's marks (PLUNGE-03): a 7
    accepted after a 4-mark plunge with raises of 1 or 2 is an engine that took the plunge
    for 5 marks, or one that raises by 3 (RAISE-02): both fit, the run tells which."""
    from conformance.run.diagnosis import explain

    plunge = {"type": "bid", "seat": "B", "plunge": True}
    seven = {"type": "bid", "seat": "C", "marks": 7}
    match = special_match({"plunge": True}, plunge)
    assert explain.refusal_rule(match, seven) == "PLUNGE-03"
    match = special_match({"plunge": True, "marks_raise": True}, plunge)
    assert explain.refusal_rule(match, seven) == "RAISE-02"
    assert explain.raise_alternatives(match, seven, "RAISE-02") == ("PLUNGE-03",)
    assert explain.raise_alternatives(special_match({"marks_raise": True}), seven,
                                      "RAISE-02") == ()


def test_a_special_bid_of_the_wrong_form_is_the_rule_of_the_option_in_force():
    """A special bid's form that an option in force defines otherwise: `"splash": true`
    where the splash carries its marks (SPLASH-06), a plunge bid where the plunge is named
    at the declaration (PTERMS-06); VAR-04 only where no option in force knows the form.
    A legal splash that carries its marks is SPLASH-06's."""
    from conformance.run.diagnosis import explain

    chosen = special_match({"splash": {"marks": "bid"}})
    splash = {"type": "bid", "seat": "B", "splash": True}
    assert explain.refusal_rule(chosen, splash) == "SPLASH-06"
    assert explain.refusal_rule(special_match({"splash": True}), {**splash, "splash": 2}) == \
        "SPLASH-06"
    assert explain.legal_rule(chosen, {**splash, "splash": 2}) == "SPLASH-06"
    declared = special_match({"plunge_terms": {"announce": "declaration"}})
    plunge = {"type": "bid", "seat": "B", "plunge": True}
    assert explain.refusal_rule(declared, plunge) == "PTERMS-06"
    assert explain.refusal_rule(special_match({}), plunge) == "VAR-04"
    assert explain.refusal_rule(special_match({"nello": True}), splash) == "VAR-04"


# (plant, scenario folders, the rules of its groups): a plant that wrapped a function the
# special bids share broke the other bid's rule too; narrowed, it breaks its own alone
SPECIAL_PLANTS = [
    ("plunger-declares", ("variants/plunge", "variants/splash"), {"PLUNGE-04"}),
    ("splash-splasher-declares", ("variants/plunge", "variants/splash"), {"SPLASH-04"}),
    ("splash-after-bid", ("variants/splash", "variants/marks_raise"), {"SPLASH-02"}),
    ("splash-marks-fixed", ("variants/splash",), {"SPLASH-06"}),
    ("declared-plunge-doubles-unchecked", ("variants/plunge_terms",), {"PTERMS-07"}),
    ("declared-plunge-bid-kept", ("variants/plunge_terms",), {"PTERMS-06"}),
    # a jump taken from its wrong marks is its marks' rule, the extra legal bids too
    ("plunge-bids-five-marks", ("variants/plunge", "variants/marks_raise"), {"PLUNGE-03"}),
    # a narrowed plant (Nel-O only) whose failure on a plunge_terms plunge is PTERMS-04's
    ("plunge-terms-nello-on-plunge", ("variants/plunge_terms", "variants/splash"),
     {"PTERMS-04"}),
    # a rule that reads whether the contract is a plunge, on a contract another rule makes
    # one (explain.plunge_by): a splash (SPLASH-04), a plunge declared (PTERMS-08)
    ("splash-not-a-plunge", ("variants/splash", "variants/nello", "variants/plunge_terms"),
     {"SPLASH-04"}),
    ("declared-plunge-not-a-plunge", ("variants/plunge_terms",), {"PTERMS-08"}),
    # the same failures from an engine that breaks the plunge's own rule stay its rule
    ("nello-on-plunge", ("variants/plunge", "variants/splash", "variants/plunge_terms"),
     {"PLUNGE-05"}),
    ("plunge-terms-partner-leads", ("variants/plunge_terms", "variants/splash"),
     {"PTERMS-03"}),
    # two special bids at one table (explain.beside_rule): SPLASH-05's
    ("plunge-over-splash", ("variants/splash", "variants/plunge"), {"SPLASH-05"}),
    ("splash-replaces-plunge", ("variants/splash", "variants/plunge"), {"SPLASH-05"}),
    ("plunge-after-bid", ("variants/splash", "variants/plunge"), {"PLUNGE-02"}),
]


@pytest.mark.parametrize("plant,folders,rules", SPECIAL_PLANTS, ids=[c[0] for c in SPECIAL_PLANTS])
def test_a_special_bids_plant_is_filed_under_its_own_rule(plant, folders, rules):
    found = report(BY_NAME[plant].adapter(), folders)
    assert found and {g.rule for g in found} == rules, [(g.rule, g.what) for g in found]


def test_the_rule_that_makes_a_contract_a_plunge_follows_the_special_bid_in_play():
    """explain.plunge_by: none for the plunge bid of `plunge` (its rules are its own),
    SPLASH-04 for a splash, PTERMS-04 for the plunge bid of plunge_terms, PTERMS-08 (and
    PTERMS-04) for a plunge named at the declaration; explain.beside_rule: SPLASH-05 for a
    special bid's own rule at a table of two, and only after the other special bid does it
    decide (explain.after_other_special_bid)."""
    from conformance.run.diagnosis import explain

    passes = [{"type": "pass", "seat": s} for s in "CDA"]
    plunge = {"type": "bid", "seat": "B", "plunge": True}
    splash = {"type": "bid", "seat": "B", "splash": True}
    assert explain.plunge_by(special_match({"plunge": True}, plunge, *passes)) == ()
    assert explain.plunge_by(special_match({"plunge": True, "splash": True}, splash,
                                           *passes)) == ("SPLASH-04",)
    assert explain.plunge_by(special_match({"plunge_terms": True}, plunge, *passes)) == \
        ("PTERMS-04",)
    declared = special_match({"plunge_terms": {"announce": "declaration", "marks": 2}},
                             {"type": "bid", "seat": "B", "marks": 2}, *passes,
                             {"type": "trump", "seat": "B", "trump": "plunge"})
    assert explain.plunge_by(declared) == ("PTERMS-08", "PTERMS-04")
    both = {"plunge": True, "splash": True}
    after = special_match(both, {"type": "bid", "seat": "B", "splash": True})
    late = {"type": "bid", "seat": "C", "plunge": True}
    assert explain.beside_rule(after, late, "PLUNGE-02") == "SPLASH-05"
    assert explain.after_other_special_bid(after, late)
    assert explain.beside_rule(after, late, "NELLO-02") is None
    assert explain.beside_rule(special_match({"plunge": True}), plunge, "PLUNGE-02") is None
    assert not explain.after_other_special_bid(special_match(both), plunge)


# Issue 30: each failure under the rule the engine breaks. A plant that breaks one rule of
# an option, over the scenarios of its option (and those it interacts with), is one group
# under that rule; the plants narrowed to their described rule are still caught.
OPTION_CAUSE = [
    # narrowed: the declaring partner of a plunge still sits out (NELLO-12)
    ("nello-partner-plays", ("variants/nello",), "NELLO-03"),
    # narrowed: NELLO-15's announcement is still checked
    ("nello-on-plunge", ("variants/nello", "variants/plunge", "variants/combined"),
     "PLUNGE-05"),
    # narrowed: a marks contract still needs min_marks (SEVENS-07)
    ("sevens-on-point-contract", ("variants/sevens", "variants/bid_42"), "SEVENS-02"),
    # narrowed: doubles "declared" (NELLO-13, NOTRUMP-05) is another rule's setting
    ("nello-doubles-always-high", ("variants/nello",), "NELLO-06"),
    # the suits of a no-trump contract are its option's rule, though they are NELLO-06's
    # functions (for_choice's `rule`); narrowed: each plant plays one value wrong
    ("no-trump-own-suit-as-low", ("variants/no_trump",), "NOTRUMP-03"),
    ("no-trump-doubles-high", ("variants/no_trump",), "NOTRUMP-02"),
    # a trump that is not "none" played by the no-trump doubles (for_choice's `others_rule`)
    ("no-trump-every-contract", ("variants/no_trump",), "NOTRUMP-04"),
    # the engine plays another value of the doubles than the one declared: its plays and
    # winners are that value's
    ("nello-named-doubles-ignored", ("variants/nello",), "NELLO-13"),
    ("no-trump-named-doubles-ignored", ("variants/no_trump",), "NOTRUMP-05"),
    # the hand size of the seat that sits out
    ("nello-partner-hand-shown-empty", ("variants/nello",), "NELLO-09"),
    # Nel-O refused where the declared plunge may be declared instead (its check's
    # `beside_rule`)
    ("declared-plunge-no-nello-for-declarer", ("variants/plunge_terms",), "PTERMS-09"),
]


@pytest.mark.parametrize("plant,folders,rule", OPTION_CAUSE, ids=[c[0] for c in OPTION_CAUSE])
def test_an_option_rule_broken_is_one_group_under_that_rule(plant, folders, rule):
    bug = BY_NAME[plant]
    found = report(bug.adapter(), folders, level=bug.level)
    assert [g.rule for g in found] == [rule], [(g.rule, g.what) for g in found]


def _declared(variants: dict, trump: str, **named):
    """A no-trump or Nel-O contract declared by A on a 2-mark bid, dealer D."""
    from reference_impl import Match

    hands = {"A": ["0|0", "1|1", "2|2", "0|1", "0|2", "1|2", "2|5"],
             "B": ["5|5", "0|3", "1|3", "2|3", "3|3", "0|4", "1|4"],
             "C": ["1|5", "3|5", "4|5", "5|6", "3|6", "4|6", "6|6"],
             "D": ["0|5", "3|4", "2|4", "4|4", "0|6", "1|6", "2|6"]}
    m = Match.start({"dealer": "D", "hands": hands, "variants": variants})
    m.apply({"type": "bid", "seat": "A", "marks": 2})
    for seat in "BCD":
        m.apply({"type": "pass", "seat": seat})
    m.apply({"type": "trump", "seat": "A", "trump": trump, "stacks": 1, **named})
    return m


def test_the_suits_of_a_choice_are_read_under_the_trump_declared():
    """explain.suit_rule: under no_trump's own suit a double that follows the doubles is
    NOTRUMP-03's; with nello in force too, a Nel-O's suits are still NELLO-06's."""
    from conformance.run.diagnosis import explain
    from reference_impl.tiles import TILE_INDEX

    both = {"no_trump": {"doubles": "own_suit"}, "nello": {"doubles": "own_suit"}}
    none = _declared(both, "none")
    none.apply({"type": "play", "seat": "A", "tile": "2|2"})  # calls the doubles
    assert explain.suit_rule(none, TILE_INDEX["3|3"]) == "NOTRUMP-03"
    nello = _declared(both, "nello")
    nello.apply({"type": "play", "seat": "A", "tile": "2|2"})
    assert explain.suit_rule(nello, TILE_INDEX["3|3"]) == "NELLO-06"


def test_a_play_legal_by_another_named_value_is_the_naming_rule():
    """explain.played_as_named: 2|3 follows 2|2 led when the doubles are high or low, not
    when the declarer named them a suit of their own (NOTRUMP-05); 3|3 the other way."""
    from conformance.run.diagnosis import explain
    from reference_impl.tiles import TILE_INDEX

    m = _declared({"no_trump": {"doubles": "declared"}}, "none", doubles="own_suit")
    m.apply({"type": "play", "seat": "A", "tile": "2|2"})
    assert explain.played_as_named(m, TILE_INDEX["2|3"]) == "NOTRUMP-05"
    assert explain.played_as_named(m, TILE_INDEX["3|3"]) == "NOTRUMP-05"
    assert explain.played_as_named(m, TILE_INDEX["0|3"]) is None  # illegal by every value


class SittingOutCountedAsPlaying(ReferenceAdapter):
    """NELLO-09 broken another way than the plant: the seat that sits out is shown with as
    many tiles as the declarer, as if it played."""

    name = "sitting-out-counted-as-playing"

    def observe(self, seat):
        shown = dict(super().observe(seat))
        contract = shown.get("contract")
        if contract and contract.get("trump") == "nello":
            declarer = contract["declarer"]
            partner = "ABCD"[("ABCD".index(declarer) + 2) % 4]
            shown["hand_sizes"] = {**shown["hand_sizes"],
                                   partner: shown["hand_sizes"][declarer]}
        return shown


def test_the_hand_size_of_the_seat_that_sits_out_is_nello_09():
    found = report(SittingOutCountedAsPlaying(), ("variants/nello",))
    assert {g.rule for g in found} == {"NELLO-09"}, [(g.rule, g.what) for g in found]


class StakeShownAs(ReferenceAdapter):
    """Under match_points, a marks contract's `contract.stake` shown as `value(n)` for a
    bid of n marks (the reference plays on by the right values)."""

    name = "stake-shown-as"

    def __init__(self, value) -> None:
        super().__init__()
        self.value = value

    def view(self):
        view = dict(super().view())
        contract, m = view.get("contract"), self.match
        if contract and "match_points" in m.variants and m.contract.kind == "marks":
            view["contract"] = {**contract, "stake": self.value(m.contract.value)}
        return view


@pytest.mark.parametrize("value,rule", [(lambda n: n, "MPTS-03"),
                                        (lambda n: 1 << (n - 1), "MPTS-03"),
                                        (lambda n: 42 * n, "MPTS-10")],
                         ids=["mark-worth-one-point", "ladder-of-one-point", "linear-ladder"])
def test_a_marks_value_not_in_42_point_marks_is_mpts_03_even_on_the_doubling_ladder(
        value, rule):
    """MPTS-03 gives a mark's worth, 42 points, which MPTS-10's ladder only doubles (42
    for 1 mark under either): a value that is no whole number of 42-point marks misreads
    the mark (MPTS-03) on either ladder; a value in marks of 42 on the wrong ladder is
    MPTS-10's."""
    found = report(StakeShownAs(value), ("variants/match_points",))
    assert [g.rule for g in found] == [rule], [(g.rule, g.what) for g in found]


class RoundPointsAlwaysAdded(ReferenceAdapter):
    """Under match_points, a set contract worth 42 or more shows in `result.marks` its
    value plus the defenders' round points, `high_bids` whatever it says."""

    name = "round-points-always-added"

    def view(self):
        view = dict(super().view())
        m, result = self.match, view.get("result")
        if result and result["outcome"] == "set" and m.rules.all_or_nothing and \
                view["contract"]["stake"] >= 42:
            points = view["points"][result["awarded_to"]]
            view["result"] = {**result, "marks": result["marks"] + points}
        return view


def test_a_set_contract_scored_with_round_points_under_all_or_nothing_is_mpts_11():
    """MPTS-11, not MPTS-06: all or nothing replaces MPTS-06's "plus the round points"
    for a set contract worth 42 or more."""
    found = report(RoundPointsAlwaysAdded(), ("variants/match_points",))
    assert [g.rule for g in found] == ["MPTS-11"], [(g.rule, g.what) for g in found]


class PlungeWorth168(ReferenceAdapter):
    """Under match_points, every plunge's `contract.stake` shown as 168, whatever its
    marks."""

    name = "plunge-worth-168"

    def view(self):
        view = dict(super().view())
        contract, m = view.get("contract"), self.match
        if contract and "match_points" in m.variants and m.contract.partner_declares:
            view["contract"] = {**contract, "stake": 168}
        return view


def test_a_plunge_terms_plunge_valued_wrongly_under_match_points_is_pterms_04():
    """PTERMS-04 restates MPTS-03 for plunge_terms' plunge (42 times its marks): the more
    specific rule, unless the run shows every mark valued wrongly (MPTS-03)."""
    found = report(PlungeWorth168(), ("variants/plunge_terms",))
    assert [g.rule for g in found] == ["PTERMS-04"], [(g.rule, g.what) for g in found]
    every_mark = report(StakeShownAs(lambda n: n), ("variants/match_points",
                                                     "variants/plunge_terms"))
    assert [g.rule for g in every_mark] == ["MPTS-03"], [(g.rule, g.what) for g in every_mark]


class CodeSwapped(ReferenceAdapter):
    """Refuses as the reference does, but with `code` where `swap(match, action, refused)`
    says so."""

    name = "code-swapped"

    def __init__(self, code, swap) -> None:
        super().__init__()
        self.code, self.swap = code, swap

    def act(self, action):
        from conformance.adapters.protocol import Rejected

        try:
            super().act(action)
        except Rejected as refused:
            if self.swap(self.match, action, refused.code):
                raise Rejected(self.code, "swapped") from None
            raise


def _special_bid_one_step(match, action, code):
    """A special bid after a marks bid of other than one below it fails the step."""
    from reference_impl.rules import special_bid_marks

    kind = next((k for k in action if k in ("plunge", "splash")), None)
    return code == "PLUNGE_NOT_ALLOWED" and kind and match.last_marks and special_bid_marks(
        match.rules, kind, match.last_marks) - match.last_marks != 1


@pytest.mark.parametrize("code,swap,folders,rule", [
    ("MARKS_BID_STEP", _special_bid_one_step, ("variants/marks_raise",), "RAISE-03"),
    ("TRUMP_NOT_ALLOWED", lambda m, a, code: code == "INVALID_TRUMP" and
     a.get("trump") in ("nello", "sevens") and "forced_bid" in m.variants,
     ("variants/forced_bid",), "FORCE-06")], ids=["earlier-code", "later-code"])
def test_a_refusal_with_another_code_is_the_rule_whose_check_the_engine_got_wrong(
        code, swap, folders, rule):
    """Both refuse, with other codes: a code of an earlier check fails a check the action
    passes (RAISE-03: a special bid raises as a marks bid of its marks); a later code
    passes the reference's check (VAR-04, which FORCE-06 restates for "nello" without its
    option). DIG-03 only where the action breaks both checks (the scenario's `also`)."""
    found = report(CodeSwapped(code, swap), folders, level="codes")
    assert [g.rule for g in found] == [rule], [(g.rule, g.what) for g in found]


@pytest.mark.parametrize("plant,rule", [
    # refuses Nel-O and Sevens on forced contracts, ends every forced 30 at 30: each
    # difference is the reference's with the contract recorded not forced (FORCE-05)
    ("forced-never-recorded", "FORCE-05"),
    ("forced-every-contract", "FORCE-05"),
    # only the round's end differs: FORCE-08, though it fits FORCE-05 as well
    ("sweep-ends-at-30", "FORCE-08"),
    # the bonus to the defenders of a set forced 30, a Nel-O one included (FORCE-07)
    ("sweep-bonus-when-set", "FORCE-07")])
def test_a_contract_recorded_forced_the_other_way_is_settled_by_the_run(plant, rule):
    found = report(BY_NAME[plant].adapter(), ("variants/forced_bid", "variants/nello"))
    assert {g.rule for g in found} == {rule}, [(g.rule, g.what) for g in found]


def test_stacks_wrong_for_an_options_choice_only_is_that_choices_rule():
    """UNDECL-02 restates CON-02 for "first_tile" (with stacks on a marks contract): an
    engine that takes "first_tile" without stacks, and only it, breaks UNDECL-02."""
    found = report(BY_NAME["first-tile-stacks-default-two"].adapter(),
                   ("variants/undeclared_trump", "variants/combined"))
    assert {g.rule for g in found} == {"UNDECL-02"}, [(g.rule, g.what) for g in found]


class ScoresCappedAtSix(ReferenceAdapter):
    """The view's `marks` held to 0..6, as starting marks of the base game are."""

    name = "scores-capped-at-six"

    def view(self):
        view = dict(super().view())
        view["marks"] = {team: min(n, 6) for team, n in view["marks"].items()}
        return view


def test_starting_scores_shown_wrongly_are_the_rule_of_their_range_under_the_options():
    """A setup's starting scores under match_points are MPTS-02's (0..target - 1), not
    the base game's SCORE-03."""
    found = report(ScoresCappedAtSix(), ("variants/match_points",))
    assert found and {g.rule for g in found if "after a setup" in g.what} == {"MPTS-02"}, [
        (g.rule, g.what) for g in found]


def test_a_later_code_that_the_action_breaks_too_is_the_check_order():
    """WRONG_PHASE comes before NOT_YOUR_TURN (errors.yaml): a declaration during the
    bidding by a seat not to act breaks both, so NOT_YOUR_TURN is a check-order mistake
    (DIG-03: no other rule); by the seat to act, NOT_YOUR_TURN is a wrong reading of the
    phase rule the reference refuses it by."""
    from conformance.run.diagnosis import explain
    from reference_impl import Match

    hands = {"A": ["0|0", "0|4", "1|2", "2|5", "3|3", "4|6", "5|6"],
             "B": ["0|1", "0|5", "1|3", "2|2", "3|4", "3|6", "4|5"],
             "C": ["0|2", "1|1", "1|4", "2|3", "2|6", "3|5", "6|6"],
             "D": ["0|3", "0|6", "1|5", "1|6", "2|4", "4|4", "5|5"]}
    m = Match.start({"dealer": "D", "hands": hands})
    assert explain.wrong_code_rule(m, {"type": "trump", "seat": "B", "trump": 6},
                                   "NOT_YOUR_TURN") is None
    assert explain.wrong_code_rule(m, {"type": "trump", "seat": "A", "trump": 6},
                                   "NOT_YOUR_TURN") == explain.refusal_rule(
        m, {"type": "trump", "seat": "A", "trump": 6})


# Cases as a campaign saves them (t42 fuzz): one failure, no other scenario of the run to
# settle it, so the first reading must be the rule the engine broke.
HANDS = {"A": ["0|0", "0|1", "0|2", "0|3", "0|4", "0|5", "0|6"],
         "B": ["1|1", "1|2", "1|3", "1|4", "1|5", "1|6", "2|2"],
         "C": ["2|3", "2|4", "2|5", "2|6", "3|3", "3|4", "3|5"],
         "D": ["3|6", "4|4", "4|5", "4|6", "5|5", "5|6", "6|6"]}
ALONE = [
    # trump 5: 5|6 is a trump, not a 6; an engine that plays every contract by the
    # no-trump suits lets it follow 6 (NOTRUMP-04: only "none" changes)
    ("no-trump-every-contract", "NOTRUMP-04", {"no_trump": {}}, {
        "contract": {"declarer": "C", "bid": {"marks": 1}, "trump": 5, "stacks": 2}},
     [{"act": {"type": "play", "seat": "C", "tile": "2|6"},
       "expect": {"legal": [{"type": "play", "seat": "D", "tile": t}
                            for t in ("3|6", "4|6", "6|6")]}}]),
    # starting scores of 248 and 249 points, below match_points' 250: the marks target
    # that match_points leaves unread would refuse them (TARGET-03)
    ("match-marks-over-points", "TARGET-03", {"match_marks": True, "match_points": True},
     {"marks": {"AC": 248, "BD": 249}}, []),
    ("match-marks-over-points", "TARGET-03", {"match_marks": {}, "match_points": {}},
     {"marks": {"AC": 247, "BD": 248}}, []),
    # Nel-O declared by the partner of a plunge_terms plunge: PTERMS-04, not NELLO-10
    # (own_suit_reversed, not in force) nor NELLO-02 (Nel-O's own rule)
    ("plunge-terms-nello-on-plunge", "PTERMS-04", {"plunge_terms": {}, "nello": True},
     {"hands": {"A": HANDS["A"], "B": ["2|6", "1|2", "1|3", "1|4", "1|5", "1|6", "2|2"],
                "C": ["1|1", "2|4", "2|5", "4|4", "3|3", "3|4", "5|5"],
                "D": ["3|6", "3|5", "4|5", "4|6", "2|3", "5|6", "6|6"]}, "dealer": "B"},
     [{"act": {"type": "bid", "seat": "C", "plunge": True}},
      {"act": {"type": "pass", "seat": "D"}}, {"act": {"type": "pass", "seat": "A"}},
      {"act": {"type": "pass", "seat": "B"}},
      {"act": {"type": "trump", "seat": "A", "trump": "nello", "stacks": 1},
       "reject": "TRUMP_NOT_ALLOWED"}]),
    # Nel-O refused to the partner of a splash under on_plunge "allowed": NELLO-12, which
    # names the splash (SPLASH-04 brings PLUNGE-05's refusal into play, not this one)
    ("nello-on-plunge-still-refused", "NELLO-12",
     {"nello": {"on_plunge": "allowed"}, "splash": True},
     {"dealer": "B", "hands": {"A": ["1|4", *HANDS["A"][1:]],
                               "B": ["1|1", "1|2", "1|3", "0|0", *HANDS["B"][4:]],
                               "C": HANDS["C"], "D": HANDS["D"]}},
     [{"act": {"type": "pass", "seat": s}} for s in "CDA"] + [
         {"act": {"type": "bid", "seat": "B", "splash": True}},
         {"act": {"type": "trump", "seat": "D", "trump": "nello", "stacks": 1}}]),
    # a Nel-O bid refused before the forced dealer's turn under nello_sevens
    # "any_contract": the engine reads "forced_only" (FORCE-06)
    ("forced-only-always", "FORCE-06", {"forced_bid": True,
                                         "nello": {"min_marks": 1, "announce": "bid"}},
     {"dealer": "B"}, [{"act": {"type": "bid", "seat": "C", "marks": 1, "nello": True}}]),
    # the same with the option's settings given as `{}`, on a point bid (NELLO-11)
    ("forced-only-always", "FORCE-06", {"forced_bid": {},
                                         "nello": {"min_marks": 0, "announce": "bid"}},
     {"dealer": "B"}, [{"act": {"type": "bid", "seat": "C", "points": 30, "nello": True}}]),
    # a contract given by the setup is not forced (FORCE-05): made at 33 round points after
    # three tricks, though an engine that records it forced plays on (FORCE-08)
    ("forced-every-contract", "FORCE-05", {"forced_bid": {"sweep_marks": 2}},
     {"dealer": "C", "hands": {"A": ["0|0", "0|1", "1|6", "2|3", "0|4", "3|3", "0|6"],
                               "B": ["1|1", "4|4", "1|3", "1|2", "1|5", "3|5", "2|2"],
                               "C": ["2|6", "2|4", "5|5", "0|3", "4|6", "3|4", "2|5"],
                               "D": ["1|4", "0|2", "4|5", "3|6", "0|5", "5|6", "6|6"]},
      "contract": {"declarer": "A", "bid": {"points": 30}, "trump": 2}},
     [{"act": {"type": "play", "seat": s, "tile": t}} for s, t in (
         ("A", "2|3"), ("B", "1|2"), ("C", "2|6"), ("D", "0|2"), ("C", "4|6"),
         ("D", "3|6"), ("A", "1|6"), ("B", "4|4"), ("C", "5|5"), ("D", "0|5"),
         ("A", "0|0"))] + [{"act": {"type": "play", "seat": "B", "tile": "3|5"},
                            "expect": {"view": {"phase": "round_over"}}}]),
]


@pytest.mark.parametrize("plant,rule,variants,setup,steps", ALONE,
                         ids=[f"{a[0]}-{i}" for i, a in enumerate(ALONE)])
def test_a_case_alone_is_filed_under_the_rule_the_engine_broke(
        tmp_path, plant, rule, variants, setup, steps):
    import yaml

    from conformance.corpus.scenario import load_scenario

    path = tmp_path / f"{plant}.yaml"
    schema = ROOT / "spec" / "schemas" / "scenario.schema.json"
    path.write_text(f"# yaml-language-server: $schema={schema}\n" + yaml.safe_dump({
        "id": f"alone.{plant}", "title": plant, "description": plant, "rules": [rule],
        "variants": variants, "setup": {"dealer": "D", "hands": HANDS, **setup},
        "steps": steps}), encoding="utf-8")
    scenario = load_scenario(path).scenario
    assert scenario is not None, load_scenario(path)
    assert run_scenario(scenario, ReferenceAdapter(), level="strict").outcome is Outcome.PASSED
    found = groups(settle([run_scenario(scenario, BY_NAME[plant].adapter(), level="strict")]))
    assert [g.rule for g in found] == [rule], [(g.rule, g.what) for g in found]


def test_a_rule_of_one_setting_holds_under_the_values_it_states():
    """diagnosis.rule_in_force: NELLO-10 opens on `doubles: "own_suit_reversed"`, PTERMS-09 on
    `announce: "declaration"`; PTERMS-03 states `"plunger"` and `"partner"` (the default,
    counted when the setup leaves it out), FORCE-03 `bid: "minimum"` (the default) and
    `"any"`; a rule of no setting holds whenever its option is on."""
    from conformance.run.diagnosis import rule_in_force
    from conformance.specdata.index import load_index

    rules = load_index().rules
    assert rules["PTERMS-03"].setting_values == ("leader", ("plunger", "partner"))

    def holds(rule: str, variants: dict) -> bool:
        return rule_in_force(rules[rule], variants)

    assert not holds("NELLO-10", {"nello": True})
    assert holds("NELLO-10", {"nello": {"doubles": "own_suit_reversed"}})
    assert not holds("PTERMS-09", {"plunge_terms": {}})
    assert holds("PTERMS-09", {"plunge_terms": {"announce": "declaration"}})
    assert holds("PTERMS-03", {"plunge_terms": {}})
    assert holds("FORCE-03", {"forced_bid": True})
    assert not holds("FORCE-10", {"forced_bid": True})
    assert holds("FORCE-07", {"forced_bid": {"sweep_marks": 2}})
    assert not holds("FORCE-07", {"forced_bid": True})
    assert holds("NELLO-02", {"nello": True})
    assert not holds("NELLO-02", {"sevens": True})
    assert holds("PLAY-05", {})


class PerftPlaysOnAfterTheRound(ReferenceAdapter):
    """perft lists first actions after the round has ended (all four passed)."""

    name = "perft-plays-on"

    def perft(self, depth):
        if self.match.to_act is None:
            return {"total": 2, "divide": {"pass": 1, "bid:30": 1}}
        return super().perft(depth)


def test_perft_first_actions_after_the_round_are_end_06(tmp_path):
    """No seat is to act once the round has ended: a first action the engine lists there
    is refused by the phase (END-06), as the same action in `legal` is, not read as an
    action of no seat (DIG-01)."""
    import yaml

    from conformance.corpus.scenario import load_scenario

    path = tmp_path / "perft-after-round.yaml"
    schema = ROOT / "spec" / "schemas" / "scenario.schema.json"
    path.write_text(f"# yaml-language-server: $schema={schema}\n" + yaml.safe_dump({
        "id": "alone.perft-after-round", "title": "perft after the round",
        "description": "four passes end the round; perft has one leaf and no first action",
        "rules": ["BID-09", "END-06"], "variants": {},
        "setup": {"dealer": "D", "hands": HANDS},
        "steps": [{"act": {"type": "pass", "seat": s}} for s in "ABC"] + [
            {"act": {"type": "pass", "seat": "D"},
             "expect": {"perft": {"depth": 1, "total": 1, "divide": {}}}}]}),
        encoding="utf-8")
    scenario = load_scenario(path).scenario
    assert scenario is not None, load_scenario(path)
    assert run_scenario(scenario, ReferenceAdapter(), level="strict").outcome is Outcome.PASSED
    found = groups(settle([run_scenario(scenario, PerftPlaysOnAfterTheRound(),
                                        level="strict")]))
    assert [g.rule for g in found] == ["END-06"], [(g.rule, g.what) for g in found]
    assert "perft first actions: extra" in found[0].what
