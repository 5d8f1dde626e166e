"""Capability self_deal (DEAL-04, DEAL-06): the exact chi-square, the tests, the sampling."""

import math
import random
import sys
from pathlib import Path

import pytest

from conformance.adapters.loading import load_adapter
from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus.scenario import load_scenario
from conformance.run.chisquare import chi2_sf
from conformance.run.results import Outcome
from conformance.run.runner import run_scenario
from conformance.run.selfdeal import (
    TILES,
    cell_test,
    dealer_tests,
    failing,
    order_of,
    shuffle_tests,
)
from conformance.run.visibility import points_leaks

SCHEMA = Path(__file__).resolve().parents[3] / "spec/schemas/scenario.schema.json"


def scenario(tmp_path, check: str, matches: int = 200):
    path = tmp_path / f"{check}.yaml"
    path.write_text(f"# yaml-language-server: $schema={SCHEMA}\n" f"""\
id: harness.self-deal-{check.replace('_', '-')}
title: self_deal
description: Harness test data.
rules: [DEAL-04, DEAL-06]
steps:
  - expect:
      self_deal: {{check: {check}, matches: {matches}}}
""", encoding="utf-8")
    loaded = load_scenario(path)
    assert loaded.problems == [], loaded.problems
    return loaded.scenario


# ---- the exact chi-square survival function ------------------------------------------


@pytest.mark.parametrize("x", [0.01, 0.5, 3.0, 10.0, 80.0])
def test_chi2_sf_closed_forms_for_one_and_two_degrees(x):
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-12)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)


def test_chi2_sf_at_known_quantiles():
    # chi-square tables: the 5% point of 3 df is 7.8147, of 15 df 24.9958; the median of
    # 729 df is near 729 - 2/3 (Wilson-Hilferty).
    assert chi2_sf(7.8147, 3) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(24.9958, 15) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(729 - 2 / 3, 729) == pytest.approx(0.5, abs=1e-3)
    assert chi2_sf(0, 729) == 1.0 and chi2_sf(5000, 729) < 1e-300


def test_chi2_sf_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    for x, df in [(33.98, 3), (60.585, 15), (939.27, 729), (1412.0, 729), (700.0, 729)]:
        assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9)


# ---- the tests on samples --------------------------------------------------------------


def test_uniform_dealers_pass_and_fixed_or_rotating_fail():
    rng = random.Random(7)
    assert failing(dealer_tests([rng.choice("ABCD") for _ in range(2000)])) == []
    assert failing(dealer_tests(["A"] * 2000))
    rotating = ["ABCD"[i % 4] for i in range(2000)]
    bad = failing(dealer_tests(rotating))
    assert [t.name for t in bad] == ["first dealers of two matches in a row, independent"]


def test_uniform_shuffles_pass_and_reused_orders_fail():
    rng = random.Random(7)
    firsts = [rng.sample(TILES, 28) for _ in range(400)]
    redeals = [rng.sample(TILES, 28) for _ in range(400)]
    assert failing(shuffle_tests(firsts, redeals)) == []
    bad = failing(shuffle_tests(firsts, [list(o) for o in firsts]))
    # each order counted twice doubles the variance: the places fail too
    assert "seats of the redeal after four passes, against the deal before it" in [
        t.name for t in bad]


def test_the_statistic_is_scaled_for_deals_into_equal_blocks():
    """Deals of 28 tiles into 4 seats of 7 (or 7 places of 4): the scaled statistic
    averages its degrees of freedom, 81 (or 162); unscaled it would be 3% higher."""
    rng = random.Random(3)
    for cells, df in ((4, 81), (7, 162)):
        values = [cell_test("t", "DEAL-06", [
            {t: p % cells for t, p in zip(TILES, rng.sample(range(28), 28), strict=True)}
            for _ in range(60)], cells, "{}", "{}").chi2 for _ in range(60)]
        assert df - df / 15 < sum(values) / len(values) < df + df / 15


