"""Every `# pragma: no mutate` of the engine has its reason in
tools/equivalent_mutants.yaml, and tools/mutation.py reads that file as intended."""

from pathlib import Path

from tools.mutation import marks, reason_problems

ENGINE = '''def f(x):
    y = x + 1  # pragma: no mutate
    # pragma: no mutate start
    z = y * 2
    # pragma: no mutate end
    return z


class C:
    def g(self):
        return 3  # pragma: no mutate
'''


def test_every_mark_of_the_engine_has_its_reason_and_every_reason_its_mark():
    assert reason_problems() == []


def test_marks_are_read_with_their_function_and_blocks(tmp_path: Path):
    (tmp_path / "reference_impl").mkdir()
    engine = tmp_path / "reference_impl" / "e.py"
    engine.write_text(ENGINE)
    assert marks(engine, tmp_path) == [("reference_impl/e.py", "f", "y = x + 1", False),
                                       ("reference_impl/e.py", "f", "z = y * 2", True),
                                       ("reference_impl/e.py", "C.g", "return 3", False)]


def test_a_mark_without_a_reason_and_a_stale_reason_are_both_reported(tmp_path: Path):
    (tmp_path / "reference_impl").mkdir()
    (tmp_path / "reference_impl" / "e.py").write_text(ENGINE)
    reasons = tmp_path / "reasons.yaml"
    reasons.write_text('''
- {file: reference_impl/e.py, function: f, line: y = x + 1, reason: the same seat}
- {file: reference_impl/e.py, function: f, line: z = y * 2, block: true, reason: cache}
- {file: reference_impl/e.py, function: f, line: gone(), reason: moved away}
''')
    problems = reason_problems(tmp_path, reasons)
    assert len(problems) == 2
    assert "without its reason" in problems[0] and "C.g: return 3" in problems[0]
    assert "without its mark" in problems[1] and "gone()" in problems[1]
