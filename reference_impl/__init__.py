"""Texas 42 reference engine: the model every scenario is checked against (the base game
and every variant option of spec/variants.md).

    from reference_impl import Match, IllegalAction, Rules
    m = Match.start(setup)        # or Match.from_seed(seed, dealer=None)
    m.legal_actions(); m.apply(action); m.view(); m.observe("A")
"""

from .errors import IllegalAction
from .match import Match
from .rules import Rules
from .variants import OPTIONS

__version__ = "0.3.0.dev0"
# The variant options supported (spec/variants.md): every one, with every setting.
VARIANTS: tuple[str, ...] = tuple(OPTIONS)



def clear_caches() -> None:
    """Forget everything the engine derived from its rules (tables per Rules, resolved
    options, canonical action dicts), so the next match derives it again: for tools that
    change the engine's code at run time (tools/mutation.py)."""
    from . import actions, tables, variants

    tables.clear_tables()
    variants.clear_resolved()
    for cached in (actions.bid_action, actions.trump_action):
        cached.cache_clear()


__all__ = ["VARIANTS", "IllegalAction", "Match", "Rules", "__version__", "clear_caches"]
