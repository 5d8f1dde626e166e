"""Which rule the reference applied: to refuse an action, to allow one, to decide a field.

Off the hot path: nothing here runs while a match is played. The harness asks it only
when it diagnoses a failure (conformance/run/diagnosis.py), on a copy of the match at
the failing position. Each answer is one rule ID of spec/rules.md or spec/variants.md:
the most specific rule that decides the case, so that an engine author reads the rule
their engine broke (a trump that "follows" a number it shows breaks SUIT-01, not the
duty to follow of PLAY-05).

An option changes the game through the `Rules` table; where a decision is made by an
option's function instead of the base one, the answer is the rule ID that function's
docstring names first (every rule function names the rule it implements).

The modules, by the kind of decision they explain: refusals.py (an action refused),
legality.py (an action allowed), codes.py (the code an engine refuses with; a refused
setup),
special_bids.py (the plunge and the splash), fields.py (a field of the referee view
after an action), tricks.py (a trick's winner; the suits an engine played by), scores.py
(a round's end and score, the match's end); common.py holds what they all read. The
harness calls every public name as `explain.<name>`: this module re-exports them all.
"""

from __future__ import annotations

from .codes import (
    ABOUT_THE_ACTION,
    breaks_too,
    claimed_rule,
    passed_rule,
    phase_rule,
    setup_rule,
    target_rule,
    turn_rule,
    wrong_code_rule,
)
from .common import RULE_ID, choice_rule, declared, named_rule, refusal, table_rule
from .fields import (
    DECISION_ORDER,
    field_alternatives,
    field_rule,
    hand_size_rule,
    kept_rules,
    ladder_rule,
    plunge_value_rule,
    to_act_rule,
)
from .legality import (
    bid_rule,
    declaration_rule,
    legal_rule,
    marks_step_rule,
    play_rule,
    suit_rule,
)
from .refusals import (
    MISSING_FIELD,
    acceptance_alternatives,
    forced_field_alternatives,
    forced_flipped,
    forced_only_misread,
    played_forced,
    refusal_alternatives,
    refusal_rule,
)
from .scores import (
    all_or_nothing,
    end_rule,
    marks_rule,
    match_end_rule,
    points_rule,
    score_rule,
    sweep_bonus_shown,
)
from .special_bids import (
    after_other_special_bid,
    beside_rule,
    jump_alternatives,
    last_special_bid,
    plunge_by,
    raise_alternatives,
    special_step_rule,
)
from .tricks import played_as_named, played_as_other_choice, played_as_rule, winner_rule

__all__ = [
    # common.py
    "RULE_ID", "choice_rule", "declared", "named_rule", "refusal", "table_rule",
    # refusals.py
    "MISSING_FIELD", "acceptance_alternatives", "forced_field_alternatives", "forced_flipped",
    "forced_only_misread", "played_forced", "refusal_alternatives", "refusal_rule",
    # legality.py
    "bid_rule", "declaration_rule", "legal_rule", "marks_step_rule",
    "play_rule", "suit_rule",
    # codes.py
    "ABOUT_THE_ACTION", "breaks_too", "claimed_rule", "passed_rule", "phase_rule", "setup_rule",
    "target_rule", "turn_rule", "wrong_code_rule",
    # special_bids.py
    "after_other_special_bid", "beside_rule", "jump_alternatives", "last_special_bid", "plunge_by",
    "raise_alternatives", "special_step_rule",
    # fields.py
    "DECISION_ORDER", "field_alternatives", "field_rule", "hand_size_rule", "kept_rules",
    "ladder_rule",
    "plunge_value_rule", "to_act_rule",
    # tricks.py
    "played_as_named", "played_as_other_choice", "played_as_rule", "winner_rule",
    # scores.py
    "all_or_nothing", "end_rule", "marks_rule", "match_end_rule", "points_rule", "score_rule",
    "sweep_bonus_shown",
]
