"""tools/fuzz_reach.py: the games and CPU to a plant's first divergence, the measure of a
change to what the fuzzer reads (docs/measurements.md, issue 43)."""

from __future__ import annotations

from conformance.planted import BY_NAME
from tools import fuzz_reach


def test_a_plant_is_reached_and_the_reference_itself_never(capsys):
    found, games, cpu = fuzz_reach.reach(BY_NAME["doubles-low"], games=40, seconds=20)
    assert found and 1 <= games <= 40 and cpu > 0
    assert fuzz_reach.main(["-k", "doubles-low", "--games", "5"]) == 0
    assert "1 plants: 1 found" in capsys.readouterr().out


def test_a_budget_stops_a_plant_not_found():
    class Reference:  # an engine with no bug: never found, stopped by its games
        name, rule = "none", "PLAY-01"

        @staticmethod
        def adapter():
            from conformance.adapters.reference import ReferenceAdapter
            return ReferenceAdapter()

    found, games, _ = fuzz_reach.reach(Reference, games=1, seconds=60)
    # a game a configuration (fuzz_plants.configurations), each dealt by hands and by order
    assert not found and games == 2 * len(fuzz_reach.configurations(Reference))
