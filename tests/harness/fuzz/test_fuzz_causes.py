"""Issue 26: a campaign finds every cause. A game goes on past a divergence that leaves
the states comparable, judges levels as `t42 run` does, and saves one case per cause."""

from __future__ import annotations

import re

import pytest

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.scenario import load_scenario
from conformance.fuzz import save
from conformance.fuzz.differential import TILES, Case, Divergence, Game, fuzz, play, replay
from conformance.run.runner import run_scenario
from tests.harness.fauxmplementations.two_causes import TwoCauses
from tests.harness.fuzz.test_differential import WrongFollowCode

TWO = "python:tests/harness/fauxmplementations/two_causes.py:TwoCauses"
FORM = ("observation.md", "observe.points: must be null under a marks contract during the "
        "round")
RANK = ("RANK-03", "view.tricks.winner differs after a play")


def test_a_game_goes_on_past_a_wrong_code_and_records_it_once():
    played = play(WrongFollowCode(), 2, Game(illegal_rate=0.5))
    assert played.divergences and not played.stopped
    assert played.rounds == 3  # played to its end
    kinds = [d.finding.signature for d in played.divergences]
    assert len(kinds) == len(set(kinds))


def test_a_game_stops_where_the_referee_states_differ_and_says_where():
    played = play(TwoCauses(), 15, Game())
    assert played.stopped and played.rounds == 1  # the trick won by the wrong seat
    assert played.divergences[-1].where == played.stopped


def test_a_convention_engine_has_no_divergence_at_level_rules():
    from conformance.planted import BY_NAME

    adapter = BY_NAME["boolean-is-integer"].adapter()
    _, rules, _ = fuzz(adapter, games=60, seed=0, level="rules")
    _, strict, _ = fuzz(adapter, games=60, seed=0, level="strict")
    assert rules == [] and strict  # found at strict, not judged at rules


def test_a_form_is_not_judged_below_strict():
    _, found, _ = fuzz(TwoCauses(), games=10, seed=0, level="rules")
    assert found and all(save.diagnose(d, TwoCauses(), "rules")[0][0].cause.rule == "RANK-03"
                         for d in found)


class FormAndNoBlanks(ReferenceAdapter):
    """Two causes at once: zero round points where null is written, and no declaration
    of blanks among the legal actions."""

    name = "form-and-no-blanks"

    def observe(self, seat):
        seen = super().observe(seat)
        if seen.get("points") is None and self.view()["points"] == {"AC": 0, "BD": 0}:
            seen["points"] = {"AC": 0, "BD": 0}
        return seen

    def legal(self):
        return [a for a in super().legal() if a.get("trump") != 0]


def test_a_case_of_two_causes_is_split_each_with_its_own_expectations():
    adapter = FormAndNoBlanks()
    hands = {seat: TILES[7 * i: 7 * i + 7] for i, seat in enumerate("ABCD")}
    bids = [{"type": "bid", "seat": "A", "marks": 2}, {"type": "bid", "seat": "B", "marks": 3},
            {"type": "pass", "seat": "C"}, {"type": "pass", "seat": "D"}]
    # B declares next, under a marks contract: round points null, blanks a legal trump
    case = Case({"dealer": "D", "hands": hands}, [{"act": bid} for bid in bids])
    located = replay(adapter, case)
    assert located is not None
    diagnosed, _ = save.diagnose(Divergence(0, case, located.finding, 0), adapter)
    causes = {d.cause.rule: d for d in diagnosed}
    assert set(causes) == {"observation.md", "CON-02"}, diagnosed
    form = {d.path.split(".")[0] for d in causes["observation.md"].divergence.differences}
    legal = {d.path.split(".")[0] for d in causes["CON-02"].divergence.differences}
    assert form == {"observe"} and legal == {"legal"}


def _campaign(t42, tmp_path, games: int) -> None:
    saved = tmp_path / "found"
    code, out = t42("fuzz", "--adapter", TWO, "--games", str(games), "--save", saved)
    assert code == 1, out
    causes = re.findall(r"^cause \d+: (\S+): (.*)$", out, re.M)
    assert sorted(causes) == sorted([FORM, RANK]), out
    files = sorted(saved.glob("*.yaml"))
    assert len(files) == 2 and "UNSOUND" not in out, out
    for path in files:
        scenario = load_scenario(path).scenario
        cause = next(c for c in (FORM, RANK) if f"Cause: {c[0]}: {c[1]}" in
                     scenario.description.replace("\n", " "))
        theirs = run_scenario(scenario, TwoCauses())
        assert {(d.rule, d.cause) for d in theirs.failures} == {cause}, path.read_text()
        assert run_scenario(scenario, ReferenceAdapter()).outcome.value == "passed"
        if cause == RANK:
            assert scenario.rules[0] == "RANK-03"
    # the causes are known now: the next campaign acknowledges both, and passes
    code, out = t42("fuzz", "--adapter", TWO, "--games", str(games), "--known", saved)
    assert code == 0, out
    assert re.search(r"0 new causes, 2 known", out) and "known cause RANK-03" in out, out


