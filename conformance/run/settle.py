"""A run's causes settled together, once every scenario has run.

The diagnosis (diagnosis.py) reads one failure at a time, and a few failures fit more
than one rule there: a position where two misreadings of the suit rules give the same
legal plays (a seat void in both numbers of the lead), a round the engine plays on after
it is decided (the rule that decided it, or END-05's early end), a field the schema does
not know that is, in the run's other observations, a leak. The run as a whole tells them
apart, as an engine author would: the same engine makes the same mistake everywhere, so
the run is explained by the fewest causes that cover every failure.

`settle` changes the results in place and is idempotent; the report's groups and its
compliance table both call it, so they always agree.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from conformance.run.diagnosis import general_path
from conformance.run.results import Detail, Result

RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*-\d+$")
LEAK_KINDS = ("hidden_tiles", "hidden_seats", "hidden_points")
UNKNOWN_FIELD = re.compile(r"^(\S+)\.[^.\s]+: unknown field")


def settle(results: list[Result]) -> None:
    """File each failure that fits several rules so that the run shows the fewest causes
    (a greedy cover: the rules every failure must have first, then the rule that explains
    the most of the others, its first reading kept on a tie)."""
    details = [(r, d) for r in results for d in [*r.failures, *r.not_judged]]
    choices = {id(d): [(d.rule, d.cause), *map(tuple, d.alternatives)]
               for _, d in details if d.alternatives}
    chosen = Counter(d.rule for _, d in details if RULE_ID.match(d.rule) and not d.alternatives)
    open_ = dict(choices)
    while open_:
        support = Counter(rule for options in open_.values() for rule, _ in options)
        firsts = Counter(options[0][0] for options in open_.values())
        best = max(support, key=lambda r: (r in chosen, support[r], firsts[r]))
        for key in [k for k, options in open_.items() if any(r == best for r, _ in options)]:
            del open_[key]
        chosen[best] += 1
    leaks = {_bare(general_path(x.path)): (d.rule, d.cause)
             for _, d in details if d.kind in LEAK_KINDS for x in d.differences}
    for result, detail in details:
        if detail.alternatives:
            options = choices[id(detail)]
            rule, what = max(options, key=lambda o: (o[0] in chosen, chosen[o[0]]))
            _refile(result, detail, rule, what)
        elif not RULE_ID.match(detail.rule):
            unknown = UNKNOWN_FIELD.match(detail.cause)
            if unknown and _bare(unknown.group(1)) in leaks:  # a leak during the round,
                _refile(result, detail, *leaks[_bare(unknown.group(1))])  # unknown after


def _refile(result: Result, detail: Detail, rule: str, what: str) -> None:
    from conformance.specdata.index import load_index

    old = detail.rule
    detail.rule, detail.rules, detail.cause, detail.alternatives = rule, (rule,), what, []
    found = load_index().rules.get(rule)
    sentence = f"rule {rule}: {found.sentence(what)}" if found else ""
    detail.context = [sentence if line.startswith(f"rule {old}:") else line
                      for line in detail.context if sentence or not line.startswith("rule ")]
    for i, check in enumerate(result.checks):  # the compliance table counts it there too
        if not check.passed and check.kind == detail.kind and check.rules == (old,):
            result.checks[i] = replace(check, rules=(rule,))
            break


def _bare(path: str) -> str:
    """A path without its indices: `observe.captured[].seats` -> `observe.captured.seats`."""
    return re.sub(r"\.\d+(?=\.|$)", "", re.sub(r"\[\d*\]", "", path))

