"""DIG-01, DIG-03 as a Hypothesis property (CI size): an illegal action is rejected with a
listed code and changes nothing, byte for byte. tests/engine/illegal_probe.py runs the same
judgment over >= 100,000 random attempts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .illegal import OPTION_SETS, judge, near_legal, position
from .support import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=10,
)
FIELDS = st.fixed_dictionaries(
    {"type": st.sampled_from(["pass", "bid", "trump", "play"]),
     "seat": st.sampled_from(["A", "B", "C", "D", "E", None])},
    optional={"points": st.integers(-5, 50) | JSON, "marks": st.integers(-2, 8) | JSON,
              "trump": st.integers(-1, 8) | st.sampled_from(["doubles", "none", "nello"]),
              "stacks": st.integers(-1, 4), "tile": st.sampled_from(["0|0", "6|6", "3|5", "7|7"]),
              "x": JSON},
)


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80),
       variants=st.sampled_from(OPTION_SETS), action=FIELDS | JSON)
def test_an_illegal_action_is_rejected_and_changes_nothing(seed, steps, variants, action):
    m = position(seed, steps, variants)
    assert judge(m, action) == ""


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80),
       variants=st.sampled_from(OPTION_SETS), rng=st.randoms(use_true_random=False))
def test_a_near_legal_action_is_rejected_and_changes_nothing(seed, steps, variants, rng):
    m = position(seed, steps, variants)
    for _ in range(5):
        assert judge(m, near_legal(rng, m)) == ""


def test_the_judgment_can_fail():
    """judge() is not vacuous: an engine that accepts everything is caught."""
    m = position(1, 3, {})

    class Accepting:
        def legal_actions(self):
            return m.legal_actions()

        def apply(self, action):
            pass

        view = m.view
        observe = m.observe

    assert "accepted" in judge(Accepting(), {"type": "play", "seat": "Z", "tile": "7|7"})
