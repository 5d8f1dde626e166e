"""spec/errors.md is generated from spec/errors.yaml and must never go stale."""

import subprocess
import sys
from pathlib import Path

import gen_errors_md
import pytest

from conformance.specdata.index import check_order, load_index
from conformance.specdata.index import read_codes as read_codes_at

# The checkout's spec (what is committed), not the copy an installed package carries.
SPEC = Path(__file__).resolve().parents[2] / "spec"
ROOT = SPEC.parent


def read_codes() -> list[dict]:
    return read_codes_at(SPEC / "errors.yaml")

CODE_NAME = r"^[A-Z]+(_[A-Z]+)*$"


def test_errors_md_is_fresh():
    """The committed errors.md is exactly what the generator writes (`--check` exits 0)."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_errors_md.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def test_check_mode_fails_on_a_stale_file(tmp_path: Path):
    out = tmp_path / "errors.md"
    assert gen_errors_md.main(["--check", "--out", str(out)]) == 1  # missing
    out.write_text("# stale\n", encoding="utf-8")
    assert gen_errors_md.main(["--check", "--out", str(out)]) == 1  # different
    assert gen_errors_md.main(["--out", str(out)]) == 0  # regenerate
    assert gen_errors_md.main(["--check", "--out", str(out)]) == 0


def test_every_code_is_documented_once_in_check_order():
    text = (SPEC / "errors.md").read_text(encoding="utf-8")
    order = [c["code"] for c in check_order(read_codes())]
    positions = [text.index(f"\n## {code}\n") for code in order]
    assert positions == sorted(positions)
    for code in order:
        assert text.count(f"\n## {code}\n") == 1


def test_codes_are_well_formed_and_complete():
    import re

    for code in read_codes():
        assert re.match(CODE_NAME, code["code"]), code["code"]
        assert code["rules"], f"{code['code']} cites no rule"
        assert code["applies_to"], f"{code['code']} applies to nothing"
        assert str(code["when"]).strip(), f"{code['code']} has no `when`"
        unknown = set(code) - {"code", "rules", "applies_to", "when", "variants", "check_after"}
        assert not unknown, f"{code['code']}: unknown keys {unknown}"


def test_variant_codes_are_appended_after_the_base_codes():
    """variants.md: no base position moves; each variant code names its place and options."""
    codes = read_codes()
    kinds = ["check_after" in c for c in codes]
    assert kinds == sorted(kinds), "a code with check_after sits among the base codes"
    options = set(load_index(SPEC).variants)
    for code in codes:
        if "check_after" in code:
            assert code.get("variants"), f"{code['code']} names no option"
        assert set(code.get("variants", [])) <= options, code["code"]


def test_check_order_places_each_variant_code_right_after_its_anchor():
    order = [c["code"] for c in check_order(read_codes())]
    assert order[:4] == ["MALFORMED_ACTION", "INVALID_SETUP", "WRONG_PHASE", "NOT_YOUR_TURN"]
    for code in read_codes():
        if "check_after" in code:
            at = order.index(code["check_after"])
            assert order[at + 1] == code["code"]


def test_check_order_rejects_shared_or_unknown_anchors():
    base = [{"code": "A"}, {"code": "B"}]
    with pytest.raises(ValueError):
        check_order(base + [{"code": "X", "check_after": "A"}, {"code": "Y", "check_after": "A"}])
    with pytest.raises(ValueError):
        check_order(base + [{"code": "X", "check_after": "NOPE"}])
    chained = check_order(
        base + [{"code": "Y", "check_after": "X"}, {"code": "X", "check_after": "A"}]
    )
    assert [c["code"] for c in chained] == ["A", "X", "Y", "B"]


def test_the_generators_run_from_the_package(tmp_path):
    """`t42 docs` runs the package's generators (an installed copy has no tools/): on a
    copy of the spec, --check finds a stale file and a run makes it fresh again."""
    import shutil

    from conformance.specdata.generate import GENERATED, generate

    spec = tmp_path / "spec"
    shutil.copytree(SPEC, spec)
    assert generate(spec, check=True) == 0
    (spec / "errors.md").write_text("stale\n", encoding="utf-8")
    assert generate(spec, check=True) == 1
    assert generate(spec, check=False) == 0
    assert all((spec / name).read_text(encoding="utf-8") == (SPEC / name).read_text(
        encoding="utf-8") for name in GENERATED)
