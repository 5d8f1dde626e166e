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
from conformance.run.results import Detail, Outcome, Result
from conformance.specdata.index import Rule, load_index

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
    found = _spec_rules().get(rule)
    return found is not None and found.variant is not None


def _spec_rules() -> dict[str, Rule]:
    return load_index().rules


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
    _where_agreed(results, details, choices)
    chosen = cover([(choices[id(d)], r.rules) for r, d in details if id(d) in choices],
                   Counter(d.rule for _, d in details
                           if RULE_ID.match(d.rule) and id(d) not in choices))
    leaks = {_bare(general_path(x.path)): (d.rule, d.cause)
             for _, d in details if d.kind in LEAK_KINDS for x in d.differences}
    for result, detail in details:
        if id(detail) in choices:
            _refile(result, detail, *pick(choices[id(detail)], chosen))
        elif not RULE_ID.match(detail.rule):
            unknown = UNKNOWN_FIELD.match(detail.cause)
            if unknown and _bare(unknown.group(1)) in leaks:  # a leak during the round,
                _refile(result, detail, *leaks[_bare(unknown.group(1))])  # unknown after
    _one_per_decision(details)
    _stated_through(details)
    _undecided(details, choices)
    return results


def _where_agreed(results: list[Result], details: list[tuple[Result, Detail]],
                  choices: dict[int, list[Filing]]) -> None:
    """A base rule whose every failure comes from games with an option on, while the
    scenarios that cite it without that option agree, is not broken: the engine plays it
    right wherever the option is off. Such a failure goes to that option's rules: the
    readings it fits as well (an engine that forces the dealer after any bid: BID-01's
    bidding order or FORCE-02's forced dealer, in a game of forced_bid), else those the
    failing step's decisions name (`decided`); the cover chooses among them."""
    rules = _spec_rules()
    failing: dict[str, set[str]] = {}  # base rule -> the options on in all its failures
    listed: dict[str, set[int]] = {}  # base rule -> the results with a failure listing it
    for result, detail in details:
        for rule, _ in choices.get(id(detail), [(detail.rule, detail.cause)]):
            if rule in rules and rules[rule].variant is None:
                on = set(result.variants)
                failing[rule] = failing[rule] & on if rule in failing else on
                listed.setdefault(rule, set()).add(id(result))
    citing: dict[str, list[Result]] = {}  # base rule -> the scenarios played citing it
    for r in results:
        if r.outcome not in (Outcome.SKIPPED, Outcome.ERRORED):
            for rule in r.rules:
                if rule in failing:
                    citing.setdefault(rule, []).append(r)
    agreed = {rule: {option for option in options if any(
        option not in r.variants and id(r) not in listed[rule] for r in citing.get(rule, ()))}
        for rule, options in failing.items()}
    for _, detail in details:
        options = choices.get(id(detail), [(detail.rule, detail.cause)])
        readings = _without_cleared(options, agreed, detail.decided, rules)
        if readings != options:
            choices[id(detail)] = readings


def _without_cleared(options: list[Filing], agreed: dict[str, set[str]],
                     decided: list[str], rules: dict[str, Rule]) -> list[Filing]:
    """A failure's readings with each base rule that `agreed` clears for an option in
    its game given way to that option's rules: its other readings of them, else the rules
    of them the step decided."""
    kept: list[Filing] = []
    for rule, what in options:
        cleared = agreed.get(rule)
        if not cleared:
            kept.append((rule, what))
            continue
        theirs = [(r, w) for r, w in options if r in rules and rules[r].variant in cleared]
        instead = theirs or [(r, what) for r in decided if rules[r].variant in cleared]
        kept += instead or [(rule, what)]
    return list(dict.fromkeys(kept))


def _stated_through(details: list[tuple[Result, Detail]]) -> None:
    """An option's rule that states itself through a base rule (its text cites it:
    PLUNGE-03's plunge is a marks bid, after BID-06's ladder), filed in a run that breaks
    that base rule at least as often, is the same mistake seen where the option is on:
    one cause, filed under the base rule, the option's rule kept in `through` for the
    report to say."""
    rules = _spec_rules()
    counts = Counter(detail.rule for _, detail in details if detail.rule in rules)
    into: dict[str, str] = {}
    for rule in counts:
        if rules[rule].variant is None:
            continue
        cited = [base for base in counts if rules[base].variant is None and base != rule
                 and counts[base] >= counts[rule]
                 and re.search(rf"\b{base}\b", rules[rule].text)]
        if cited:
            into[rule] = max(cited, key=lambda base: counts[base])
    for result, detail in details:
        base = into.get(detail.rule)
        if base:
            option = detail.rule
            _refile(result, detail, base, detail.cause)
            detail.through = [option]


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

