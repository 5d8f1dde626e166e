"""How a round ends and scores and a match ends: the round's points (points_rule), the
END rule (end_rule), the marks (marks_rule; an option's score, score_rule), the sweep
bonus (sweep_bonus_shown) and the match's winner (match_end_rule)."""

from __future__ import annotations

import functools
from typing import Any

from reference_impl.match import BIDDING, MATCH_OVER, ROUND_OVER, Match
from reference_impl.rules import BASE_RULES

from .common import named_rule, table_rule


def points_rule(after: Match, engine_view: dict[str, Any] | None) -> str:
    """PTS-01 when the engine's round points differ by whole tricks, PTS-02 otherwise
    (counters)."""
    rules = after.rules
    if rules.trick_point != BASE_RULES.trick_point or rules.counters != BASE_RULES.counters:
        return "PTS-02"
    try:
        theirs = (engine_view or {})["points"]
        gap = sum(abs(theirs[t] - p) for t, p in zip(("AC", "BD"), after.points, strict=True))
    except (KeyError, TypeError):
        return "PTS-02"
    return "PTS-01" if gap and gap % 5 else "PTS-02"


def end_rule(before: Match | None, after: Match, engine_view: dict[str, Any] | None) -> str:
    """The END rule that ended the round (or that the engine's early end breaks)."""
    rules = after.rules
    if after.phase in (ROUND_OVER, MATCH_OVER) and after.result and after.result[0] == "all_passed":
        return "BID-09"
    if after.contract is None:
        return "BID-08"
    if before is not None and before.phase == ROUND_OVER and after.phase == BIDDING:
        return "MATCH-03"
    theirs = (engine_view or {}).get("phase")
    if {after.phase, theirs} == {ROUND_OVER, MATCH_OVER}:
        # the match is over at the target whatever the margin or overshoot (MATCH-02); a
        # match ended below it breaks MATCH-01
        return table_rule(rules, "match_winner", "MATCH-02" if after.winner is not None
                          else "MATCH-01")
    if not rules.end_when_decided:
        return "MPTS-09"
    outcome = after.result[0] if after.result else _claimed_outcome(engine_view)
    if rules.outcome is not BASE_RULES.outcome:
        return named_rule(rules.outcome) or "END-05"
    marks = after.contract.kind == "marks"
    if outcome == "made":
        return "END-03" if marks else "END-01"
    if outcome == "set":
        return "END-04" if marks else "END-02"
    return "END-05"


def sweep_bonus_shown(after: Match, engine_view: dict[str, Any] | None) -> bool:
    """The engine's `result.marks` is the sweep bonus (FORCE-07's `sweep_marks`, read from
    the score function that names FORCE-07) where the reference scores no bonus."""
    from reference_impl.variant_rules import sweep_score

    fn: Any = after.rules.score
    while isinstance(fn, functools.partial) and fn.func is not sweep_score:
        fn = fn.keywords.get("inner")
    result = (engine_view or {}).get("result")
    if not isinstance(fn, functools.partial) or not isinstance(result, dict) or \
            not after.result:
        return False
    return bool(result.get("marks") == fn.keywords["marks"] != after.result[2])


def match_end_rule(after: Match, engine_view: dict[str, Any] | None) -> str:
    """The rule the engine breaks when its match ends elsewhere than the reference's: a
    team at exactly the target has won (MATCH-02: or more, no margin); a target set by an
    option (MPTS-01, TARGET-02); else the first team to the target wins (MATCH-01)."""
    rules, options = after.rules, after.variants
    if rules.match_winner is not BASE_RULES.match_winner:
        return named_rule(rules.match_winner) or "MATCH-01"
    points = "match_points" in options
    if points and "match_marks" in options:
        return "TARGET-03"  # which of the two targets counts
    own_target = "MPTS-01" if points else "TARGET-02"
    if after.winner is not None and (engine_view or {}).get("winner") is None:
        if max(after.marks) == rules.marks_target:
            return "MPTS-08" if points else "TARGET-02" if "match_marks" in options \
                else "MATCH-02"
        if rules.marks_target != BASE_RULES.marks_target:
            return own_target
        return "MATCH-02"
    return own_target if rules.marks_target != BASE_RULES.marks_target else "MATCH-01"


def _claimed_outcome(engine_view: dict[str, Any] | None) -> str | None:
    result = (engine_view or {}).get("result")
    return result.get("outcome") if isinstance(result, dict) else None


def score_rule(after: Match) -> str | None:
    """An option's scoring rule for the round just ended: under match points MPTS-04 (a
    point contract made), MPTS-05 (a marks contract made), MPTS-06 (any set), MPTS-11 (a
    set contract scored all or nothing); another option's score function names its own;
    None for the base game's."""
    rules = after.rules
    if rules.score is BASE_RULES.score:
        return None
    rule = named_rule(rules.score)
    if rule and rule.startswith("MPTS") and after.result and after.contract:
        if after.result[0] == "set":
            return "MPTS-11" if all_or_nothing(after) else "MPTS-06"
        return "MPTS-05" if after.contract.kind == "marks" else "MPTS-04"
    return rule


def all_or_nothing(after: Match) -> bool:
    """MPTS-11 decides the round's score: `high_bids: "all_or_nothing"` and a contract
    worth 42 or more (MPTS-03, MPTS-10)."""
    from reference_impl.variant_rules import MARK_IN_POINTS

    rules, contract = after.rules, after.contract
    return rules.all_or_nothing and contract is not None and \
        rules.stake(rules, contract) >= MARK_IN_POINTS


def marks_rule(after: Match, engine_view: dict[str, Any] | None, step: str) -> str:
    """SCORE-02 when the marks went to the wrong team, SCORE-01 when the amount is wrong;
    after a deal, which scores nothing, MATCH-03 (the marks carried over); for the marks a
    setup starts with, the rule of their range under the setup's options
    (SCORE-03, MPTS-02, TARGET-02: setup.marks_rule)."""
    from reference_impl.setup import marks_rule as starting_marks_rule

    rules = after.rules
    if step == "setup":
        return starting_marks_rule(rules)
    if step == "deal":  # a deal scores nothing: the marks carry over to the new round
        return "MATCH-03"
    if rules.score is not BASE_RULES.score:
        return score_rule(after) or "SCORE-02"
    if rules.stake is not BASE_RULES.stake:
        return named_rule(rules.stake) or "SCORE-01"
    try:
        theirs = (engine_view or {})["marks"]
        gained = [theirs["AC"] - after.start_marks[0], theirs["BD"] - after.start_marks[1]]
    except (KeyError, TypeError, IndexError):
        return "SCORE-02"
    mine = [after.marks[0] - after.start_marks[0], after.marks[1] - after.start_marks[1]]
    same_team = [g > 0 for g in gained] == [m > 0 for m in mine]
    return "SCORE-01" if same_team else "SCORE-02"