def test_sorted_hands_with_a_fair_shuffle_fail_deal_03_only():
    """DEAL-06 judges which seat receives which tile; the order inside a hand is DEAL-03's
    business: an engine that sorts each dealt hand fails that test alone."""
    rng = random.Random(5)

    def sorted_deal() -> list[str]:
        order = rng.sample(TILES, 28)
        hands = [sorted(order[s::4]) for s in range(4)]  # seat s gets places s, s+4, ...
        return [hands[i % 4][i // 4] for i in range(28)]

    firsts = [sorted_deal() for _ in range(200)]
    redeals = [sorted_deal() for _ in range(200)]
    bad = failing(shuffle_tests(firsts, redeals))
    assert [t.rule for t in bad] == ["DEAL-03"], [t.worst for t in bad]


def test_a_biased_shuffle_fails_deal_06_not_deal_03():
    """A naive shuffle (each place swapped with any place) is biased, but a hand of it is
    received in an order no rule fixes: DEAL-06, not DEAL-03."""
    rng = random.Random(9)

    def naive() -> list[str]:
        order = list(TILES)
        for i in range(28):
            j = rng.randrange(28)
            order[i], order[j] = order[j], order[i]
        return order

    bad = failing(shuffle_tests([naive() for _ in range(400)], [naive() for _ in range(400)]))
    assert bad and {t.rule for t in bad} == {"DEAL-06"}, [t.worst for t in bad]


def test_order_of_undoes_deal_02():
    view = {"dealer": "D", "hands": {s: [] for s in "ABCD"}}
    for i, tile in enumerate(TILES):
        view["hands"]["ABCD"[(3 + 1 + i) % 4]].append(tile)
    assert order_of(view) == list(TILES)


# ---- the runner ------------------------------------------------------------------------


@pytest.mark.parametrize("check", ["first_dealer", "shuffle"])
def test_reference_passes_both_checks(tmp_path, check):
    result = run_scenario(scenario(tmp_path, check), ReferenceAdapter(random.Random(11)))
    assert result.outcome is Outcome.PASSED, result.report()


def test_without_the_capability_it_is_skipped(tmp_path):
    """Nothing but the self_deal check: the scenario cannot be driven without it."""
    adapter = ReferenceAdapter()
    adapter.capabilities = frozenset({"legal", "perft"})
    result = run_scenario(scenario(tmp_path, "shuffle"), adapter)
    assert result.outcome is Outcome.SKIPPED
    assert result.reason.startswith("needs capability self_deal") and \
        result.reason.endswith("and has nothing else to judge")


class ShortDeal(ReferenceAdapter):
    """Deals 6 tiles to A (the view is made to lie): a broken deal, not a statistic."""

    def view(self):
        view = super().view()
        view["hands"]["A"] = view["hands"]["A"][:6]
        return view


def test_a_broken_own_deal_fails_with_deal_01(tmp_path):
    result = run_scenario(scenario(tmp_path, "first_dealer"), ShortDeal(random.Random(1)))
    assert result.outcome is Outcome.FAILED, result.report()
    assert "not a new round of the base game" in result.detail.message
    assert "DEAL-01" in result.detail.rules


def test_over_the_protocol(tmp_path):
    adapter = load_adapter(f"cmd:{sys.executable} -m conformance.cli.main serve")
    try:
        result = run_scenario(scenario(tmp_path, "shuffle", 100), adapter)
    finally:
        adapter.close()
    assert result.outcome is Outcome.PASSED, result.report()


# ---- VIS-09: the running points of a marks contract ----------------------------------

MARKS = {"phase": "playing", "contract": {"bid": {"marks": 1}}, "points": {"AC": 13, "BD": 0}}
SEEN = {"points": None, "tricks_won": {"AC": 3, "BD": 0}, "marks": {"AC": 0, "BD": 0}}


def test_running_points_are_a_leak_anywhere():
    assert points_leaks(SEEN, MARKS, "observe.B") == []
    assert points_leaks({**SEEN, "points": {"AC": 13, "BD": 0}}, MARKS, "observe.B")
    leaks = points_leaks({**SEEN, "x_": [{"AC": 13, "BD": 0}]}, MARKS, "observe.B")
    assert [d.path for d in leaks] == ["observe.B.x_[0]"]


def test_public_figures_and_other_phases_are_not_judged():
    same = {**MARKS, "points": {"AC": 3, "BD": 0}}  # no counter yet: equals tricks won
    assert points_leaks({**SEEN, "x_": {"AC": 3, "BD": 0}}, same, "observe.B") == []
    over = {**MARKS, "phase": "round_over"}
    assert points_leaks({**SEEN, "points": {"AC": 13, "BD": 0}}, over, "observe.B") == []
    point_contract = {**MARKS, "contract": {"bid": {"points": 30}}}
    assert points_leaks({**SEEN, "points": {"AC": 13, "BD": 0}}, point_contract, "o") == []
