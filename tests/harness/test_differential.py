"""`t42 fuzz`: random matches through two implementations, compared after every step."""

from __future__ import annotations

from conformance.adapters.protocol import Rejected
from conformance.adapters.reference import ReferenceAdapter
from conformance.fuzz.differential import TILES, fuzz


class WrongFollowCode(ReferenceAdapter):
    """Reports MUST_FOLLOW as TILE_NOT_IN_HAND: a wrong code, state still right."""

    def act(self, action):
        try:
            super().act(action)
        except Rejected as refusal:
            if refusal.code == "MUST_FOLLOW":
                raise Rejected("TILE_NOT_IN_HAND", "planted") from None
            raise


class SortedHands(ReferenceAdapter):
    """Shows every hand sorted (DEAL-03 broken in the views only)."""

    def view(self):
        view = super().view()
        view["hands"] = {seat: sorted(tiles) for seat, tiles in view["hands"].items()}
        return view


class CrashesOnTrump(ReferenceAdapter):
    def act(self, action):
        if action.get("type") == "trump":
            raise RuntimeError("boom")
        super().act(action)


def test_reference_agrees_with_itself():
    played, divergences, errors = fuzz(ReferenceAdapter(), games=30, seed=1)
    assert (played, divergences, errors) == (30, [], [])


def test_wrong_error_code_is_found_with_a_reproducer():
    _, divergences, _ = fuzz(WrongFollowCode(), games=30, seed=1, illegal_rate=0.5)
    assert divergences, "a wrong MUST_FOLLOW code went unnoticed in 30 games"
    first = divergences[0]
    assert "expected MUST_FOLLOW, got TILE_NOT_IN_HAND" in first.where
    assert first.steps[-1]["act"]["type"] == "play"
    assert "reproduce" in first.render()


def test_view_difference_is_found_at_setup():
    _, divergences, _ = fuzz(SortedHands(), games=5, seed=0)
    assert len(divergences) == 5
    for found in divergences:
        assert found.differences[0].path.startswith("view.hands")


def test_a_crash_ends_one_game_not_the_run():
    played, divergences, errors = fuzz(CrashesOnTrump(), games=4, seed=0)
    assert played == 4 and len(errors) == 4 and not divergences
    assert "RuntimeError: boom" in errors[0]


def test_variant_matches_agree_too():
    played, divergences, errors = fuzz(ReferenceAdapter(), games=10, seed=3,
                                       variants={"nello": True, "sevens": True, "plunge": True})
    assert (played, divergences, errors) == (10, [], [])


class NotJsonInTheMiddle(ReferenceAdapter):
    """A view with a NaN for its round points once the play has begun."""

    def view(self):
        view = super().view()
        if view["phase"] == "playing":
            view["points"] = {"AC": float("nan"), "BD": 0}
        return view


def test_an_equal_in_process_result_is_taken_as_the_expected_value():
    from conformance.adapters.inprocess import InProcess

    adapter, oracle = InProcess(ReferenceAdapter()), ReferenceAdapter()
    setup = {"dealer": "A", "order": list(TILES)}
    adapter.start(setup)
    oracle.start(setup)
    want = oracle.view()
    first, second = adapter.pipeline([("view", {}), ("legal", {})], [want, None])
    assert first is want  # equal: the caller's own value, no copy made
    assert second == oracle.legal()
    other = {**want, "dealer": "B"}
    (got,) = adapter.pipeline([("view", {})], [other])
    assert got == want and got is not other  # unequal: the implementation's own, checked


def test_a_value_that_is_not_json_is_still_an_error_with_expected_values():
    _, found, errors = fuzz(NotJsonInTheMiddle(), games=2, seed=3)
    assert errors and "not JSON" in str(errors[0]), (found, errors)


def test_illegal_candidates_include_plunge_and_splash_bids():
    import random

    from conformance.fuzz.differential import illegal_candidate

    rng = random.Random(0)
    view = {"phase": "bidding", "to_act": "B", "hands": {}}
    bids = [a for a in (illegal_candidate(rng, view) for _ in range(2000)) if a["type"] == "bid"]
    assert {k for a in bids for k in a} >= {"points", "marks", "plunge", "splash"}
