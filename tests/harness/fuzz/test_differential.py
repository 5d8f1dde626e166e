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


def test_one_deal_in_five_gives_a_hand_three_doubles_or_more():
    """A plunge, a splash or a declared plunge needs a hand rich in doubles (PLUNGE-02,
    SPLASH-02, PTERMS-07), which a plain shuffle deals too seldom."""
    import random

    from conformance.fuzz.differential import random_deal

    rng = random.Random(0)
    deals = [random_deal(rng)["hands"] for _ in range(2000)]
    most = [max(sum(t[0] == t[2] for t in hand) for hand in d.values()) for d in deals]
    assert all(sorted(t for hand in d.values() for t in hand) == sorted(TILES) for d in deals)
    assert 0.25 < sum(m >= 4 for m in most) / len(most) < 0.45  # about 0.16 + 0.2 * 0.8
    assert {5, 6, 7} <= set(most)
    orders = [random_deal(rng, "order")["order"] for _ in range(200)]
    assert all(sorted(o) == sorted(TILES) for o in orders)


def test_bold_bidding_reaches_four_marks_a_plunge_comes_often_a_declared_one_is_a_kind():
    import random

    from conformance.fuzz.differential import legal_choice

    bids = [{"type": "pass", "seat": "B"}] + [
        {"type": "bid", "seat": "B", "points": p} for p in range(30, 42)] + [
        {"type": "bid", "seat": "B", "marks": 3}, {"type": "bid", "seat": "B", "marks": 4},
        {"type": "bid", "seat": "B", "plunge": True}]
    rng = random.Random(0)
    bold = [legal_choice(rng, bids, bold=True) for _ in range(1000)]
    timid = [legal_choice(rng, bids) for _ in range(1000)]
    assert sum(a.get("marks") == 4 and "plunge" not in a for a in bold) > 600
    assert sum(a.get("marks") == 4 for a in timid) < 200
    # a hand that may plunge does so one time in two, and then and again as a kind of bid
    assert 480 < sum("plunge" in a for a in timid) < 650
    trumps = [{"type": "trump", "seat": "A", "trump": t, "stacks": s}
              for t in range(7) for s in (1, 2)] + [
        {"type": "trump", "seat": "A", "trump": "plunge"}]
    chosen = [legal_choice(rng, trumps) for _ in range(1000)]
    assert 400 < sum(a["trump"] == "plunge" for a in chosen) < 600


def test_an_illegal_declaration_is_now_and_then_a_legal_one_with_its_stacks_toggled():
    """PTERMS-07: a declared plunge with `stacks` is STACKS_NOT_ALLOWED; CON-02: a marks
    contract's declaration without them is refused too."""
    import random

    from conformance.fuzz.differential import illegal_candidate

    legal = [{"type": "trump", "seat": "A", "trump": 3, "stacks": 1},
             {"type": "trump", "seat": "A", "trump": "plunge"}]
    view = {"phase": "declaring", "to_act": "A", "hands": {"A": []}}
    rng = random.Random(0)
    made = [illegal_candidate(rng, view, legal) for _ in range(1000)]
    assert any(a.get("trump") == "plunge" and "stacks" in a for a in made)
    assert any(a.get("trump") == 3 and "stacks" not in a and a["seat"] == "A" for a in made)
