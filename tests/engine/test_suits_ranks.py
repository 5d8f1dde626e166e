"""Suits and who wins a trick: SUIT-01..SUIT-06, RANK-01..RANK-05."""

from reference_impl.rules import (
    TRUMP_SUIT,
    called_suit,
    follows,
    is_trump,
    suit_rank,
    trick_rank,
)
from reference_impl.tiles import TILE_INDEX

from .support import EXAMPLE, bid_and_declare, hands, play, start

T = TILE_INDEX
# B holds 3|5 and 5|6; C four plain fives and 3|4; D the other sixes and 1|4.
FIVES = hands(
    A="5|5 0|0 0|1 0|2 1|1 1|2 2|2",
    B="3|5 5|6 0|3 1|3 2|3 3|3 0|4",
    C="0|5 2|4 3|4 4|4 4|5 1|5 2|5",
    D="0|6 1|4 1|6 2|6 3|6 4|6 6|6",
)
# B holds no two but the 6|6; C one two (2|5); D the 2|2 and other twos.
TWOS = hands(
    A="1|2 0|0 0|1 0|2 1|1 0|3 0|4",
    B="6|6 3|3 3|4 3|5 4|4 4|5 5|5",
    C="2|5 0|5 0|6 1|3 1|4 1|5 1|6",
    D="2|2 2|3 2|4 2|6 3|6 4|6 5|6",
)


def legal_tiles(m):
    return [a["tile"] for a in m.legal_actions()]


def contract(deal, declarer, trump):
    return bid_and_declare(start(deal), declarer, {"points": 30}, trump)


def last_trick(m):
    return m.view()["tricks"][-1]


def test_suit_01_a_number_trump_tile_is_trump_only():
    """SUIT-01: under trump sixes 5|6 is a trump, not a five; it cannot follow fives."""
    assert is_trump(T["5|6"], 6) and not follows(T["5|6"], 5, 6)
    m = play(contract(FIVES, "A", 6), "A 5|5")
    assert legal_tiles(m) == ["3|5"]
    m = play(contract(EXAMPLE, "A", 6), "A 5|5", "B 3|5", "C 0|5")
    assert legal_tiles(m) == sorted(EXAMPLE["D"], key=T.get)  # D holds no five


def test_suit_02_under_doubles_each_double_is_trump_only():
    """SUIT-02: 5|5 is not a five under doubles; other tiles keep both suits."""
    assert is_trump(T["5|5"], "doubles") and not follows(T["5|5"], 5, "doubles")
    assert follows(T["3|5"], 3, "doubles") and follows(T["3|5"], 5, "doubles")
    m = play(contract(FIVES, "B", "doubles"), "B 3|5")
    assert legal_tiles(m) == ["0|5", "1|5", "2|5", "4|5"]  # C: plain fives, not 4|4
    play(m, "C 4|5", "D 1|4")
    assert len(legal_tiles(m)) == 7  # A holds 5|5 only: no five, any tile


def test_suit_03_under_none_every_tile_in_both_suits_doubles_in_one():
    """SUIT-03: no trump; 5|6 is a five and a six; 5|5 a five."""
    assert not any(is_trump(t, "none") for t in range(28))
    m = play(contract(FIVES, "A", "none"), "A 5|5")
    assert legal_tiles(m) == ["3|5", "5|6"]


def test_suit_04_a_trump_lead_calls_trumps_whatever_the_larger_end():
    """SUIT-04: trump threes, 3|5 led calls trumps; only trumps follow it."""
    assert called_suit(T["3|5"], 3) == TRUMP_SUIT
    m = play(contract(FIVES, "B", 3), "B 3|5")
    assert legal_tiles(m) == ["3|4"]  # C holds fives, but must play its trump
    play(m, "C 3|4")
    assert legal_tiles(m) == ["3|6"]
    play(m, "D 3|6")
    assert len(legal_tiles(m)) == 7  # A holds no three


def test_suit_05_a_plain_lead_calls_its_larger_number_a_double_its_own():
    """SUIT-05: trump sixes, 2|4 calls fours, 3|3 calls threes."""
    assert called_suit(T["2|4"], 6) == 4 and called_suit(T["3|3"], 6) == 3
    m = play(contract(FIVES, "C", 6), "C 2|4")
    assert legal_tiles(m) == ["1|4"]  # D: 4|6 is a trump, not a four
    m = play(contract(FIVES, "B", 6), "B 3|3")
    assert legal_tiles(m) == ["3|4"]


def test_suit_06_follow_means_not_trump_and_shows_the_called_number():
    """SUIT-06: fours called: 1|4 and 4|5 follow; under trump sixes 4|6 does not."""
    assert follows(T["1|4"], 4, 6) and follows(T["4|5"], 4, 6)
    assert not follows(T["4|6"], 4, 6) and not follows(T["3|5"], 4, 6)
    m = play(contract(FIVES, "C", 6), "C 2|4", "D 1|4")
    assert len(legal_tiles(m)) == 7  # A holds no four
    play(m, "A 0|0")
    assert legal_tiles(m) == ["0|4"]


def test_rank_01_the_highest_trump_wins():
    """RANK-01: 6|6 trumps the fives (worked example); 5|6 beats 0|6."""
    m = play(contract(EXAMPLE, "A", 6), "A 5|5", "B 3|5", "C 0|5", "D 6|6")
    assert last_trick(m)["winner"] == "D"
    m = play(contract(FIVES, "D", 6), "D 0|6", "A 0|0", "B 5|6", "C 0|5")
    assert last_trick(m)["winner"] == "B"


def test_rank_02_without_trumps_the_highest_of_the_called_suit_wins():
    """RANK-02: an off-suit 6|6 never wins; the highest two does."""
    m = play(contract(TWOS, "A", "none"), "A 1|2", "B 6|6", "C 2|5", "D 2|3")
    assert last_trick(m)["winner"] == "C"
    assert trick_rank(T["6|6"], 2, "none") == -1


def test_rank_03_in_a_suit_the_double_is_highest_then_the_other_number():
    """RANK-03: fives: 5|5 > 5|6 > 4|5 > ... > 0|5."""
    order = ["5|5", "5|6", "4|5", "3|5", "2|5", "1|5", "0|5"]
    ranks = [suit_rank(T[t], 5) for t in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 7
    m = play(contract(FIVES, "A", "none"), "A 5|5", "B 5|6", "C 4|5", "D 0|6")
    assert last_trick(m)["winner"] == "A"
    trump_order = [trick_rank(T[t], 0, 5) for t in order]
    assert trump_order == sorted(trump_order, reverse=True)


def test_rank_04_trump_doubles_rank_by_number():
    """RANK-04: under doubles 6|6 is the highest trump and 0|0 the lowest."""
    doubles = [T[f"{n}|{n}"] for n in range(7)]
    ranks = [trick_rank(t, TRUMP_SUIT, "doubles") for t in doubles]
    assert ranks == sorted(ranks) and len(set(ranks)) == 7
    m = play(contract(FIVES, "A", "doubles"), "A 5|5", "B 3|3", "C 4|4", "D 6|6")
    assert last_trick(m)["winner"] == "D"


def test_rank_05_under_none_the_double_of_the_called_number_is_highest():
    """RANK-05: twos called under no-trump: 2|2 beats 2|5; 2|3 does not."""
    m = play(contract(TWOS, "A", "none"), "A 1|2", "B 3|3", "C 2|5", "D 2|2")
    assert last_trick(m)["winner"] == "D"
    assert trick_rank(T["2|2"], 2, "none") > trick_rank(T["2|6"], 2, "none")
