"""The planted bugs: name, the rule each breaks, what it does, and how it is built.

Each entry breaks ONE rule the way real implementations get it wrong. `t42 selftest`
runs the corpus against every entry; each must fail at least one scenario.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from conformance.planted import doc000, edges, variant_edges
from conformance.planted import rule_swaps as swap
from conformance.planted import variant_swaps as vswap
from conformance.planted.base import OptionChanges, PlantedAdapter, with_option
from reference_impl import Rules
from reference_impl import variant_rules as vr
from reference_impl import variants as v
from reference_impl.rules import BASE_RULES


@dataclass(frozen=True)
class Bug:
    name: str
    rule: str  # the rule ID it breaks (spec/rules.md)
    description: str
    build: Callable[[str], PlantedAdapter]  # name -> a fresh in-process adapter
    level: str = "rules"  # must be caught at this level (spec/levels.yaml); strict: a convention
    # the rules the spec makes this bug break as well where they apply, and why (a
    # report that names them names a true break; `t42 selftest --full` counts them apart)
    also: tuple[str, ...] = ()
    why: str = ""

    def adapter(self) -> PlantedAdapter:
        return self.build(f"planted:{self.name}")


def rules(**changes) -> Callable[[str], PlantedAdapter]:
    """A base plant that changes entries of the base `Rules` (parameters or functions)."""
    return given_rules(swap.base_with(**changes))


def given_rules(planted: Rules) -> Callable[[str], PlantedAdapter]:
    return lambda name: PlantedAdapter(name, rules=planted)


def edge(cls: type[PlantedAdapter]) -> Callable[[str], PlantedAdapter]:
    """A plant at the adapter's edge (inputs or views)."""
    return lambda name: cls(name)


def option(name_of_option: str, changes: OptionChanges) -> Callable[[str], PlantedAdapter]:
    """A variant plant: the option `name_of_option` redefined by `changes`."""
    options = with_option(name_of_option, changes)
    return lambda name: PlantedAdapter(name, options=options)


def option_fields(name_of_option: str, **fields) -> Callable[[str], PlantedAdapter]:
    """A variant plant: the option as the reference defines it, then `fields` set."""
    return option(name_of_option, vswap.with_fields(name_of_option, **fields))


def option_settings(name_of_option: str, **settings) -> Callable[[str], PlantedAdapter]:
    """A variant plant: the option read with `settings` whatever the setup says."""
    return option(name_of_option, vswap.with_settings(name_of_option, **settings))


def option_without(name_of_option: str, *fields: str) -> Callable[[str], PlantedAdapter]:
    """A variant plant: the option without changing `fields` of the Rules."""
    return option(name_of_option, vswap.without(name_of_option, *fields))


def option_wrapping(name_of_option: str, field: str, wrapper) -> Callable[[str], PlantedAdapter]:
    """A variant plant: the option, then the table entry `field` wrapped by `wrapper`."""
    return option(name_of_option, vswap.wrapping(name_of_option, field, wrapper))


