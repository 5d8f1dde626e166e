"""Texas 42 reference engine (base game): the model every scenario is checked against.

    from reference_impl import Match, IllegalAction, Rules
    m = Match.start(setup)        # or Match.from_seed(seed, dealer=None)
    m.legal_actions(); m.apply(action); m.view(); m.observe("A")
"""

from .errors import IllegalAction
from .match import Match
from .rules import Rules

__version__ = "0.1.0"
VARIANTS: tuple[str, ...] = ()  # variant options supported (spec/variants.md): none yet

__all__ = ["VARIANTS", "IllegalAction", "Match", "Rules", "__version__"]