def test_one_campaign_finds_both_causes_of_two_bugs(t42, tmp_path):
    _campaign(t42, tmp_path, 10)  # both causes show by game 8; --full-fuzz runs 300


def test_a_300_game_campaign_finds_both_causes_of_two_bugs(t42, tmp_path, request):
    if not request.config.getoption("--full-fuzz"):
        pytest.skip("the 300-game campaign runs with --full-fuzz")
    _campaign(t42, tmp_path, 300)


def test_a_saved_case_cites_its_cause_first_only_when_the_rule_is_in_force():
    from conformance.run.diagnosis import Cause
    from tests.harness.fuzz.test_differential import SortedHands

    hands = {seat: TILES[7 * i: 7 * i + 7][::-1] for i, seat in enumerate("ABCD")}
    case = Case({"dealer": "D", "hands": hands}, [])
    found = Divergence(0, case, replay(SortedHands(), case).finding, 0)
    cited = save.scenario(found, "x", "generated.x", Cause("DEAL-03", "view.hands"))["rules"]
    assert cited[0] == "DEAL-03"
    # a rule of an option the case does not turn on would make it invalid (t42 check)
    cited = save.scenario(found, "x", "generated.x", Cause("NELLO-06", "view.hands"))["rules"]
    assert "NELLO-06" not in cited and cited


def test_a_campaign_settles_a_cause_that_fits_two_rules_as_t42_run_does(tmp_path):
    """A trump lead that calls its larger number: where the follower is void in both
    numbers the plays fit PLAY-05 (no duty) as well as SUIT-04; the campaign's other games
    tell which, so the one cause is SUIT-04's, and its example is a game that shows it
    as its first reading, so that its saved case says so under `t42 run` too."""
    from conformance.fuzz.campaign import Causes, verify
    from conformance.fuzz.shrink import shrink
    from conformance.planted import BY_NAME

    adapter = BY_NAME["trump-lead-calls-larger-number"].adapter()
    _, found, _ = fuzz(adapter, games=40, seed=0)
    causes = Causes(adapter, "strict")
    for divergence in found:
        causes.add(divergence)
    causes.settle()
    assert {g.cause.rule for g in causes.new()} == {"SUIT-04"}
    group = causes.new()[0]
    assert not group.cause.alternatives
    small = shrink(adapter, group.found, seconds=20,
                   keeps=save.shows(group.cause, adapter, "strict", group.exact))
    path = save.write(small, tmp_path, "planted", 1, cause=group.cause)
    assert verify(path, adapter, group.cause).sound


def test_a_malformed_action_refused_by_its_phase_is_settled_as_the_form_by_the_campaign():
    """`stacks: false` refused with WRONG_PHASE fits the check order (DIG-03) and a form
    read as well-formed (DIG-01); the campaign's games that take `true` for a number tell
    which: no cause is left under DIG-03."""
    from conformance.fuzz.campaign import Causes
    from conformance.planted import BY_NAME

    adapter = BY_NAME["boolean-is-integer"].adapter()
    _, found, _ = fuzz(adapter, games=40, seed=0, illegal_rate=0.5)
    causes = Causes(adapter, "strict")
    for divergence in found:
        causes.add(divergence)
    assert any(g.cause.rule == "DIG-03" for g in causes.new())  # open before settling
    causes.settle()
    assert {g.cause.rule for g in causes.new()} == {"DIG-01"}


