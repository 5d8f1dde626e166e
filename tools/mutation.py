"""Mutation testing of the reference engine's rule code, with the scenario corpus as the
only test. Not a CI step: it takes minutes.

    python tools/mutation.py [--jobs 2] [--timeout 7200] [--workdir DIR] [--json FILE]
                               [--only reference_impl/variants.py ...]

mutmut 3 ([tool.mutmut] in pyproject.toml) runs in a scratch copy of the checkout, so
the working tree (where other people work) gets no `mutants/` folder and a run sees one
consistent snapshot. The corpus is run by the pytest plugin (`pytest scenarios`).
`--only` mutates the files it names instead of `only_mutate` (it rewrites that list in
the scratch copy's pyproject.toml only), and stale entries are then reported only for
those files.

This file is also the pytest plugin mutmut loads (`-p tools.mutation`): the engine
caches what it derives from its rules (tables per `Rules`, canonical action dicts), and
a cache filled by one test would hide a mutant from every later test in the same
process, so every cache is emptied before each scenario.

The figure is killed / (all mutants - equivalent - out of scope), where EQUIVALENT lists
mutants that cannot change any observable behaviour (each with the reason) and
OUT_OF_SCOPE the functions no scenario can reach through the adapter protocol. Both
lists are checked: an entry that matches no mutant of the run is reported as stale.
"""

# ruff: noqa: E501 - EQUIVALENT quotes mutated source lines verbatim

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("reference_impl", "conformance", "spec", "scenarios", "pyproject.toml",
          "tools/mutation.py")
TARGET = 0.95

# Functions of the mutated files that the conformance protocol never calls: JSON
# round-trips, seeded deals and debugging aids (the engine's own tests cover them).
OUT_OF_SCOPE: dict[str, str] = {
    "match.xǁMatchǁfrom_seed": "random deals: scenarios give every deal",
    "match.xǁMatchǁto_json": "serialisation: not part of the adapter protocol",
    "match.xǁMatchǁfrom_json": "serialisation: not part of the adapter protocol",
    "match.xǁMatchǁ__eq__": "engine equality: not part of the adapter protocol",
    "match.xǁMatchǁ_snapshot": "engine equality: not part of the adapter protocol",
    "actions.x_action_from_key": "inverse of action keys, used by from_json only",
    "dealing.x_draw_first_dealer": "random first dealer, used by from_seed only: a setup "
                                   "gives `dealer` or `draws`",
}

# Functions whose every outcome is one fixed code: a mutant can only change the message.
DIAGNOSTIC_FUNCTIONS: dict[str, str] = {
    "actions.x_fields_problem": "returns MALFORMED_ACTION on every path; only the message "
                                "(which field is missing or extra) varies",
}

# Functions that return None or a message: the caller rejects with one fixed code
# whatever the message says, so a mutant that only rewords a message changes nothing.
MESSAGE_FUNCTIONS: dict[str, str] = {
    "dealing.x_draws_problem": "parse_draws raises INVALID_SETUP with any message it gets",
}

