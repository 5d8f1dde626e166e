"""perft/divide (spec/scenario-format.md), action keys, JSON form, the benchmark."""

import random

import pytest

from reference_impl import Match
from reference_impl.actions import action_from_key, action_key
from reference_impl.bench import bid30_round, main, run_bench, uniform_round
from reference_impl.perft import divide, perft

from .support import bid_and_declare, play, start


def test_perft_from_the_first_bid_counted_by_hand():
    """BID-01..BID-07: 15 first actions (pass, 30..41, 1m, 2m); 121 and 697 pairs/triples.

    Depth 2: after a pass 15; after p points 44 - p (pass, p+1..41, 1m, 2m), 102 in all;
    after a marks bid 2 (pass, one more mark): 15 + 102 + 2 + 2 = 121.
    Depth 3: (pass, pass) 15; (pass, p) 102; (pass, km) 4; (p, pass) 102;
    (p, q > p) sum over q of (q - 30)(44 - q) = 418; (p, km) 12 * 2 * 2 = 48;
    (km, pass) 4; (km, k+1 m) 4: 697."""
    m = start()
    assert [perft(m, d) for d in (0, 1, 2, 3)] == [1, 15, 121, 697]
    assert divide(m, 1) == {"pass": 1, **{f"bid:{p}": 1 for p in range(30, 42)},
                            "bid:1m": 1, "bid:2m": 1}
    assert divide(m, 2)["bid:41"] == 3 and divide(m, 2)["bid:2m"] == 2


def test_perft_a_round_that_ends_early_is_one_leaf():
    """END-05: each of D's seven trumps sets the 30 bid at once: 7 leaves at any depth."""
    m = play(bid_and_declare(start(), "A", {"points": 30}, 6), "A 5|5", "B 3|5", "C 0|5")
    assert perft(m, 1) == perft(m, 3) == perft(m, 10) == 7
    assert set(divide(m, 4).values()) == {1}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_divide_sums_to_perft_and_leaves_the_match_unchanged(seed):
    rng = random.Random(seed)
    m = Match.from_seed(seed)
    for _ in range(rng.randrange(4, 12)):
        m.apply(rng.choice(m.legal_actions()))
    before = m.clone()
    counts = divide(m, 3)
    assert sum(counts.values()) == perft(m, 3) and m == before
    assert perft(m, 1) == len(m.legal_actions()) == len(counts)


def test_action_keys_as_in_scenario_format():
    pairs = [({"type": "pass", "seat": "B"}, "pass"),
             ({"type": "bid", "seat": "A", "points": 30}, "bid:30"),
             ({"type": "bid", "seat": "A", "marks": 2}, "bid:2m"),
             ({"type": "trump", "seat": "A", "trump": 6}, "trump:6"),
             ({"type": "trump", "seat": "A", "trump": "none", "stacks": 2}, "trump:none/2"),
             ({"type": "play", "seat": "C", "tile": "5|5"}, "play:5|5")]
    for action, key in pairs:
        assert action_key(action) == key
        assert action_from_key(action["seat"], key) == action


def test_from_json_refuses_what_is_not_a_match():
    data = start().to_json()
    for bad in ({**data, "format": "x"}, {**data, "extra": 1}, {**data, "round": 0}):
        with pytest.raises(ValueError):
            Match.from_json(bad)
    with pytest.raises(Exception):  # noqa: B017  (IllegalAction: an illegal replay)
        Match.from_json({**data, "actions": ["B pass"]})


def test_policies_play_whole_rounds():
    """Policy (a): the seat left of the dealer bids 30 and declares; (b) ends rounds too."""
    rng = random.Random(0)
    for play_round in (bid30_round, uniform_round):
        m = Match.from_seed(4)
        assert play_round(m, rng) >= 4 and m.to_act is None
    for dealer, first in (("D", "A"), ("A", "B"), ("B", "C"), ("C", "D")):
        m = Match.from_seed(9, dealer=dealer)
        count = bid30_round(m, rng)
        view = m.view()
        assert view["bids"][0] == {"type": "bid", "seat": first, "points": 30}
        assert [b["type"] for b in view["bids"][1:]] == ["pass", "pass", "pass"]
        assert view["contract"]["declarer"] == first
        assert count == len(view["history"])


def test_run_bench_reports_four_positive_figures(capsys):
    figures = run_bench(seconds=0.2, seed=1)
    assert set(figures) == {"rounds_per_s_bid30", "rounds_per_s_uniform",
                            "legal_actions_per_s", "perft_leaves_per_s"}
    assert all(value > 0 for value in figures.values())
    main(["0.1", "2"])
    assert "rounds_per_s_bid30" in capsys.readouterr().out
