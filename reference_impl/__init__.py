"""Texas 42 reference engine (base game): the model every scenario is checked against.

    from reference_impl import Match, IllegalAction, Rules
    m = Match.start(setup)        # or Match.from_seed(seed, dealer=None)
    m.legal_actions(); m.apply(action); m.view(); m.observe("A")
"""

from .errors import IllegalAction
from .match import Match
from .rules import Rules

__all__ = ["IllegalAction", "Match", "Rules"]