# Mutants proven equivalent to the engine as the protocol sees it, grouped by the reason;
# each is (function, the mutated line as it reads in the mutant), quoted verbatim.
EQUIVALENT_GROUPS: dict[str, list[tuple[str, str]]] = {
    "apply()'s fast path for well-formed plays: broken or skipped, parse_action and the general path give the same result": [
        ('match.xǁMatchǁapply', 'if type(None) is dict and len(action) == 3:'),
        ('match.xǁMatchǁapply', 'if type(action) is not dict and len(action) == 3:'),
    ],
    "the general path's play branch is dead: every well-formed play takes the fast path": [
        ('match.xǁMatchǁapply', 'if kind == "XXplayXX":'),
        ('match.xǁMatchǁapply', 'if kind == "PLAY":'),
        ('match.xǁMatchǁapply', 'self._play(None, x)'),
        ('match.xǁMatchǁapply', 'self._play(seat, None)'),
        ('match.xǁMatchǁapply', 'self._play(x)'),
        ('match.xǁMatchǁapply', 'self._play(seat, )'),
    ],
    'only plays the fast path refused reach parse_action, and all are malformed: MALFORMED_ACTION either way': [
        ('actions.x_parse_action', 'if kind == "XXplayXX":'),
        ('actions.x_parse_action', 'if kind == "PLAY":'),
        ('actions.x_parse_action', 'if type(None) is not str or tile not in TILE_INDEX:'),
    ],
    '(x - 2) & 3 == (x + 2) & 3': [
        ('match.xǁMatchǁ_after_bidding_turn', 'declarer = (bidder - 2) & 3 if self.plunged else bidder  # PLUNGE-04: the partner'),
        ('match.xǁMatchǁ_use_choice', 'self.sitting_out = (self.contract.declarer - 2) & 3'),
    ],
    '`dealt` is read only by to_json, outside the protocol': [
        ('match.xǁMatchǁ_begin_round', 'self.dealt = None'),
    ],
    'every bid sets `plunged` before a won bidding reads it': [
        ('match.xǁMatchǁ_begin_round', 'self.plunged = None'),
        ('match.xǁMatchǁ_begin_round', 'self.plunged = True'),
    ],
    'overwritten by the declaration before any read': [
        ('match.xǁMatchǁ_begin_round', 'self._called_of = self._follow = self._rank = self._counters = ""'),
    ],
    'outside Sevens the top rank of a trick is never tied, so tie_to_bidders keeps `best`': [
        ('match.xǁMatchǁ_begin_round', 'self._ties = None'),
        ('match.xǁMatchǁ_begin_round', 'self._ties = True'),
    ],
    'the doubles count is read only when plunge_doubles is set (PLUNGE-02)': [
        ('match.xǁMatchǁ_bidding', 'doubles = (self.masks[seat] & DOUBLES).bit_count() if (self.rules.plunge_doubles) or True else 0'),
        ('match.xǁMatchǁ_bidding', 'doubles = (self.masks[seat] & DOUBLES).bit_count() if self.rules.plunge_doubles else 1'),
    ],
    'the lead ranks >= 0 > -2, so it replaces the initial best/top': [
        ('match.xǁMatchǁ_complete_trick', 'best, top, i, points = 1, -2, 0, 1  # PTS-01: a trick is worth 1 round point'),
        ('match.xǁMatchǁ_complete_trick', 'best, top, i, points = 0, -3, 0, 1  # PTS-01: a trick is worth 1 round point'),
    ],
    'an outcome never changes once decided (MPTS-09), so the last one equals the first': [
        ('match.xǁMatchǁ_complete_trick', 'if self.decided is not None:  # MPTS-09 "play_out": decided now, played out'),
        ('match.xǁMatchǁ_complete_trick', 'self.decided = None'),
    ],
    'contract.plunge is read only while declaring (PLUNGE-05)': [
        ('match.xǁMatchǁ_declare', 'self.contract = Contract(declarer, team, kind, value, trump, stacks, None)  # CON-04'),
        ('match.xǁMatchǁ_declare', 'self.contract = Contract(declarer, team, kind, value, trump, stacks, )  # CON-04'),
    ],
    'bidders is read only when both teams reach the target, which four passes cannot bring about': [
        ('match.xǁMatchǁ_end_round', 'bidders = ""'),
    ],
    "'none' is never one of a tile's numbers: the fall-through answers the same": [
        ('rules.x_is_trump', 'if trump == "XXnoneXX":'),
        ('rules.x_is_trump', 'if trump == "NONE":'),
    ],
    'the default is unused: the only caller passes high_points': [
        ('rules.x_marks_bid_problem', 'def x_marks_bid_problem__mutmut_orig(rules: Rules, marks: int, last_marks: int, high_points: int = 1'),
    ],
    'no stake function reads its rules argument': [
        ('rules.x_marks_score', 'gains[team] = rules.stake(None, contract)'),
        ('views.x_contract_json', '"stake": m.rules.stake(None, c), "trump": c.trump, "stacks": c.stacks}'),
    ],
    'in this branch the tile is not a trump, and follows() then answers the same for trump None': [
        ('rules.x_trick_rank', 'if follows(tile, called, None):'),
    ],
    '-2 and -1 both rank below every following tile, and the lead always follows': [
        ('rules.x_trick_rank', 'return -2'),
    ],
    'trumps at 9+ instead of 8+ stay above every suit rank (<= 7)': [
        ('rules.x_trick_rank', 'return 9 + trump_rank(tile, trump)'),
    ],
    'a double has equal ends': [
        ('rules.x_trump_rank', 'return PIPS[tile][1]'),
    ],
    'both branches raise INVALID_SETUP; only the message and rule ID differ': [
        ('setup.x_parse_deal', 'if "XXvariantsXX" in deal:'),
        ('setup.x_parse_deal', 'if "VARIANTS" in deal:'),
        ('setup.x_parse_deal', 'if "variants" not in deal:'),
    ],
    'dead: parse_setup handles every setup with a dealer and no draws itself': [
        ('setup.x_parse_first_dealer', 'if "XXdealerXX" not in setup:'),
        ('setup.x_parse_first_dealer', 'if "DEALER" not in setup:'),
        ('setup.x_parse_first_dealer', 'return parse_dealer(None)'),
        ('setup.x_parse_first_dealer', 'return parse_dealer(setup["XXdealerXX"])'),
        ('setup.x_parse_first_dealer', 'return parse_dealer(setup["DEALER"])'),
    ],
    'parse_first_dealer handles a dealer-only setup the same way': [
        ('setup.x_parse_setup', 'if "XXdealerXX" in setup and "draws" not in setup:'),
        ('setup.x_parse_setup', 'if "DEALER" in setup and "draws" not in setup:'),
    ],
    'reached only when some entry is not a tile; parse_tile(None) raises INVALID_SETUP at once': [
        ('setup.x_parse_tiles', 'parse_tile(None, where)  # raises for the first entry that is not a tile'),
    ],
    'cache only: building the tables again gives the same tables': [
        ('tables.x_tables_for', 'tables = None'),
        ('tables.x_tables_for', 'tables = _TABLES.get(None)'),
        ('tables.x_tables_for', 'tables = _TABLES.get(id(None))'),
        ('tables.x_tables_for', 'if tables is None or tables.rules is rules:'),
        ('tables.x_tables_for', 'tables = _TABLES[id(None)] = Tables(rules)'),
    ],
    'cache only: computing again gives the same actions': [
        ('tables.xǁTablesǁbidding', 'found = None'),
        ('tables.xǁTablesǁbidding', 'found = self._bidding.get(None)'),
        ('tables.xǁTablesǁdeclaring', 'found = None'),
        ('tables.xǁTablesǁdeclaring', 'found = self._declaring.get(None)'),
        ('tables.xǁTablesǁplain_bidding_actions', 'found = None'),
        ('tables.xǁTablesǁplain_bidding_actions', 'found = self._bidding.get(None)'),
    ],
    'a more specific cache key': [
        ('tables.xǁTablesǁdeclaring', 'key = (seat, contract[2]) if (self.plain_declaring) and False else ('),
    ],
    '(seat, bid value) never collides between a point and a marks contract (30..42 vs 1..5)': [
        ('tables.xǁTablesǁdeclaring', 'seat, contract[3], contract[3], contract[6])  # kind, value, plunge'),
        ('tables.xǁTablesǁdeclaring', 'key = (seat, contract[3]) if self.plain_declaring else ('),
    ],
    'zip of two sequences of equal length': [
        ('tables.xǁTablesǁ__init__', 'for trump, (called, _, _) in zip(rules.trumps, suits, strict=None))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (called, _, _) in zip(rules.trumps, suits, ))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (called, _, _) in zip(rules.trumps, suits, strict=False))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (_, follows, _) in zip(rules.trumps, suits, strict=None))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (_, follows, _) in zip(rules.trumps, suits, ))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (_, follows, _) in zip(rules.trumps, suits, strict=False))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (_, _, rank) in zip(rules.trumps, suits, strict=None))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (_, _, rank) in zip(rules.trumps, suits, ))'),
        ('tables.xǁTablesǁ__init__', 'for trump, (_, _, rank) in zip(rules.trumps, suits, strict=False))'),
    ],
    'the default is COUNTERS, the only counters any option uses': [
        ('tables.xǁTablesǁ__init__', 'self.counters = tuple(counter_points(t, ) for t in tiles)'),
    ],
    'falsy: the general path gives the same actions': [
        ('tables.xǁTablesǁ__init__', 'self.plain_bidding = None'),
        ('tables.xǁTablesǁ__init__', 'self.plain_declaring = None'),
    ],
    'without forced_bid and plunge, bidding_actions reads only the highest bids': [
        ('tables.xǁTablesǁplain_bidding_actions', 'state = Bidding(high_points, last_marks, None, False, 0)'),
        ('tables.xǁTablesǁplain_bidding_actions', 'state = Bidding(high_points, last_marks, False, None, 0)'),
        ('tables.xǁTablesǁplain_bidding_actions', 'state = Bidding(high_points, last_marks, False, False, None)'),
        ('tables.xǁTablesǁplain_bidding_actions', 'state = Bidding(high_points, last_marks, True, False, 0)'),
        ('tables.xǁTablesǁplain_bidding_actions', 'state = Bidding(high_points, last_marks, False, True, 0)'),
        ('tables.xǁTablesǁplain_bidding_actions', 'state = Bidding(high_points, last_marks, False, False, 1)'),
    ],
    'zip of equal-length sequences, strict or not': [
        ('views.x_plays', 'for seat, t in zip(order, tiles, strict=None)]'),
        ('views.x_plays', 'for seat, t in zip(order, tiles, )]'),
    ],
    'the protocol only asks for the seats A..D': [
        ('views.x_seat_observation', 'index = SEAT_INDEX.get(seat) if (type(seat) is str) or True else None'),
    ],
    "apply()'s fast paths for well-formed plays, bids and passes: broken or skipped, parse_action and the general path give the same result": [
        ('match.xǁMatchǁapply', 'kind = None'),
        ('match.xǁMatchǁapply', 'kind = action["XXtypeXX"]'),
        ('match.xǁMatchǁapply', 'kind = action["TYPE"]'),
        ('match.xǁMatchǁapply', 'seat, x = None'),
        ('match.xǁMatchǁapply', 'seat, x = SEAT_AND_TILE[action["XXseatXX"], action["tile"]]'),
        ('match.xǁMatchǁapply', 'seat, x = SEAT_AND_TILE[action["SEAT"], action["tile"]]'),
        ('match.xǁMatchǁapply', 'seat, x = SEAT_AND_TILE[action["seat"], action["XXtileXX"]]'),
        ('match.xǁMatchǁapply', 'seat, x = SEAT_AND_TILE[action["seat"], action["TILE"]]'),
        ('match.xǁMatchǁapply', 'y = None'),
        ('match.xǁMatchǁapply', 'y = "points" if ("points" in action) and False else "marks"'),
        ('match.xǁMatchǁapply', 'y = "points" if ("points" in action) or True else "marks"'),
        ('match.xǁMatchǁapply', 'y = "XXpointsXX" if "points" in action else "marks"'),
        ('match.xǁMatchǁapply', 'y = "POINTS" if "points" in action else "marks"'),
        ('match.xǁMatchǁapply', 'y = "points" if "XXpointsXX" in action else "marks"'),
        ('match.xǁMatchǁapply', 'y = "points" if "POINTS" in action else "marks"'),
        ('match.xǁMatchǁapply', 'y = "points" if "points" not in action else "marks"'),
        ('match.xǁMatchǁapply', 'y = "points" if "points" in action else "XXmarksXX"'),
        ('match.xǁMatchǁapply', 'y = "points" if "points" in action else "MARKS"'),
        ('match.xǁMatchǁapply', 'seat, x = SEAT_INDEX[action["XXseatXX"]], action[y]'),
        ('match.xǁMatchǁapply', 'seat, x = SEAT_INDEX[action["SEAT"]], action[y]'),
        ('match.xǁMatchǁapply', 'if type(None) is not int:'),
        ('match.xǁMatchǁapply', 'kind = ""'),
        ('match.xǁMatchǁapply', 'if kind == "XXbidXX":'),
        ('match.xǁMatchǁapply', 'if kind == "BID":'),
        ('match.xǁMatchǁapply', 'elif type(None) is dict and len(action) == 2 and action.get("type") == "pass":'),
        ('match.xǁMatchǁapply', 'elif type(action) is dict and len(action) == 3 and action.get("type") == "pass":'),
        ('match.xǁMatchǁapply', 'elif type(action) is dict and len(action) == 2 and action.get(None) == "pass":'),
        ('match.xǁMatchǁapply', 'elif type(action) is dict and len(action) == 2 and action.get("XXtypeXX") == "pass":'),
        ('match.xǁMatchǁapply', 'elif type(action) is dict and len(action) == 2 and action.get("TYPE") == "pass":'),
        ('match.xǁMatchǁapply', 'elif type(action) is dict and len(action) == 2 and action.get("type") == "XXpassXX":'),
        ('match.xǁMatchǁapply', 'elif type(action) is dict and len(action) == 2 and action.get("type") == "PASS":'),
        ('match.xǁMatchǁapply', 'name = None'),
        ('match.xǁMatchǁapply', 'name = action.get(None)'),
        ('match.xǁMatchǁapply', 'name = action.get("XXseatXX")'),
        ('match.xǁMatchǁapply', 'name = action.get("SEAT")'),
        ('match.xǁMatchǁapply', 'if type(None) is str and name in SEAT_INDEX:'),
    ],
    "the general path's play and pass branches are dead: every well-formed play and pass takes a fast path": [
        ('match.xǁMatchǁapply', 'elif kind == "XXpassXX":'),
        ('match.xǁMatchǁapply', 'elif kind == "PASS":'),
        ('match.xǁMatchǁapply', 'self._pass(None)'),
    ],
    'only plays, bids and passes the fast paths refused reach parse_action, and all are malformed: MALFORMED_ACTION either way': [
        ('actions.x_parse_action', 'value = None'),
        ('actions.x_parse_action', 'if type(None) is not int:  # a JSON integer, never a boolean'),
        ('actions.x_parse_action', 'if kind == "XXpassXX":'),
        ('actions.x_parse_action', 'if kind == "PASS":'),
    ],
    'the doubles count is read only for a plunge (PLUNGE-02)': [
        ('match.xǁMatchǁ_bid', 'doubles = (self.masks[seat] & DOUBLES).bit_count() if (kind == "plunge") or True else 0'),
        ('match.xǁMatchǁ_bid', 'doubles = (self.masks[seat] & DOUBLES).bit_count() if kind == "plunge" else 1'),
    ],
    'keys equal to every allowed field include both hands and order: INVALID_SETUP either way': [
        ('setup.x_parse_deal', "if not deal.keys() < fields:  # a setup's fields are checked here too"),
    ],
    "a setup with draws but without deal_by_drawing is still INVALID_SETUP, refused by parse_deal's field check": [
        ('setup.x_parse_setup', 'fields = SETUP_FIELDS_DRAWN if (rules.draws) or True else SETUP_FIELDS'),
        ('setup.x_parse_setup', 'if "XXdrawsXX" in setup and not rules.draws:'),
        ('setup.x_parse_setup', 'if "DRAWS" in setup and not rules.draws:'),
    ],
    'a fifth entry (the leader again) is never read: tricks complete at 4 tiles (3 under Nel-O) and plays are zipped with the tiles': [
        ('tiles.x_play_order', 'return tuple(seat for seat in ((leader + i) & 3 for i in range(5)) if seat != sitting_out)'),
    ],
    "`forms` only chooses what fields_problem's MALFORMED_ACTION message names": [
        ('actions.x_parse_action', 'forms = (PLUNGE_BID_FIELDS,)'),
    ],
    # ---- the variant files (variants.py, variant_rules.py, dealing.py) ----
    'is_trump treats any value that is not a number or "doubles" as "none": the Nel-O suit functions answer the same': [
        ('variant_rules.x_nello_called', 'return called_suit(lead, None)'),
        ('variant_rules.x_nello_called', 'return called_suit(lead, "XXnoneXX")'),
        ('variant_rules.x_nello_called', 'return called_suit(lead, "NONE")'),
        ('variant_rules.x_nello_follows', 'return follows(tile, called, None)'),
        ('variant_rules.x_nello_follows', 'return follows(tile, called, "XXnoneXX")'),
        ('variant_rules.x_nello_follows', 'return follows(tile, called, "NONE")'),
        ('variant_rules.x_nello_rank_doubles_high', 'return trick_rank(tile, called, None)'),
        ('variant_rules.x_nello_rank_doubles_high', 'return trick_rank(tile, called, "XXnoneXX")'),
        ('variant_rules.x_nello_rank_doubles_high', 'return trick_rank(tile, called, "NONE")'),
        ('variant_rules.x_nello_rank_doubles_low', 'if not follows(tile, called, None):'),
        ('variant_rules.x_nello_rank_doubles_low', 'if not follows(tile, called, "XXnoneXX"):'),
        ('variant_rules.x_nello_rank_doubles_low', 'if not follows(tile, called, "NONE"):'),
    ],
    'the `trump` argument of nello_follows_own_suit is not read': [
        ('variant_rules.x_nello_rank_own_suit', 'if not nello_follows_own_suit(tile, called, None):'),
    ],
    'a Nel-O lead always follows the suit it calls (rank >= 0), so -2 and -1 both mean "never wins"': [
        ('variant_rules.x_nello_rank_doubles_low', 'return -2'),
        ('variant_rules.x_nello_rank_own_suit', 'return -2'),
    ],
    'doubles low: 2 + suit_rank keeps the order of the followers (double 0, others above it) and no trump ranks beside them': [
        ('variant_rules.x_nello_rank_doubles_low', 'return 0 if a == b else 2 + suit_rank(tile, called)'),
    ],
    'a double has equal ends (own_suit)': [
        ('variant_rules.x_nello_rank_own_suit', 'return PIPS[tile][1] if called == DOUBLES_SUIT else suit_rank(tile, called)'),
    ],
    'Sevens: no tile follows any called suit and sevens_rank ignores it, so which suit a lead calls is never seen': [
        ('variant_rules.x_sevens_called', 'return 1'),
    ],
    'Sevens: if every tile follows, the follow mask is the whole hand, which is what no duty to follow allows (MUST_FOLLOW never fires)': [
        ('variant_rules.x_sevens_follows', 'return True'),
    ],
    'Sevens: ranks shifted by one keep their order and their ties': [
        ('variant_rules.x_sevens_rank', 'return 8 - distance(tile)'),
    ],
    "first_tile's follow and rank tables are never read: the first play sets trump and switches to that trump's tables before any follow or rank": [
        ('variant_rules.x_first_tile_follows', 'return True'),
        ('variant_rules.x_first_tile_rank', 'return +1'),
        ('variant_rules.x_first_tile_rank', 'return -2'),
    ],
    'points_stake does not read its rules argument': [
        ('variant_rules.x_points_score', 'gains[bidders] = rules.stake(None, contract)'),
        ('variant_rules.x_points_score', 'gains[defenders] = rules.stake(None, contract) + points[defenders]'),
    ],
    'range(target) == range(0, target)': [
        ('variants.x_match_points', 'return {"marks_range": range(target), "marks_target": target,'),
    ],
    'None is falsy like False: choice_problem reads `not extra.on_plunge`': [
        ('variants.x_nello', 'choice = Choice(*NELLO_SUITS[s["doubles"]], min_marks=s["min_marks"], on_plunge=None,'),
    ],
    'every key of OPTIONS is a string: OPTIONS.get of any other key is None as well': [
        ('variants.x_option_settings', 'option = OPTIONS.get(name) if (type(name) is str) or True else None'),
    ],
    "the JSON key only names a cache entry: rules_of_settings builds the same Rules in any key order (options change disjoint fields, choices are put in CHOICE_ORDER)": [
        ('variants.x_rules_for', 'return rules_of_settings(json.dumps(settings, sort_keys=None))'),
        ('variants.x_rules_for', 'return rules_of_settings(json.dumps(settings, ))'),
        ('variants.x_rules_for', 'return rules_of_settings(json.dumps(settings, sort_keys=False))'),
    ],
}
EQUIVALENT: dict[tuple[str, str], str] = {
    key: reason for reason, keys in EQUIVALENT_GROUPS.items() for key in keys}


