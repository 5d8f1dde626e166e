"""A run's causes settled together, once every scenario has run.

The diagnosis (diagnosis.py) reads one failure at a time, and a few failures fit more
than one rule there: a position where two misreadings of the suit rules give the same
legal plays (a seat void in both numbers of the lead), a round the engine plays on after
it is decided (the rule that decided it, or END-05's early end), a field the schema does
not know that is, in the run's other observations, a leak. The run as a whole tells them
apart, as an engine author would: the same engine makes the same mistake everywhere, so
the run is explained by the fewest causes that cover every failure.

`settle` changes the results in place, once, when a run ends (`run_all`, the pytest
plugin's controller, the selftest); the report's groups and its compliance table read the
settled results, so they always agree.
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


Filing = tuple[str, str]  # (rule, what differs)


def cover(choices: list[tuple[list[Filing], tuple[str, ...]]], firm: Counter[str]
          ) -> Counter[str]:
    """The rules that explain every choice with the fewest causes, with `firm` (the rules
    of failures that fit one only), each with the count of failures it explains (its firm
    ones, and the choices open when it was taken): a greedy cover, the firm rules first,
    then the rule that explains the most choices; on a tie the first reading, then an
    option's rule before a base rule (an option restates a base rule for the games it is
    on), then the rule the failing scenarios cite."""
    chosen = Counter(firm)
    open_ = list(choices)
    while open_:
        # each failure's rules in its own order, never a set's: a tie goes to the rule
        # seen first, the same on every run (a set's order moves with the hash seed)
        readings = [(dict.fromkeys(rule for rule, _ in options), rules)
                    for options, rules in open_]
        support = Counter(rule for found, _ in readings for rule in found)
        cited = Counter(rule for found, rules in readings for rule in found if rule in rules)
        firsts = Counter(options[0][0] for options, _ in open_)
        best = max(support, key=lambda r: (r in chosen, support[r], firsts[r],
                                           _of_an_option(r), cited[r]))
        open_ = [c for c in open_ if all(rule != best for rule, _ in c[0])]
        chosen[best] += support[best]  # the failures it covers: `pick` files each failure
        # under the chosen rule that covers most, not the first reading of a tie
    return chosen


def _of_an_option(rule: str) -> bool:
    from conformance.specdata.index import load_index

    found = load_index().rules.get(rule)
    return found is not None and found.variant is not None


def pick(options: list[Filing], chosen: Counter[str]) -> Filing:
    """The reading of one failure that the cover chose."""
    return max(options, key=lambda o: (o[0] in chosen, chosen[o[0]]))


def settle(results: list[Result]) -> list[Result]:
    """File each failure that fits several rules so that the run shows the fewest causes
    (`cover`); returns `results`, changed in place."""
    details = [(r, d) for r in results for d in [*r.failures, *r.not_judged]]
    choices: dict[int, list[Filing]] = {
        id(d): [(d.rule, d.cause), *((rule, what) for rule, what in d.alternatives)]
        for _, d in details if d.alternatives}
    chosen = cover([(choices[id(d)], r.rules) for r, d in details if d.alternatives],
                   Counter(d.rule for _, d in details
                           if RULE_ID.match(d.rule) and not d.alternatives))
    leaks = {_bare(general_path(x.path)): (d.rule, d.cause)
             for _, d in details if d.kind in LEAK_KINDS for x in d.differences}
    for result, detail in details:
        if detail.alternatives:
            _refile(result, detail, *pick(choices[id(detail)], chosen))
        elif not RULE_ID.match(detail.rule):
            unknown = UNKNOWN_FIELD.match(detail.cause)
            if unknown and _bare(unknown.group(1)) in leaks:  # a leak during the round,
                _refile(result, detail, *leaks[_bare(unknown.group(1))])  # unknown after
    _one_per_decision(details)
    _undecided(details, choices)
    return results


def _undecided(details: list[tuple[Result, Detail]], choices: dict[int, list[Filing]]
               ) -> None:
    """A rule that every failure filed under another fits, and no failure besides, is
    one the run cannot tell from it (a marks contract played on after its set: the
    outcome, END-04, or the end when decided, END-05, each explain every step): the
    failure names both (`either`), the chosen one first, rather than guess."""
    offers: dict[str, set[int]] = {}
    for _, detail in details:
        for rule, _ in choices.get(id(detail), [(detail.rule, detail.cause)]):
            offers.setdefault(rule, set()).add(id(detail))
    for _, detail in details:
        mine = offers.get(detail.rule)
        detail.either = [rule for rule, found in offers.items() if mine and found == mine
                         and rule != detail.rule and RULE_ID.match(rule)]


def _one_per_decision(details: list[tuple[Result, Detail]]) -> None:
    """The failures one decision of the reference explains (the same entry of its rule
    table: an engine that accepts any point bid breaks the range, the raise and the bid
    after marks by one check) are one cause: filed under the rule most of them show, the
    others kept in `rules` for the report to list."""
    by_entry: dict[str, list[tuple[Result, Detail]]] = {}
    for result, detail in details:
        if detail.entry and RULE_ID.match(detail.rule):
            by_entry.setdefault(detail.entry, []).append((result, detail))
    for members in by_entry.values():
        counts = Counter(detail.rule for _, detail in members)
        if len(counts) < 2:
            continue
        rule = max(counts, key=lambda r: counts[r])  # on a tie, the first shown
        others = tuple(r for r in counts if r != rule)
        for result, detail in members:
            if detail.rule != rule:
                _refile(result, detail, rule, detail.cause)
            detail.rules = (rule, *others)


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