BASE_BUGS: tuple[Bug, ...] = (
    # ---- the deal and the dealer
    Bug("deal-starts-at-dealer", "DEAL-02",
        "a deal given as an order deals its first tile to the dealer",
        edge(edges.DealStartsAtDealer)),
    Bug("hand-sorted-on-deal", "DEAL-03",
        "hands are sorted when dealt instead of kept in the order received",
        edge(edges.HandSortedOnDeal)),
    Bug("dealer-kept-after-four-passes", "DEAL-05",
        "after four passes the same seat deals again",
        rules(next_dealer=swap.dealer_kept_after_passes)),
    Bug("dealer-never-rotates", "DEAL-05",
        "the first dealer deals every round",
        rules(next_dealer=swap.dealer_never_rotates)),
    # ---- bidding
    Bug("bidding-starts-at-dealer", "BID-01",
        "bidding starts with the dealer and ends with the seat right of the dealer",
        rules(bidding_order=swap.bidding_from_dealer)),
    Bug("point-bid-42-accepted", "BID-02",
        "42 is accepted as a point bid",
        rules(point_bids=range(30, 43))),
    Bug("equal-point-bid-accepted", "BID-03",
        "a point bid equal to the highest so far is accepted",
        rules(point_bid_problem=swap.equal_point_bid)),
    Bug("first-marks-bid-3", "BID-05",
        "the first marks bid may be 3 marks",
        rules(first_marks_bids=(1, 2, 3))),
    Bug("marks-step-two", "BID-06",
        "a later marks bid may be two more than the previous one",
        rules(marks_bid_problem=swap.marks_step_two)),
    Bug("point-bid-after-marks", "BID-07",
        "a higher point bid is accepted after a marks bid",
        rules(point_bid_after_marks=True)),
    Bug("dealer-forced-to-bid", "BID-09",
        "after three passes the dealer may not pass and is held to 30",
        rules(dealer_bid_problem=partial(vr.forced_bid_problem, required=("points", 30)))),
    # ---- the contract
    Bug("stacks-on-point-contract", "CON-03",
        "a point contract's declaration with stacks is accepted",
        rules(**swap.declaring_with(swap.stacks_ignored_on_points))),
    Bug("stacks-default-two", "CON-02",
        "a marks declaration without stacks is accepted as 2 stacks",
        rules(**swap.declaring_with(swap.stacks_default_two))),
    # ---- suits
    Bug("trump-follows-other-number", "SUIT-01",
        "a trump also follows its other number (5|6 follows fives under trump sixes)",
        rules(follows=swap.trump_follows_other_number)),
    Bug("double-follows-under-doubles", "SUIT-02",
        "under doubles trump a double also follows its number",
        rules(follows=swap.double_follows_under_doubles)),
    Bug("trump-lead-calls-larger-number", "SUIT-04",
        "a trump lead calls its larger number instead of trumps",
        rules(called_suit=swap.trump_lead_calls_larger_end)),
    Bug("lead-calls-smaller-number", "SUIT-05",
        "a non-trump lead calls its smaller number",
        rules(called_suit=swap.called_by_smaller_end)),
    # ---- play
    Bug("first-lead-left-of-dealer", "PLAY-01",
        "the seat left of the dealer leads the first trick, not the declarer",
        rules(first_leader=swap.leader_left_of_dealer)),
    Bug("leader-rotates", "PLAY-03",
        "the lead passes clockwise instead of to the trick's winner",
        rules(next_leader=swap.leader_rotates)),
    Bug("must-follow-not-enforced", "PLAY-05",
        "a seat may play any tile even when it can follow",
        rules(follows=swap.never_follows)),
    Bug("must-trump-when-void", "PLAY-06",
        "a seat void in the called suit must trump if it can",
        rules(duty=swap.must_trump_when_void, duty_problem=("MUST_FOLLOW", "PLAY-06"))),
    Bug("must-overtrump", "PLAY-06",
        "a seat that trumps (or follows a trump lead) must beat the highest trump if it can",
        rules(duty=swap.must_overtrump, duty_problem=("MUST_FOLLOW", "PLAY-06"))),
    # ---- ranking
    Bug("trump-not-above-suit", "RANK-01",
        "a trump ranks on the called suit's scale, so a high tile of the suit beats a low trump",
        rules(trick_rank=swap.rank_trump_not_above_suit)),
    Bug("off-suit-can-win", "RANK-02",
        "a tile that neither follows nor trumps ranks in its own suit and can win",
        rules(trick_rank=swap.rank_off_suit_in_own_suit)),
    Bug("doubles-low", "RANK-03",
        "a double is the lowest tile of its suit (and of a number trump)",
        rules(trick_rank=swap.rank_doubles_low)),
    Bug("doubles-trump-reversed", "RANK-04",
        "under doubles trump 0|0 is the highest trump and 6|6 the lowest",
        rules(trick_rank=swap.rank_doubles_trump_reversed)),
    # ---- round points
    Bug("trick-point-forgotten", "PTS-01",
        "a trick is worth its counters only, not 1 point more",
        given_rules(swap.FixedTotalRules(trick_point=0))),
    Bug("counter-4-6-worth-5", "PTS-02",
        "4|6 counts 5 instead of 10",
        given_rules(swap.counter_rules({"4|6": 5}))),
    Bug("counter-2-3-missing", "PTS-02",
        "2|3 is not a counter",
        given_rules(swap.counter_rules({"2|3": 0}))),
    # ---- outcome of the contract
    Bug("made-only-after-seven-tricks", "END-01",
        "a point contract is made only when all seven tricks are played",
        rules(outcome=swap.outcome_made_after_seven)),
    Bug("set-at-42-minus-bid", "END-02",
        "a point contract is set when the defenders reach 42 - B (>= instead of >)",
        rules(outcome=swap.outcome_set_at_remainder)),
    Bug("marks-not-set-by-blank-trick", "END-04",
        "a marks contract is set only by a defenders' trick holding a counter",
        rules(outcome=swap.outcome_marks_set_by_counters)),
    Bug("round-played-out-when-decided", "END-05",
        "the round goes on to the seventh trick after the contract is decided",
        rules(end_when_decided=False)),
    # ---- stakes and the match
    Bug("marks-stake-one", "SCORE-01",
        "a marks contract is worth 1 mark whatever its bid",
        rules(stake=swap.stake_always_one)),
    Bug("set-awards-bidders", "SCORE-02",
        "the stake of a set contract goes to the bidders",
        rules(score=swap.set_awards_bidders)),
    Bug("starting-marks-ignored", "SCORE-03",
        "the setup's starting marks are ignored",
        edge(edges.StartingMarksIgnored)),
    Bug("match-won-at-exactly-7", "MATCH-02",
        "only exactly 7 marks wins the match (8 does not)",
        rules(match_winner=swap.winner_at_exactly_target)),
    Bug("match-needs-margin-2", "MATCH-02",
        "7 or more marks win only with a lead of two",
        rules(match_winner=swap.winner_by_two)),
    # ---- what each seat may see
    Bug("partner-hand-leaked", "VIS-01",
        "an observation carries the partner's hand in an x_ field",
        edge(edges.PartnerHandLeaked)),
    Bug("own-hand-shown-sorted", "VIS-01",
        "a seat sees its own hand sorted instead of in hand order",
        edge(edges.OwnHandSorted)),
    Bug("covered-tricks-shown", "VIS-06",
        "under a marks contract every completed trick stays face up",
        edge(edges.CoveredTricksShown)),
    Bug("cover-moves-mid-trick", "VIS-07",
        "the cover moves when the next trick's first tile is played",
        edge(edges.CoverMovesMidTrick)),
    Bug("captured-in-play-order", "VIS-08",
        "a captured trick's tiles are listed in play order, not sorted",
        edge(edges.CapturedInPlayOrder)),
    Bug("captured-names-seats", "VIS-08",
        "a captured trick names the seat that played each tile",
        edge(edges.CapturedNamesSeats)),
    Bug("history-during-round", "VIS-10",
        "the action history is shown while the round is in progress",
        edge(edges.HistoryDuringRound)),
    Bug("covered-after-round", "VIS-10",
        "covered tricks stay covered after the round has ended",
        edge(edges.CoveredAfterRound)),
    # ---- actions, rejections, check order
    Bug("boolean-is-integer", "DIG-01",
        "true/false are taken as 1/0 in bids and declarations",
        edge(edges.BooleanIsInteger), level="strict"),
    Bug("seat-checked-before-phase", "DIG-03",  # both codes are DIG-02's; their order DIG-03's
        "NOT_YOUR_TURN is checked before WRONG_PHASE (errors.yaml order)",
        edge(edges.SeatCheckedBeforePhase), level="strict"),
    Bug("reject-sorts-hand", "DIG-03",
        "a rejected play leaves the seat's hand sorted",
        edge(edges.RejectSortsHand)),
    Bug("reject-advances-turn", "DIG-03",
        "a rule's rejection of the seat to act still passes the turn on",
        edge(edges.RejectAdvancesTurn)),
    # ---- options that only exist in a variant (VAR-04), played in the base game
    Bug("follow-me-without-option", "VAR-04",
        '"follow_me" is accepted as no-trump without option follow_me',
        rules(trump_aliases=(("follow_me", "none"),))),
    Bug("plunge-without-option", "VAR-04",
        "a plunge bid is accepted without option plunge",
        rules(**v.with_special_bid(BASE_RULES, v.plunge_bid(4, 4), v.PLUNGE))),
)