# ---- the pytest plugin half ------------------------------------------------------------


def pytest_configure(config: object) -> None:
    """A function the engine calls while it is imported (to build a table) only shows its
    mutant if the engine is imported again with that mutant active."""
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if function_of(mutant) in import_time_functions(Path("reference_impl")):
        for name in [n for n in sys.modules if n.split(".")[0] == "reference_impl"]:
            del sys.modules[name]
        # mutmut saw these calls in the first test only (the import happens there): run
        # the whole corpus instead
        config.args = ["scenarios"]  # type: ignore[attr-defined]


def pytest_runtest_setup(item: object) -> None:
    clear_engine_caches()


def import_time_functions(package: Path) -> set[str]:
    """`module.x_name` of every engine function called at import time (module-level code
    and class bodies), and of the functions those call, by name."""
    bodies: dict[str, list[ast.AST]] = {}  # function name -> bodies defining it
    where: dict[str, set[str]] = {}  # function name -> modules defining it
    roots: set[str] = set()
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and "__mutmut_" not in node.name:
                bodies.setdefault(node.name, []).append(node)
                where.setdefault(node.name, set()).add(path.stem)
        roots |= _called_names(tree, skip_functions=True)
    found, todo = set(), [n for n in roots if n in bodies]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += [n for b in bodies[name] for n in _called_names(b) if n in bodies]
    return {f"{module}.x_{name}" for name in found for module in where[name]}