def test_the_progress_line_counts_the_causes_as_the_closing_line_does():
    """Issue 44: the progress line counted the causes as found (8), the closing line
    as settled (6). Both now count them settled: a cause that fits DIG-03 and DIG-01 is
    one cause, not two."""
    import io

    from conformance.fuzz.campaign import Causes, Progress
    from conformance.planted import BY_NAME

    adapter = BY_NAME["boolean-is-integer"].adapter()
    _, found, _ = fuzz(adapter, games=40, seed=0, illegal_rate=0.5)
    causes = Causes(adapter, "strict")
    stream = io.StringIO()
    progress = Progress(len(found), stream, counts=causes.counts)
    as_found: set[object] = set()
    for divergence in found:
        new = [g.cause for g in causes.add(divergence)]
        as_found.update(new)
        progress(1, True, new)
    progress.show()
    shown = causes.counts()
    causes.settle()
    closing = (len(causes.new()), len(causes.acknowledged()))
    assert shown == closing and len(as_found) > closing[0]  # the old count disagreed
    new, known = closing
    assert stream.getvalue().rstrip().endswith(
        f"diverged ({new} new cause{'' if new == 1 else 's'}, {known} known)")


def test_a_campaign_files_the_failures_of_one_decision_as_one_cause():
    """One check broken (every marks bid accepted) shows under BID-05 (the first marks
    bid) and BID-06 (a later one): the diagnosis finds the same decision of the reference
    behind both (its `entry`), so the campaign keeps one cause and saves one case, as
    `t42 run` prints one group (settle._one_per_decision)."""
    from conformance.fuzz.campaign import Causes
    from conformance.run.diagnosis import Cause
    from tests.harness.run.test_counterfactual import any_marks_bid

    adapter = any_marks_bid()
    _, found, _ = fuzz(adapter, games=20, seed=0, level="rules")
    assert len(found) >= 2
    causes = Causes(adapter, "rules")
    for i, divergence in enumerate(found):
        rule = ("BID-05", "BID-06")[i % 2]
        what = f"a bid accepted, though it must be refused with MARKS_BID_STEP ({rule})"
        causes.add(divergence, ([save.Diagnosed(Cause(rule, what, entry="marks_bid_problem"),
                                                divergence)], 0))
    causes.settle()
    assert len(causes.new()) == 1, [(g.cause.rule, g.cause.what) for g in causes.new()]
    assert len(causes.new()[0].games) == len({d.seed for d in found})


def test_a_saved_case_is_known_by_its_check_under_other_options(tmp_path):
    """A saved case names the reference's check behind its cause (`Check:`); `--known`
    then acknowledges a cause of that check whatever rule the options in force file it
    under (an option's rule restating the base one), and no other."""
    from conformance.run.diagnosis import Cause
    from tests.harness.fuzz.test_differential import SortedHands

    hands = {seat: TILES[7 * i: 7 * i + 7][::-1] for i, seat in enumerate("ABCD")}
    case = Case({"dealer": "D", "hands": hands}, [])
    found = Divergence(0, case, replay(SortedHands(), case).finding, 0)
    cause = Cause("BID-06", "a bid accepted", entry="marks_bid_problem")
    path = save.write(found, tmp_path, "x", 1, cause=cause)
    assert "Check: marks_bid_problem" in path.read_text()
    known = save.known_causes(tmp_path)
    assert save.is_known(Cause("RAISE-02", "a bid accepted", entry="marks_bid_problem"), known)
    assert not save.is_known(Cause("RAISE-02", "a bid accepted", entry="point_bid_problem"),
                             known)


def test_a_campaign_plays_no_option_the_implementation_does_not_declare(t42):
    """Every game of options an engine never claimed would be a false cause: the campaign
    stops before the first, naming the option and what the hello declared."""
    code, out = t42("fuzz", "--adapter", TWO, "--games", "2", "--variants", '{"nello": true}')
    assert code == 2, out
    assert "two-causes does not declare nello" in out, out
    assert out.rstrip().endswith("which the implementation does not declare)"), out


def test_a_campaign_with_options_on_saves_one_case_per_cause(t42, tmp_path):
    """With Nel-O on, an engine of two bugs (a form, and Nel-O's declarer leading every
    trick) gives two saved cases, each under its own rule, none UNSOUND."""
    saved = tmp_path / "found"
    code, out = t42("fuzz", "--adapter", TWO.replace("TwoCauses", "TwoCausesUnderNello"),
                    "--games", "10", "--variants", '{"nello": true}', "--save", saved)
    assert code == 1, out
    causes = re.findall(r"^cause \d+: (\S+): (.*)$", out, re.M)
    assert sorted(rule for rule, _ in causes) == ["NELLO-05", FORM[0]], out
    assert len(list(saved.glob("*.yaml"))) == 2 and "UNSOUND" not in out, out