# Variant plants: each declares every option and breaks one rule of spec/variants.md.
VARIANT_BUGS: tuple[Bug, ...] = (
    # ---- the options themselves
    Bug("option-false-is-off", "VAR-01",
        "an option given as false is taken as off instead of rejected",
        edge(variant_edges.OptionFalseIsOff)),
    Bug("variants-on-deal-ignored", "VAR-02",
        "a deal carrying variants is accepted",
        edge(variant_edges.VariantsOnDealIgnored)),
    Bug("nello-and-plunge-refused-together", "VAR-03",
        "a setup with both nello and plunge is refused",
        edge(variant_edges.OptionsRefusedTogether)),
    # ---- match_points
    Bug("mpts-target-setting-ignored", "MPTS-01",
        "the target setting is ignored: every match is to 250",
        option_settings("match_points", target=250)),
    Bug("mpts-starting-score-capped", "MPTS-02",
        "starting scores are held to 0..6 as marks are, not 0..target - 1",
        option_fields("match_points", marks_range=range(0, 7))),
    Bug("mpts-mark-worth-one-point", "MPTS-03",
        "a marks bid of n is worth n points, not 42 n",
        option_fields("match_points", stake=vswap.stake_is_bid_number)),
    Bug("mpts-made-defenders-get-nothing", "MPTS-04",
        "a made point contract adds nothing to the defenders' score",
        option_fields("match_points", score=vswap.score_made_points_to_bidders_only)),
    Bug("mpts-made-marks-adds-round-points", "MPTS-05",
        "on a made marks contract the defenders add their round points too",
        option_fields("match_points", score=vswap.score_made_marks_with_round_points)),
    Bug("mpts-set-without-round-points", "MPTS-06",
        "a set contract gives the defenders the bid's value without their round points",
        option_fields("match_points", score=vswap.score_set_without_round_points)),
    Bug("mpts-target-must-be-passed", "MPTS-08",
        "a team must pass the target score, reaching it is not enough",
        option_fields("match_points", match_winner=vswap.winner_above_target)),
    Bug("mpts-play-out-ignored", "MPTS-09",
        'with end "play_out" the round still ends when the contract is decided',
        option_fields("match_points", end_when_decided=True)),
    # ---- deal_by_drawing
    Bug("draw-one-tile-at-a-time", "DRAW-02",
        "an order is dealt one tile at a time (DEAL-02) instead of drawn seven at a time",
        option("deal_by_drawing", vswap.DEALT_ONE_AT_A_TIME)),
    Bug("draw-clockwise", "DRAW-02",
        "hands are drawn clockwise from the dealer's left, the partner second",
        option_fields("deal_by_drawing", deal_order=vswap.drawn_clockwise)),
    Bug("draw-lowest-deals", "DRAW-03",
        "the lowest draw deals first",
        edge(variant_edges.LowestDrawDeals)),
    Bug("draw-tied-last-round-accepted", "DRAW-04",
        "draws whose last round is still tied are accepted; the first tied seat deals",
        edge(variant_edges.TiedLastDrawAccepted)),
    # ---- forced_bid
    Bug("forced-dealer-may-pass", "FORCE-02",
        "the dealer may pass after three passes",
        option_wrapping("forced_bid", "dealer_bid_problem", vswap.dealer_passes)),
    Bug("forced-minimum-not-enforced", "FORCE-03",
        'with bid "minimum" the forced dealer may bid anything',
        option("forced_bid", vswap.read_as("forced_bid", "bid", "minimum", "any"))),
    Bug("forced-any-held-to-30", "FORCE-03",
        'with bid "any" the forced dealer is still held to 30',
        option("forced_bid", vswap.read_as("forced_bid", "bid", "any", "minimum"))),
    Bug("forced-every-contract", "FORCE-05",
        "every contract counts as the dealer's forced bid",
        option_wrapping("forced_bid", "won_contract", vswap.every_contract_forced),
        also=('FORCE-06', 'FORCE-08'),
        why=('FORCE-05 decides which contracts FORCE-06 to FORCE-08 apply to: a contract wrongly '
             'recorded forced or not breaks them where they apply')),
    Bug("forced-never-recorded", "FORCE-05",
        "no contract is ever recorded as forced",
        option_without("forced_bid", "won_contract"),
        also=('FORCE-06', 'FORCE-08'),
        why=('FORCE-05 decides which contracts FORCE-06 to FORCE-08 apply to: a contract wrongly '
             'recorded forced or not breaks them where they apply')),
    Bug("forced-only-ignored", "FORCE-06",
        'with nello_sevens "forced_only" Nel-O and Sevens may be declared on any contract',
        option_settings("forced_bid", nello_sevens="any_contract")),
    Bug("forced-only-nello-only", "FORCE-06",
        'nello_sevens "forced_only" restricts Nel-O but not Sevens',
        option("forced_bid", vswap.forced_only_for(("nello",)))),
    Bug("forced-only-always", "FORCE-06",
        'Nel-O and Sevens need a forced contract even with nello_sevens "any_contract"',
        option_settings("forced_bid", nello_sevens="forced_only")),
    Bug("forced-only-before-trump-choice", "FORCE-06",
        '"nello" without the option nello is TRUMP_NOT_ALLOWED under forced_only',
        option("forced_bid", vswap.forced_only_before_choice), level="codes"),
    Bug("forced-dropped-on-declaration", "FORCE-05",
        "the declared contract forgets that it was forced",
        option_wrapping("forced_bid", "declared", vswap.forced_dropped_on_declaration),
        also=('FORCE-06', 'FORCE-08'),
        why=('FORCE-05 decides which contracts FORCE-06 to FORCE-08 apply to: a contract wrongly '
             'recorded forced or not breaks them where they apply')),
    Bug("sweep-bonus-ignored", "FORCE-07",
        "a swept forced 30 scores 1 mark whatever sweep_marks says",
        option_settings("forced_bid", sweep_marks=1),
        also=('FORCE-08',),
        why=('sweep_marks: 2 is read by FORCE-07 (the bonus) and by FORCE-08 (no end at 30 while '
             'the bidders may sweep): ignoring it breaks both')),
    Bug("sweep-bonus-any-forced-points", "FORCE-07",
        "the sweep bonus (and the play past the bid) for any forced point bid, not only 30",
        option("forced_bid", vswap.sweep_for_any_forced_points),
        also=('FORCE-08',),
        why=('it also plays past any forced point bid (its description), which FORCE-08 allows '
             'only for a forced 30')),
    Bug("sweep-bonus-when-made", "FORCE-07",
        "a forced 30 made scores the bonus without all seven tricks",
        option_wrapping("forced_bid", "score", vswap.sweep_bonus_when("made"))),
    Bug("sweep-bonus-when-set", "FORCE-07",
        "a set forced 30 gives the defenders the 2 marks of the bonus",
        option_wrapping("forced_bid", "score", vswap.sweep_bonus_when("set"))),
    Bug("sweep-ends-at-30", "FORCE-08",
        "a forced 30 still ends at 30 round points, so it can never sweep",
        option_without("forced_bid", "outcome")),
    Bug("sweep-under-match-points", "FORCE-09",
        "sweep_marks is read under match_points too",
        option("forced_bid", vswap.sweep_under_points),
        also=('FORCE-08', 'MPTS-04'),
        why=('FORCE-09 says sweep_marks is not read under match_points; reading it plays past 30 '
             '(FORCE-08) and changes what MPTS-04 scores')),
    # ---- bid_42
    Bug("bid-42-out-of-range", "FORTYTWO-02",
        "a point bid of 42 is rejected with option bid_42",
        option_fields("bid_42", point_bids=range(30, 42))),
    Bug("bid-42-below-one-mark", "FORTYTWO-03",
        "a bid of 1 mark is accepted after a bid of 42",
        option_wrapping("bid_42", "marks_bid_problem", vswap.one_mark_after_forty_two)),
    Bug("bid-42-is-one-mark", "FORTYTWO-04",
        "a contract of 42 is played as a 1-mark contract (stacks, set by any trick)",
        option_wrapping("bid_42", "won_contract", vswap.forty_two_is_one_mark)),
    Bug("bid-42-marks-reading-ignored", "FORTYTWO-05",
        "with contract marks a won 42 is still a point contract (no stacks, face up)",
        option_settings("bid_42", contract="points")),
    # ---- undeclared_trump
    Bug("first-tile-stacks-default-two", "UNDECL-02",
        '"first_tile" on a marks contract is accepted without stacks',
        option("undeclared_trump", vswap.stacks_read_by(vswap.first_tile_stacks))),
    Bug("first-tile-end-flipped", "UNDECL-03",
        "the first tile sets the other end than its `end` setting says",
        option("undeclared_trump", vswap.flipped("undeclared_trump", "end", ("high", "low")))),
    Bug("first-tile-double-flipped", "UNDECL-03",
        "a first double does the other thing than its `double` setting says",
        option("undeclared_trump",
               vswap.flipped("undeclared_trump", "double", ("number", "doubles")))),
    Bug("first-tile-trump-shown-null", "UNDECL-04",
        'before the first play contract.trump is null instead of "first_tile"',
        edge(variant_edges.FirstTileTrumpShownNull)),
    # ---- follow_me
    Bug("follow-me-rejected", "FOLLOWME-02",
        '"follow_me" is rejected with option follow_me',
        option_fields("follow_me", trump_aliases=())),
    Bug("follow-me-recorded-as-declared", "FOLLOWME-02",
        '"follow_me" is recorded as declared, not as "none"',
        edge(variant_edges.FollowMeRecordedAsDeclared)),
    Bug("follow-me-listed-twice", "FOLLOWME-02",
        'the legal actions list "follow_me" besides "none"',
        edge(variant_edges.FollowMeListedTwice)),
    Bug("follow-me-min-marks-ignored", "FOLLOWME-03",
        "with min_marks 1 no-trump may still be declared on a point contract",
        option_settings("follow_me", min_marks=0)),
    Bug("follow-me-min-marks-alias-only", "FOLLOWME-03",
        'with min_marks 1 only the name "follow_me" is refused on a point contract, not "none"',
        option("follow_me", vswap.follow_me_alias_only)),
    # ---- nello
    Bug("nello-min-marks-ignored", "NELLO-02",
        "Nel-O may be declared on 1 mark whatever min_marks says",
        option("nello", vswap.min_marks_one_for_marks)),
    Bug("nello-partner-plays", "NELLO-03",
        "the declarer's partner plays in a Nel-O, four tiles a trick",
        option("nello", vswap.nello_partner_plays)),
    Bug("nello-declarer-always-leads", "NELLO-05",
        "in a Nel-O the declarer leads every trick",
        option_wrapping("nello", "next_leader", vswap.declarer_always_leads)),
    Bug("nello-doubles-always-high", "NELLO-06",
        'the fixed doubles settings of NELLO-06 are ignored: doubles are always high',
        option("nello", vswap.fixed_doubles_read_as("nello", "high", "low", "own_suit"))),
    Bug("nello-played-to-the-end", "NELLO-07",
        "a Nel-O is decided only after seven tricks, not at the declarer's first trick",
        option_wrapping("nello", "outcome", vswap.NELLO_DECIDED_LATE)),
    Bug("nello-partner-hand-shown-empty", "NELLO-09",
        "the sitting-out partner's hand size shows 0",
        edge(variant_edges.PartnerHandShownEmpty)),
    Bug("nello-on-plunge", "PLUNGE-05",
        "the plunger's partner may declare Nel-O",
        option("nello", vswap.nello_on_plunge)),
    Bug("nello-point-contract-refused", "NELLO-11",
        "with min_marks 0 Nel-O is still refused on a point contract",
        option("nello", vswap.point_nello_refused)),
    Bug("nello-point-scored-as-points", "NELLO-11",
        "under match_points a Nel-O made on a point bid adds each team its round points",
        option_without("nello", "score")),
    Bug("nello-on-plunge-still-refused", "NELLO-12",
        'with on_plunge "allowed" the plunge partner still may not declare Nel-O',
        option_settings("nello", on_plunge="refused")),
    Bug("nello-on-plunge-plunger-sits-out", "NELLO-12",
        "in a Nel-O called on a plunge the plunger sits out and the declaring partner leads",
        option("nello", vswap.nello_plunger_sits_out)),
    Bug("nello-named-doubles-ignored", "NELLO-13",
        'with doubles "declared" a Nel-O plays its doubles high whatever it names',
        option("nello", vswap.named_doubles_played_as("nello", "nello", "high", "NELLO-13"))),
    Bug("nello-named-doubles-optional", "NELLO-13",
        'with doubles "declared" a Nel-O may be declared without naming its doubles',
        option_fields("nello", treatment_problem=vswap.doubles_optional)),
    Bug("doubles-named-on-any-choice", "NELLO-13",
        "a doubles field on a number trump is accepted and ignored",
        edge(variant_edges.DoublesNamedOnAnyChoice), level="strict"),
    Bug("nello-bid-min-marks-ignored", "NELLO-14",
        'with announce "bid" any point or marks bid may announce Nel-O',
        option_fields("nello", announce_problem=partial(vr.nello_bid_problem, min_marks=0))),
    Bug("nello-bid-forced-only-ignored", "NELLO-14",
        "with forced_only any seat may announce Nel-O, not only the forced dealer",
        option_fields("forced_bid", forced_only_choices=())),
    Bug("nello-announcement-lapses", "NELLO-15",
        "the winner of a Nel-O bid may declare any choice, and Nel-O needs no announcement",
        option("nello", vswap.nello_announcement_lapses)),
    # ---- sevens
    Bug("sevens-on-point-contract", "SEVENS-02",
        "Sevens may be declared on a point contract",
        option("sevens", vswap.sevens_on_point_contract)),
    Bug("sevens-min-marks-ignored", "SEVENS-07",
        "with min_marks 2 Sevens may still be declared on 1 mark",
        option_settings("sevens", min_marks=1)),
    Bug("sevens-signed-distance", "SEVENS-03",
        "the distance is a + b - 7 without the absolute value (low tiles win)",
        option("sevens", vswap.sevens_signed_distance)),
    Bug("sevens-duty-ignored", "SEVENS-04",
        'with duty "closest" any tile may be played',
        option_without("sevens", "duty", "duty_problem")),
    Bug("sevens-leader-free", "SEVENS-04",
        'with duty "closest" the leader may lead any tile',
        option_wrapping("sevens", "duty", vswap.leader_free)),
    Bug("sevens-ties-to-first-played", "SEVENS-05",
        'with ties "bidders" a tie still goes to the tile played first',
        option_without("sevens", "trick_winner")),
    Bug("sevens-played-to-the-end", "SEVENS-06",
        "a Sevens contract is decided only after seven tricks",
        option_wrapping("sevens", "outcome", vswap.SEVENS_DECIDED_LATE)),
    # ---- plunge
    Bug("plunge-three-doubles", "PLUNGE-02",
        "a hand of three doubles may plunge",
        option("plunge", vswap.special_entry("plunge", v.PLUNGE, doubles=3))),
    Bug("plunge-after-bid", "PLUNGE-02",
        "a plunge is accepted after a bid",
        option_wrapping("plunge", "special_bid_problem", vswap.special_bid_after_bid)),
    Bug("plunge-bids-five-marks", "PLUNGE-03",
        "a plunge is a bid of 5 marks",
        option("plunge", vswap.special_entry("plunge", v.PLUNGE, marks=5))),
    Bug("plunger-declares", "PLUNGE-04",
        "the plunger, not the partner, declares and leads",
        option_wrapping("plunge", "won_contract", partial(vswap.plunger_declares,
                                                          kind=v.PLUNGE))),
    Bug("plunge-any-time-ignored", "PLUNGE-07",
        'with when "any_time" a plunge is still refused after a bid',
        option_settings("plunge", when="before_bids")),
    Bug("plunge-terms-jump-dropped", "PLUNGE-08",
        'with plunge_terms the plunge of when "any_time" no longer jumps',
        option("plunge_terms", vswap.special_entry("plunge_terms", v.PLUNGE, jumps=False))),
    # ---- nello, doubles own_suit_reversed
    Bug("nello-reversed-as-own-suit", "NELLO-10",
        'doubles "own_suit_reversed" rank as "own_suit" (6|6 highest)',
        option("nello", vswap.nello_reversed_read_as_own_suit)),
    # ---- no_trump
    Bug("no-trump-doubles-high", "NOTRUMP-02",
        'a no-trump double still ranks highest of its number suit (doubles "low" ignored)',
        option("no_trump", vswap.no_trump_low_ranked_high)),
    Bug("no-trump-own-suit-as-low", "NOTRUMP-03",
        'doubles "own_suit" play as "low": a led double calls its number',
        option("no_trump", vswap.fixed_doubles_read_as("no_trump", "low", "own_suit"))),
    Bug("no-trump-every-contract", "NOTRUMP-04",
        "the no-trump doubles apply to every contract, number trumps included",
        option("no_trump", vswap.no_trump_every_contract)),
    Bug("no-trump-named-doubles-ignored", "NOTRUMP-05",
        'with doubles "declared" a no-trump plays its doubles low whatever it names',
        option("no_trump", vswap.named_doubles_played_as("none", "no_trump", "low",
                                                         "NOTRUMP-05"))),
    # ---- match_marks
    Bug("match-marks-target-ignored", "TARGET-02",
        "the match is still won at 7 marks whatever the target",
        option("match_marks", vswap.match_marks_target_ignored)),
    Bug("match-marks-starting-marks-to-6", "TARGET-02",
        "starting marks are still limited to 0..6",
        option_fields("match_marks", marks_range=range(0, 7))),
    Bug("match-marks-over-points", "TARGET-03",
        "the marks target replaces the points target of match_points",
        option("match_marks", vswap.match_marks_over_points)),
    # ---- plunge_terms
    Bug("plunge-terms-doubles-ignored", "PTERMS-02",
        "a plunge still needs four doubles whatever `doubles` says",
        option("plunge_terms", vswap.special_entry("plunge_terms", v.PLUNGE, doubles=4))),
    Bug("plunge-terms-marks-ignored", "PTERMS-05",
        "a plunge still bids 4 marks whatever `marks` says",
        option("plunge_terms", vswap.special_entry("plunge_terms", v.PLUNGE, marks=4))),
    Bug("plunge-terms-partner-leads", "PTERMS-03",
        'with leader "plunger" the partner still leads',
        option_without("plunge_terms", "first_leader")),
    Bug("plunge-terms-plunger-always-leads", "PTERMS-03",
        'the plunger leads even with leader "partner"',
        option_settings("plunge_terms", leader="plunger")),
    Bug("plunge-terms-nello-on-plunge", "PTERMS-04",
        "the partner of a plunge_terms plunge may declare Nel-O",
        option_wrapping("plunge_terms", "declaration_problem", vswap.declared_as_if_no_plunge)),
    Bug("plunge-terms-points-168", "PTERMS-04",
        "under match_points a plunge is worth 168 points whatever its `marks`",
        option_wrapping("plunge_terms", "stake", vswap.plunge_worth_168)),
    # ---- plunge_terms, announce "declaration"
    Bug("declared-plunge-bid-kept", "PTERMS-06",
        'with announce "declaration" the plunge bid is still accepted',
        option("plunge_terms", vswap.declared_plunge_keeps_bid)),
    Bug("declared-plunge-on-any-contract", "PTERMS-07",
        "the plunge may be declared on a point contract",
        option("plunge_terms", vswap.declared_with(check=vswap.plunge_on_any_contract))),
    Bug("declared-plunge-doubles-unchecked", "PTERMS-07",
        "the declared plunge never counts the declarer's doubles",
        option("plunge_terms", vswap.declared_with(check=vswap.plunge_doubles_unchecked))),
    Bug("declared-plunge-exact-marks", "PTERMS-07",
        "the plunge may be declared only on a contract of exactly `marks` marks",
        option("plunge_terms", vswap.declared_with(check=vswap.plunge_exact_marks))),
    Bug("declared-plunge-takes-stacks", "PTERMS-07",
        "the plunge declaration accepts (and drops) a `stacks` field",
        option("plunge_terms", vswap.declared_with(check=vswap.plunge_takes_stacks))),
    Bug("declared-plunge-plunger-keeps-declaring", "PTERMS-08",
        "after the plunge declaration the plunger, not the partner, declares trump",
        option("plunge_terms", vswap.declared_with(record=vswap.plunge_kept_by_plunger))),
    Bug("declared-plunge-not-a-plunge", "PTERMS-08",
        "the declared plunge hands trump to the partner but is not played as a plunge",
        option("plunge_terms", vswap.declared_with(record=vswap.plunge_declared_not_a_plunge)),
        also=("PTERMS-07",),
        why=("a contract not recorded as a plunge lets the partner declare the plunge again, "
             "which PTERMS-07 refuses on a plunge")),
    Bug("declared-plunge-played-for-setting", "PTERMS-08",
        "a declared plunge is played for the setting's `marks`, not the marks bid",
        option("plunge_terms", vswap.declared_with(record=vswap.plunge_played_for_marks))),
    Bug("declared-plunge-no-nello-for-declarer", "PTERMS-09",
        "the declarer of a contract that may carry a declared plunge may not declare Nel-O",
        option("plunge_terms", vswap.declared_with(check=vswap.no_nello_where_plunge_may_be))),
    Bug("forced-31-allows-30", "FORCE-10",
        'with bid "at_least_31" the forced dealer may still bid 30',
        option("forced_bid", vswap.read_as("forced_bid", "bid", "at_least_31", "any"))),
    # ---- first_bidder
    Bug("first-bidder-ignored", "FIRST-02",
        "the seat left of the dealer still bids first, whoever holds 0|1",
        option_without("first_bidder", "last_bidder")),
    Bug("forced-dealer-not-last-bidder", "FIRST-04",
        "with forced_bid the dealer, not the last bidder, may not pass before any bid",
        edge(variant_edges.DealerForcedNotLastBidder)),
    Bug("holder-of-0-1-bids-last", "FIRST-02",
        "the holder of 0|1 bids last instead of first",
        option("first_bidder", vswap.holder_bids_last)),
    # ---- match_points ladder and high_bids
    Bug("points-ladder-linear", "MPTS-10",
        'with ladder "doubling" a mark is still worth 42 points',
        option_settings("match_points", ladder="linear")),
    Bug("all-or-nothing-ignored", "MPTS-11",
        'with high_bids "all_or_nothing" a set contract of 42 or more adds the round points',
        option_settings("match_points", high_bids="with_points")),
    # ---- marks_raise
    Bug("marks-raise-ignored", "RAISE-02",
        "a marks bid still rises by exactly one mark",
        option_without("marks_raise", "marks_raises")),
    Bug("marks-raise-any-higher", "RAISE-02",
        "a marks bid may raise the last by any number of marks",
        option("marks_raise", vswap.any_marks_raise)),
    Bug("marks-raise-not-for-special-bids", "RAISE-03",
        "a special bid is held to the one-mark step, whatever the raise",
        option_wrapping("marks_raise", "special_bid_problem", vswap.special_bid_one_step),
        level="codes"),  # a refused plunge either way: only the code tells (RAISE-03)
    # ---- plunge_terms double_six and raise
    Bug("plunge-six-six-ignored", "PTERMS-10",
        'with double_six "required" a plunge still needs only the count of doubles',
        option_settings("plunge_terms", double_six="optional")),
    Bug("plunge-bid-six-six-unchecked", "PTERMS-10",
        "a plunge bid is not checked for 6|6 (a declared plunge still is)",
        option("plunge_terms", vswap.special_entry("plunge_terms", v.PLUNGE, needs=0))),
    Bug("declared-plunge-not-raised", "PTERMS-11",
        "with raise 1 a declared plunge keeps the marks bid",
        option_settings("plunge_terms", **{"raise": 0})),
    # ---- splash
    Bug("splash-doubles-unchecked", "SPLASH-02",
        "a splash never counts the doubles of the hand",
        option("splash", vswap.special_entry("splash", "splash", doubles=0))),
    Bug("splash-after-bid", "SPLASH-02",
        "a splash is accepted after a bid",
        option_wrapping("splash", "special_bid_problem",
                        partial(vswap.special_bid_after_bid, only="splash"))),
    Bug("splash-bids-four-marks", "SPLASH-03",
        "a splash bids 4 marks, as a plunge, whatever `marks` says",
        option("splash", vswap.special_entry("splash", "splash", marks=4))),
    Bug("splash-marks-fixed", "SPLASH-06",
        'with marks "bid" the splash is a fixed bid of 3 marks',
        option("splash", vswap.splash_marks_fixed)),
    Bug("splash-carries-any-marks", "SPLASH-06",
        "a splash that carries its marks may carry any number",
        option("splash", vswap.splash_carries_any_marks)),
    Bug("splash-any-time-ignored", "SPLASH-07",
        'with when "any_time" a splash is still refused after a bid',
        option_settings("splash", when="before_bids")),
    Bug("splash-splasher-declares", "SPLASH-04",
        "the splasher, not the partner, declares and leads",
        option_wrapping("splash", "won_contract", partial(vswap.plunger_declares,
                                                          kind="splash"))),
    Bug("splash-not-a-plunge", "SPLASH-04",
        "the partner declares a splash, but it is not played as a plunge (Nel-O allowed)",
        option_wrapping("splash", "won_contract", vswap.splash_not_a_plunge)),
    Bug("splash-replaces-plunge", "SPLASH-05",
        "with splash in force the plunge bid is gone",
        option("splash", vswap.splash_replaces_plunge)),
    Bug("plunge-over-splash", "SPLASH-05",
        "a plunge is accepted after a splash, as if it outranked it",
        option("splash", vswap.plunge_over_splash),
        also=("PLUNGE-02",),
        why=("it tells a splash from a marks bid by its marks only (the table's check is not "
             "told which bid was made), so it takes a plunge after an ordinary bid of the "
             "splash's marks too, which PLUNGE-02 refuses")),
)

BASE_BUGS += tuple(Bug(n, r, d, edge(cls), also=doc000.ALSO.get(n, ((), ""))[0],
                       why=doc000.ALSO.get(n, ((), ""))[1]) for n, r, d, cls in doc000.PLANTS)
VARIANT_BUGS += tuple(Bug(n, r, d, edge(cls)) for n, r, d, cls in doc000.VARIANT_PLANTS)
BUGS: tuple[Bug, ...] = BASE_BUGS + VARIANT_BUGS

BY_NAME: dict[str, Bug] = {bug.name: bug for bug in BUGS}