def _is_main_guard(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


def _called_names(tree: ast.AST, skip_functions: bool = False) -> set[str]:
    names, todo = set(), [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if skip_functions and (isinstance(child, ast.FunctionDef | ast.Lambda)
                                   or _is_main_guard(child)):
                continue
            if isinstance(child, ast.Call):
                func = child.func
                names.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
            todo.append(child)
    return names


def clear_engine_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name != "reference_impl" and not name.startswith("reference_impl."):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
        tables = getattr(module, "_TABLES", None)
        if isinstance(tables, dict):
            tables.clear()


# ---- running mutmut ----------------------------------------------------------------------


def prepare(workdir: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "_data")
    for name in COPIED:
        source, target = ROOT / name, workdir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=ignore)
        else:
            shutil.copy2(source, target)


ONLY_MUTATE = re.compile(r"^only_mutate\s*=\s*\[.*?\]", re.MULTILINE | re.DOTALL)


def check_only(files: list[str]) -> None:
    for name in files:
        if not (name.startswith("reference_impl/") and name.endswith(".py")
                and (ROOT / name).is_file()):
            raise SystemExit(f"--only: {name} is not a file of reference_impl/")


def restrict(workdir: Path, files: list[str]) -> None:
    """Mutate only `files` in the scratch copy: its [tool.mutmut] only_mutate becomes them."""
    pyproject = workdir / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    listed = "only_mutate = [" + ", ".join(json.dumps(n) for n in files) + "]"
    new, count = ONLY_MUTATE.subn(lambda _: listed, text, count=1)
    if count != 1:
        raise SystemExit("pyproject.toml has no [tool.mutmut] only_mutate list to override")
    pyproject.write_text(new, encoding="utf-8")


def run_mutmut(workdir: Path, jobs: int, timeout: float) -> bool:
    """True if mutmut finished within `timeout` seconds (else what it did is kept)."""
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)]
    env = dict(os.environ)
    with (workdir / "mutmut.log").open("w") as log:
        process = subprocess.Popen(command, cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
                                   env=env, start_new_session=True)
        try:
            process.wait(timeout=timeout)
            return process.returncode == 0
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
            return False


