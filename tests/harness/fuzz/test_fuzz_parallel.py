"""`t42 fuzz -j N` (conformance/fuzz/parallel.py), `--shard K/N` and the merge of the
parts' saved causes (conformance/fuzz/distributed.py), with the sparse reads of a
campaign's games (differential.Duel): the same games, causes and saved cases."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from conformance.fuzz.differential import Duel, Game, play
from conformance.fuzz.distributed import merge
from conformance.fuzz.parallel import chunks, jobs_of
from conformance.fuzz.save import CHECK, known_causes
from conformance.planted import BY_NAME
from conformance.run.matching import MISSING, Difference

TWO = "python:tests/harness/fauxmplementations/two_causes.py:TwoCauses"


def test_jobs_is_a_number_or_auto():
    assert jobs_of("3") == 3
    assert jobs_of("auto") >= 1
    for wrong in ("0", "-1", "two"):
        with pytest.raises(ValueError):
            jobs_of(wrong)


def test_chunks_cover_the_seeds_in_order():
    seeds = range(5, 1005)
    parts = chunks(seeds, 2)
    assert [s for part in parts for s in part] == list(seeds)
    assert len(parts) >= 2 * 16  # every worker has work to the end


def test_a_missing_field_is_still_missing_in_another_process():
    difference = pickle.loads(pickle.dumps(Difference("view.x", MISSING, 1)))
    assert difference.expected is MISSING


def _campaign(t42, tmp: Path, *options: str) -> list[str]:
    code, out = t42("fuzz", "--adapter", TWO, "--in-process", "--games", "4", "--no-shrink",
                    "--save", tmp, *options)
    assert code == 1, out  # two new causes
    # the rate differs from one run to the next, a progress line comes every 10 s (a
    # loaded machine); the folder is named in each `saved`
    return [line.replace(str(tmp), "DIR") for line in out.splitlines()
            if " rounds/s" not in line]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[Path, list[str]]:
    """One campaign in one process: its folder of saved cases and its output."""
    from click.testing import CliRunner

    from conformance.cli.main import main

    def t42(*args: object) -> tuple[int, str]:
        result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        return result.exit_code, result.output

    folder = tmp_path_factory.mktemp("whole")
    return folder, _campaign(t42, folder)


def test_jobs_give_the_same_causes_and_cases_as_one_process(t42, tmp_path, whole):
    folder, one = whole
    two = _campaign(t42, tmp_path / "two", "-j", "2")
    assert two == one
    saved = sorted(p.name for p in folder.iterdir())
    assert len(saved) == 2
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == saved
    for name in saved:  # the first line is the schema's path from the folder
        assert ((tmp_path / "two" / name).read_text().split("\n", 1)[1]
                == (folder / name).read_text().split("\n", 1)[1])


def test_two_shards_merged_have_the_causes_of_the_whole_campaign(t42, tmp_path, whole):
    for k in (1, 2):
        t42("fuzz", "--adapter", TWO, "--in-process", "--games", "4", "--no-shrink",
            "--save", tmp_path / f"part{k}", "--shard", f"{k}/2")
    written = merge([tmp_path / "part1", tmp_path / "part2"], tmp_path / "merged")
    causes = known_causes(whole[0])
    assert len({c for c in causes if c[0] != CHECK}) == 2 and len(written) == 2
    assert known_causes(tmp_path / "merged") == causes
    assert set().union(*written) <= causes


def test_merge_keeps_the_shortest_case_of_a_cause(tmp_path):
    case = ("id: generated.x\ndescription: |-\n  Cause: RANK-03: what\nrules: [RANK-03]\n"
            "setup: {dealer: A}\nsteps:\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "fuzz-x.yaml").write_text(case + "- deal: {}\n- deal: {}\n")
    (tmp_path / "b" / "fuzz-x.yaml").write_text(case + "- deal: {}\n")
    written = merge([tmp_path / "a", tmp_path / "b"], tmp_path / "out")
    assert list(written) == [frozenset({("RANK-03", "what")})]
    assert (tmp_path / "out" / "fuzz-x.yaml").read_text().count("- deal") == 1


@pytest.mark.parametrize("plant", ["doubles-low", "declared-plunge-exact-marks"])
def test_sparse_reads_find_what_the_campaign_reads_find(plant):
    """A sparse duel's games are the dense duel's games: a game that differs is played
    again with every read of a campaign, so its divergences are the same."""
    variants = ({"plunge_terms": {"announce": "declaration", "marks": 2}}
                if plant.startswith("declared") else None)
    adapter = BY_NAME[plant].adapter()
    game = Game(variants=variants)
    for seed in range(12):
        dense = play(adapter, seed, game, Duel(adapter))
        sparse = play(adapter, seed, game, Duel(adapter, sparse=True))
        assert ([(d.where, d.case.steps) for d in sparse.divergences]
                == [(d.where, d.case.steps) for d in dense.divergences])
        assert (sparse.rounds, sparse.stopped) == (dense.rounds, dense.stopped)


def test_a_sparse_duel_reads_the_view_at_a_share_of_steps_and_every_round_end():
    duel = Duel(BY_NAME["doubles-low"].adapter(), sparse=True)
    dense = duel.dense()

    def reads(seed):
        duel.begin({"dealer": "A", "hands": None}, seed)  # refused: only the draws matter
        found = []
        for count in range(1, 401):
            duel.count = dense.count = count
            mine = duel._reads("playing")
            assert set(mine) <= set(dense._reads("playing"))  # the dense replay sees it too
            found.append(mine)
        return found

    first = reads(1)
    with_view = [r for r in first if ("view",) in r]
    assert 0.15 < len(with_view) / len(first) < 0.35  # READ_SHARE, 0.25
    assert reads(1) == first and reads(2) != first  # drawn from the game's seed
    duel.count = 5
    assert duel._reads("round_over") == [("view",), ("observe", "B")]  # one seat, in turn
    assert len(dense._reads("round_over")) == 5


def test_two_parts_run_on_a_dask_cluster_merge_to_the_whole_campaign(request, tmp_path,
                                                                      whole):
    """The documented way past one machine (docs/fuzzing.md): the parts as tasks of a Dask
    cluster, here a local one of two processes; a few seconds of start-up, so with
    --full-fuzz (the cheap form of the claim: the test of two shards merged above)."""
    if not request.config.getoption("--full-fuzz"):
        pytest.skip("a Dask cluster runs with --full-fuzz")
    pytest.importorskip("distributed")
    from conformance.fuzz.distributed import main

    adapter = TWO.replace("python:", f"python:{Path(__file__).parents[3]}/")
    status = main(["dask", "--parts", "2", "--save", str(tmp_path / "merged"), "--",
                   "--adapter", adapter, "--in-process", "--games", "4", "--no-shrink"])
    assert status == 1  # the parts found new causes
    assert known_causes(tmp_path / "merged") == known_causes(whole[0])
