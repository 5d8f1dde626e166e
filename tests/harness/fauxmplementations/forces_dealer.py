"""An engine whose own game forces the dealer (as many real engines do): its four passes
never end a round, since the dealer's pass only says "you must bid now", and it refuses
`next_deal` before a round is over. A correct adapter of that engine: no protocol or form
mistake, whatever its rules. `--no-legal` leaves out the capability legal (the doctor
then reads only the view); `--refuses` refuses the dealer's pass outright, as the
reference's `forced_bid` does."""

import sys

from _faux import Faux, serve_faux

from conformance import Rejected
from reference_impl.tiles import SEATS


class ForcesDealer(Faux):
    capabilities = frozenset({"legal", "self_deal"})
    told = False  # the dealer's one pass has been taken as "you must bid"

    def new_match(self):
        self.told = False
        self.start({"dealer": self.rng.choice(SEATS), "order": self.shuffled(),
                    "variants": {"forced_bid": {}}})

    def _dealer_may_pass(self) -> bool:
        view = self.view()
        return not self.told and view["phase"] == "bidding" and \
            view["to_act"] == view["dealer"] and len(view["bids"]) == 3 and \
            all(bid["type"] == "pass" for bid in view["bids"])

    def act(self, action):
        if action == {"type": "pass", "seat": self.view()["to_act"]} and \
                self._dealer_may_pass() and "--refuses" not in sys.argv:
            self.told = True  # accepted; the dealer is still to act, and must bid
            return None
        return super().act(action)

    def legal(self):
        dealer_pass = [{"type": "pass", "seat": self.view()["to_act"]}]
        told = self._dealer_may_pass() and "--refuses" not in sys.argv
        return super().legal() + (dealer_pass if told else [])

    def next_deal(self):
        if self.view()["phase"] != "round_over":
            raise Rejected("WRONG_PHASE", "the round is not over: the dealer must bid")
        return super().next_deal()


faux = ForcesDealer()
if "--no-legal" in sys.argv:
    faux.capabilities = frozenset({"self_deal"})
serve_faux(faux)