def statuses(workdir: Path) -> dict[str, str]:
    """mutant name -> status, from the .meta files mutmut writes."""
    from mutmut.stats import status_by_exit_code

    found = {}
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in codes.items():
            found[name] = status_by_exit_code[code]
    return found


# ---- reading the mutants -------------------------------------------------------------


def function_of(name: str) -> str:
    """`reference_impl.rules.x_follows__mutmut_3` -> `rules.x_follows`."""
    return re.sub(r"__mutmut_\d+$", "", name.removeprefix("reference_impl."))


class Sources:
    """The mutated files: each mutant is a function `<name>__mutmut_<n>` beside the
    original `<name>__mutmut_orig`."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.files: dict[str, tuple[str, dict[str, ast.FunctionDef]]] = {}

    def functions(self, module: str) -> tuple[str, dict[str, ast.FunctionDef]]:
        if module not in self.files:
            path = self.workdir / "mutants" / "reference_impl" / f"{module}.py"
            text = path.read_text(encoding="utf-8")
            defs = {node.name: node for node in ast.walk(ast.parse(text))
                    if isinstance(node, ast.FunctionDef)}
            self.files[module] = (text, defs)
        return self.files[module]

    def pair(self, name: str) -> tuple[str, ast.FunctionDef, ast.FunctionDef] | None:
        """(source text, original def, mutant def) of a mutant."""
        module, _, mutant = name.removeprefix("reference_impl.").partition(".")
        text, defs = self.functions(module)
        original = defs.get(re.sub(r"__mutmut_\d+$", "__mutmut_orig", mutant))
        changed = defs.get(mutant)
        return (text, original, changed) if original and changed else None

    def diff(self, name: str) -> str:
        found = self.pair(name)
        if not found:
            return "(source not found)"
        text, original, changed = found
        before = (ast.get_source_segment(text, original) or "").splitlines()
        after = (ast.get_source_segment(text, changed) or "").splitlines()
        after[:1] = [after[0].replace(changed.name, original.name)] if after else []
        return "\n".join(difflib.unified_diff(before, after, lineterm="", n=1,
                                               fromfile="original", tofile=name))


def mutated_line(diff: str) -> str:
    added = [line[1:].strip() for line in diff.splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    return " / ".join(added)


# ---- what the protocol cannot see: messages and rule IDs ------------------------------

# A rejection reaches the harness as its code only (and a message nobody may expect,
# CONTRIBUTING.md); the rule ID stays inside the engine. Calls that build one keep their
# first N arguments here (the code), the rest only label the message.
KEPT_ARGS = {"IllegalAction": 1, "invalid": 0, "malformed": 0, "ValueError": 0,
             "fields_problem": 0,  # MALFORMED_ACTION whatever its arguments
             "parse_tiles": 2,  # parse_tiles(value, count, label-for-the-message)
             "parse_tile": 1}  # parse_tile(value, label-for-the-message)


def error_codes() -> frozenset[str]:
    from reference_impl.errors import CODES

    return frozenset(CODES)


SAFE_CALLS = frozenset({"map", "sorted", "str", "repr", "len", "join"})
PLACEHOLDER = ast.Constant("<diagnostic>")


def safe(node: ast.AST) -> bool:
    """True if evaluating `node` cannot raise: literals, names, f-strings and joins of
    them. A message whose mutant could raise (a crash the harness sees) is not dropped."""
    if isinstance(node, ast.Constant | ast.Name):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        return name in SAFE_CALLS and all(map(safe, [*node.args, func]))
    if isinstance(node, ast.GeneratorExp | ast.ListComp):
        return safe(node.elt) and all(safe(g.iter) for g in node.generators)
    if isinstance(node, ast.Lambda):
        return False
    children = list(ast.iter_child_nodes(node))
    return isinstance(node, ast.expr) and all(
        safe(c) for c in children if isinstance(c, ast.expr))


def neutral(node: ast.expr) -> ast.expr:
    return PLACEHOLDER if safe(node) else node


class _Diagnostics(ast.NodeTransformer):
    """Replaces message and rule-ID arguments, and the rule and message of problem
    tuples (code, rule, message), by a placeholder when they cannot raise."""

    def __init__(self, codes: frozenset[str], messages: bool = False) -> None:
        self.codes = codes
        self.messages = messages  # returned strings are messages (MESSAGE_FUNCTIONS)

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        if self.messages and _is_message(node.value):
            node.value = neutral(node.value)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in KEPT_ARGS:
            kept = KEPT_ARGS[name]
            rest = [neutral(a) for a in node.args[kept:]]
            node.args = node.args[:kept] + [a for a in rest if a is not PLACEHOLDER]
            node.keywords = []
        return node

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        self.generic_visit(node)
        first = node.elts[0] if node.elts else None
        if isinstance(first, ast.Constant) and first.value in self.codes:
            rest = [neutral(e) for e in node.elts[1:]]
            node.elts = [first] + [e for e in rest if e is not PLACEHOLDER]
        return node


def _is_message(node: ast.expr | None) -> bool:
    """A string that cannot be empty: a non-empty literal or an f-string with some text."""
    def text(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value != ""
    return text(node) or (isinstance(node, ast.JoinedStr) and any(map(text, node.values)))


def _drop_dead_stores(function: ast.FunctionDef) -> None:
    """Values stored in names nothing reads any more (a message's parts, a rule ID)."""
    for _ in range(3):
        loaded = {n.id for n in ast.walk(function)
                  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                stored = [n.id for t in targets for n in ast.walk(t)
                          if isinstance(n, ast.Name)]
                if stored and not set(stored) & loaded:
                    node.value = neutral(node.value)
        for node in ast.walk(function):
            # `for n, x in enumerate(xs, start)` where nothing reads n: start is dead
            if (isinstance(node, ast.For) and isinstance(node.target, ast.Tuple)
                    and isinstance(node.target.elts[0], ast.Name)
                    and node.target.elts[0].id not in loaded
                    and isinstance(node.iter, ast.Call)
                    and getattr(node.iter.func, "id", None) == "enumerate"):
                call = node.iter
                call.args[1:] = [a for a in call.args[1:] if neutral(a) is not PLACEHOLDER]
                call.keywords = [k for k in call.keywords if not safe(k.value)]
        for node in ast.walk(function):
            if isinstance(node, ast.If) and all(_is_neutral_store(b)
                                                for b in node.body + node.orelse):
                node.test = neutral(node.test)  # it only chooses between dead stores
        args = function.args
        first_default = len(args.args) - len(args.defaults)
        for i, arg in enumerate(args.args[first_default:]):
            if arg.arg not in loaded:
                args.defaults[i] = neutral(args.defaults[i])


def _is_neutral_store(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign | ast.AugAssign) and node.value is PLACEHOLDER


def _normalised(function: ast.FunctionDef, codes: frozenset[str], messages: bool) -> str:
    import copy

    tree = _Diagnostics(codes, messages).visit(copy.deepcopy(function))
    tree.name = "f"
    _drop_dead_stores(tree)
    return ast.dump(tree, annotate_fields=False)


def diagnostic_only(sources: Sources, name: str, codes: frozenset[str]) -> bool:
    """True if the mutant changes only what a rejection says, not which code it has."""
    found = sources.pair(name)
    if not found:
        return False
    _, original, changed = found
    messages = function_of(name) in MESSAGE_FUNCTIONS
    return _normalised(original, codes, messages) == _normalised(changed, codes, messages)


# ---- judging the survivors ----------------------------------------------------------


def module_of(function: str) -> str:
    """`rules.x_follows` -> `rules`."""
    return function.partition(".")[0]


def judge(names: list[str], status: dict[str, str], sources: Sources) -> dict:
    """Split the mutants into killed, survived, diagnostic, equivalent, out of scope.
    An entry of OUT_OF_SCOPE or EQUIVALENT is stale if its file was mutated in this run
    and no mutant matches it (a run of some files says nothing of the others)."""
    codes = error_codes()
    mutated = {module_of(function_of(name)) for name in names}
    seen_equivalent, seen_scope = set(), set()
    verdict: dict[str, list] = {k: [] for k in (
        "killed", "survived", "diagnostic", "equivalent", "out_of_scope", "not_checked")}
    for name in names:
        function, state = function_of(name), status[name]
        if function in OUT_OF_SCOPE:
            seen_scope.add(function)
            verdict["out_of_scope"].append(name)
        elif state in ("killed", "timeout", "segfault", "caught by type check"):
            verdict["killed"].append(name)
        elif state == "not checked":
            verdict["not_checked"].append(name)
        elif function in DIAGNOSTIC_FUNCTIONS or diagnostic_only(sources, name, codes):
            verdict["diagnostic"].append(name)
        else:
            key = (function, mutated_line(sources.diff(name)))
            if key in EQUIVALENT:
                seen_equivalent.add(key)
                verdict["equivalent"].append(name)
            else:
                verdict["survived"].append(name)
    verdict["stale"] = (
        [f"OUT_OF_SCOPE {f}" for f in OUT_OF_SCOPE
         if f not in seen_scope and module_of(f) in mutated]
        + [f"EQUIVALENT {k}" for k in EQUIVALENT
           if k not in seen_equivalent and module_of(k[0]) in mutated])
    return verdict


def report(verdict: dict, status: dict[str, str], sources: Sources) -> float:
    killed = len(verdict["killed"])
    scored = killed + len(verdict["survived"]) + len(verdict["not_checked"])
    rate = killed / scored if scored else 0.0
    for name in verdict["survived"]:
        print(f"\n--- SURVIVED ({status[name]}) {name}")
        print(sources.diff(name))
    for line in verdict["stale"]:
        print(f"stale entry (matches no mutant of this run): {line}")
    total = sum(len(v) for k, v in verdict.items() if k != "stale")
    print(f"\nmutants {total}: killed {killed}, survived {len(verdict['survived'])}, "
          f"not checked {len(verdict['not_checked'])}; not scored: "
          f"diagnostic-only {len(verdict['diagnostic'])}, "
          f"equivalent {len(verdict['equivalent'])}, "
          f"out of scope {len(verdict['out_of_scope'])}")
    print(f"kill rate: {killed}/{scored} = {rate:.1%} (target {TARGET:.0%}); "
          f"all mutants: {killed}/{total} = {killed / total if total else 0:.1%}")
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=7200.0, help="seconds for mutmut run")
    parser.add_argument("--workdir", type=Path, help="scratch copy (default: a temp dir); "
                        "an existing one is reused as is (mutmut resumes)")
    parser.add_argument("--judge-only", action="store_true",
                        help="only judge the results already in --workdir")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--json", type=Path, help="write the verdict here")
    parser.add_argument("--only", nargs="+", metavar="FILE",
                        help="mutate these files (reference_impl/...py) instead of "
                        "[tool.mutmut] only_mutate; applies to a new scratch copy")
    args = parser.parse_args(argv)
    if args.only:
        check_only(args.only)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="t42-mutation-"))
    if not (workdir / "pyproject.toml").exists():
        prepare(workdir)
        if args.only:
            restrict(workdir, args.only)
    if not args.judge_only:
        print(f"mutmut in {workdir} ({args.jobs} jobs, at most {args.timeout:.0f} s)")
        start = time.perf_counter()
        finished = run_mutmut(workdir, args.jobs, args.timeout)
        print(f"mutmut {'finished' if finished else 'stopped'} after "
              f"{time.perf_counter() - start:.0f} s (log: {workdir / 'mutmut.log'})")
    status = statuses(workdir)
    sources = Sources(workdir)
    verdict = judge(sorted(status), status, sources)
    rate = report(verdict, status, sources)
    if args.json:
        survivors = {n: sources.diff(n) for n in verdict["survived"]}
        args.json.write_text(json.dumps({"rate": rate, "verdict": verdict,
                                         "survivors": survivors}, indent=2))
    if not args.keep and args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
