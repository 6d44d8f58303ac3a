"""Every worked example of the original rule texts (the seeds, tagged below) and of
docs/rules.md, driven through the public rules API with decks built to produce the example's
situation.

Seed tags: [000] Tvåmanswhist & relatives (sv), [001] Classic Whist (cs), [002] Minnesota
Whist Club (sv), [003] Tomannswhist (no), [004] Fyrmanswhist (sv).

How the decks are built (so that scripted play gives exact trick counts):

* four players: twelve "quartet" tricks in which all four seats follow suit and the seat
  holding the quartet's top card wins, then a last trick of four leftover cards of four
  different suits that the leader (holding the trump leftover, if any) wins;
* German Whist / Plockwhist: the non-dealer wins all thirteen stage-1 tricks, so it draws
  the even stock cards and the dealer the odd ones; the stock is made of same-suit pairs,
  one card of each pair in each stage-2 hand, so every stage-2 trick goes to whoever holds
  the higher card of the pair played;
* Japanese Whist: 24 same-suit pairs (face-up cards first, then hand, then the face-down
  cards once turned up) and two last tricks of leftover aces the non-dealer always wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from helpers import stock_of
from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Play, Resign, Take
from whist.core.cards import card_text, cards_in, parse_card
from whist.core.errors import WhistError
from whist.core.match import Match
from whist.core.views import view_for
from whist.variants import new_match

S, H, D, C = range(4)
Trick = dict[int, int]  # seat -> card


# --------------------------------------------------------------------------- helpers
def card(suit: int, rank: int) -> int:
    return suit * 13 + rank - 2


def cd(text: str) -> int:
    return parse_card(text)


def apply_all(m: Match, actions: Iterable[Action]) -> None:
    for action in actions:
        m.apply(action)


def play_tricks(m: Match, tricks: Sequence[Trick]) -> None:
    """Play each trick from whoever leads it, every seat playing its card of the trick."""
    for trick in tricks:
        leader = m.next_seat()
        assert leader is not None
        for k in range(m.players):
            seat = (leader + k) % m.players
            m.apply(Play(seat, trick[seat]))


def fill_hands(
    players: int,
    fixed: dict[int, list[int]],
    void: dict[int, set[int]] | None = None,
    reserved: Iterable[int] = (),
) -> dict[int, list[int]]:
    """Hands of 13 cards: the ``fixed`` cards first, the rest of the deck handed out in
    order to seats that still need cards and are not ``void`` in its suit (two players:
    the 26 cards left over form the stock)."""
    size = 13
    void = void or {}
    hands = {s: list(fixed.get(s, [])) for s in range(players)}
    used = {c for h in hands.values() for c in h} | set(reserved)
    for c in range(52):
        if c in used:
            continue
        for s in range(players):
            if len(hands[s]) < size and c // 13 not in void.get(s, set()):
                hands[s].append(c)
                used.add(c)
                break
    return hands


def deck_four(hands: dict[int, list[int]], dealer: int, last: int | None = None) -> list[int]:
    """Deck for a four-player deal: card i goes to seat (dealer + 1 + i) mod 4. ``last``:
    the dealer's card that must be card 51 (Classic's turned trump card)."""
    deck = [-1] * 52
    for seat, hand in hands.items():
        hand = list(hand)
        assert len(hand) == 13
        if seat == dealer and last is not None:
            hand.remove(last)
            hand.append(last)
        positions = [i for i in range(52) if (dealer + 1 + i) % 4 == seat]
        for pos, c in zip(positions, hand, strict=True):
            deck[pos] = c
    assert sorted(deck) == list(range(52))
    return deck


def deck_two(first: dict[int, list[int]], stock: Sequence[int], dealer: int) -> list[int]:
    """Deck for German Whist / Plockwhist: card i < 26 goes to seat (dealer + 1 + i) mod 2,
    cards 26..51 are the stock in order."""
    deck = [-1] * 26
    for seat, hand in first.items():
        assert len(hand) == 13
        positions = [i for i in range(26) if (dealer + 1 + i) % 2 == seat]
        for pos, c in zip(positions, hand, strict=True):
            deck[pos] = c
    deck += list(stock)
    assert sorted(deck) == list(range(52)), "not a deck"
    return deck


def winners_for(n: int, a: int, b: int) -> list[int]:
    """Winners of tricks 1..12 of ``four_plan`` so that seat a's team takes exactly n of
    13 tricks (trick 13 goes to the winner of trick 12)."""
    if n <= 11:
        return [a] * n + [b] * (12 - n)
    if n == 12:
        return [b] + [a] * 11
    return [a] * 12


def four_plan(
    winners: Sequence[int], trump: int | None = None, first: Sequence[Trick] = ()
) -> tuple[dict[int, list[int]], list[Trick]]:
    """Hands and the 13 tricks of a four-player deal: trick t (t < 12) is a same-suit
    quartet won by ``winners[t]``; trick 13 holds four leftovers of different suits and goes
    to its leader, ``winners[11]``, who keeps the trump-suit leftover. ``first``: explicit
    same-suit tricks to play first (their winners follow from their cards)."""
    assert len(winners) == 12
    used = {c for t in first for c in t.values()}
    tricks: list[Trick] = [dict(t) for t in first]
    leftovers: dict[int, int] = {}
    quartets: list[list[int]] = []
    for suit in range(4):
        rest = [card(suit, r) for r in range(2, 15) if card(suit, r) not in used]
        leftovers[suit] = rest.pop()
        quartets += [rest[i : i + 4] for i in range(0, len(rest), 4)]
    assert len(tricks) + len(quartets) == 12
    for quartet, winner in zip(quartets, winners[len(first) :], strict=True):
        others = [s for s in range(4) if s != winner]
        trick = {winner: quartet[3]}
        trick.update(zip(others, quartet[:3], strict=True))
        tricks.append(trick)
    top = S if trump is None else trump
    suits = [top] + [s for s in range(4) if s != top]
    last = winners[11]
    seats = [last] + [s for s in range(4) if s != last]
    tricks.append({seat: leftovers[suit] for seat, suit in zip(seats, suits, strict=True)})
    hands = {s: [t[s] for t in tricks] for s in range(4)}
    return hands, tricks


def a_card(hand: Iterable[int], suits: set[int]) -> int:
    return next(c for c in hand if c // 13 in suits)


def german_plan(
    stage2: Sequence[int], dealer: int = 0
) -> tuple[list[int], list[Trick], list[Trick]]:
    """Deck, stage-1 tricks and stage-2 tricks of a German Whist deal (hearts trump).

    The non-dealer wins all 13 stage-1 tricks: it leads 2S and 2H while the dealer, void in
    both, throws 2D and 2C, then it wins eleven diamond/club pairs. It draws the even stock
    cards, the dealer the odd ones. The stock is thirteen same-suit pairs (spades, hearts,
    KC/AC); stage-2 trick t goes to ``stage2[t]``, who holds the higher card of that pair.
    """
    assert len(stage2) == 13
    nd, dl = 1 - dealer, dealer
    stage1: list[Trick] = [{nd: cd("2S"), dl: cd("2D")}, {nd: cd("2H"), dl: cd("2C")}]
    for suit, top in ((D, 14), (C, 12)):
        ranks = list(range(3, top + 1))
        for lo, hi in zip(ranks[::2], ranks[1::2], strict=True):
            stage1.append({nd: card(suit, hi), dl: card(suit, lo)})
    pairs: list[tuple[int, int]] = []
    for suit, low in ((S, 3), (H, 3), (C, 13)):
        ranks = list(range(low, 15))
        pairs += [
            (card(suit, lo), card(suit, hi)) for lo, hi in zip(ranks[::2], ranks[1::2], strict=True)
        ]
    assert len(stage1) == 13 and len(pairs) == 13
    tricks2 = [{w: hi, 1 - w: lo} for (lo, hi), w in zip(pairs, stage2, strict=True)]
    nd_stock = sorted((t[nd] for t in tricks2), key=lambda c: c // 13 != H)  # a heart on top
    dl_stock = sorted((t[dl] for t in tricks2), key=lambda c: c // 13 != S)  # no heart next
    stock = [c for pair in zip(nd_stock, dl_stock, strict=True) for c in pair]
    deck = deck_two({nd: [t[nd] for t in stage1], dl: [t[dl] for t in stage1]}, stock, dealer)
    return deck, stage1, tricks2


def japanese_plan(nd_pairs: int, dealer: int = 0) -> tuple[list[int], list[Trick]]:
    """Deck and the 26 tricks of a Japanese Whist deal in which the non-dealer wins
    ``nd_pairs`` of the 24 same-suit pair tricks and, naming spades trump, both last tricks
    (it keeps AS and AH in hand, the dealer AD and AC)."""
    nd, dl = 1 - dealer, dealer
    winners = [nd] * nd_pairs + [dl] * (24 - nd_pairs)
    tricks: list[Trick] = []
    for k, w in enumerate(winners):
        suit, rank = k % 4, 2 + 2 * (k // 4)
        tricks.append({w: card(suit, rank + 1), 1 - w: card(suit, rank)})
    tricks.append({nd: cd("AS"), dl: cd("AD")})
    tricks.append({nd: cd("AH"), dl: cd("AC")})
    deck = [-1] * 52
    for seat, base_down, base_up in ((nd, 0, 20), (dl, 10, 30)):
        for j in range(10):
            deck[base_up + j] = tricks[j][seat]  # face-up piles: tricks 1..10
            deck[base_down + j] = tricks[14 + j][seat]  # face-down piles: tricks 15..24
    hand_tricks = [*tricks[10:14], tricks[24], tricks[25]]
    deck[40::2] = [t[nd] for t in hand_tricks]
    deck[41::2] = [t[dl] for t in hand_tricks]
    assert sorted(deck) == list(range(52))
    return deck, tricks


def finished(m: Match) -> tuple[list[int], list[int]]:
    """(counted tricks, points) of the last deal, which must be complete."""
    deal = m.deal
    assert deal is not None and deal.complete
    return list(deal.won), list(deal.points)


# ============================================================ shared trick mechanics
def german_deal_with(
    fixed: dict[int, list[int]],
    upcard: int,
    void: dict[int, set[int]] | None = None,
    dealer: int = 0,
    options: dict[str, object] | None = None,
) -> Match:
    """A German Whist match whose first deal gives the seats the ``fixed`` cards (plus
    filler avoiding ``void`` suits) and turns ``upcard``."""
    hands = fill_hands(2, fixed, void, reserved=[upcard])
    used = {c for h in hands.values() for c in h}
    assert upcard not in used
    rest = [upcard] + [c for c in range(52) if c not in used and c != upcard]
    m = new_match("german", options or {})
    m.start_deal(deck_two(hands, rest, dealer), dealer)
    return m


def test_hearts_queen_beats_hearts_jack_when_hearts_are_led() -> None:
    # [000] "Hjärter dam mot hjärter knekt ger stick till damen när hjärter spelades ut"
    m = german_deal_with({1: [cd("QH")], 0: [cd("JH")]}, upcard=cd("9C"))
    play_tricks(m, [{1: cd("QH"), 0: cd("JH")}])
    assert m.deal is not None and m.deal.tricks[0].winner == 1


def test_hearts_seven_beats_spade_ace_when_hearts_led_and_clubs_trump() -> None:
    # [000] "Hjärter sju mot spader ess ger stick till sjuan när hjärter spelades ut och
    # klöver är trumf": the off-suit ace never wins.
    m = german_deal_with({1: [cd("7H")], 0: [cd("AS")]}, upcard=cd("9C"), void={0: {H}})
    assert m.deal is not None and m.deal.trump == C
    play_tricks(m, [{1: cd("7H"), 0: cd("AS")}])
    assert m.deal.tricks[0].winner == 1


def test_hearts_seven_loses_to_clubs_eight_when_clubs_are_trump() -> None:
    # [000] "Hjärter sju mot klöver åtta ger stick till åttan när hjärter spelades ut och
    # klöver är trumf"
    m = german_deal_with({1: [cd("7H")], 0: [cd("8C")]}, upcard=cd("9C"), void={0: {H}})
    play_tricks(m, [{1: cd("7H"), 0: cd("8C")}])
    assert m.deal is not None and m.deal.tricks[0].winner == 0


def test_hearts_two_beats_spade_ace_when_hearts_are_trump() -> None:
    # [000] "Är hjärter trumf slår en hjärter tvåa ett spader ess."
    m = german_deal_with({1: [cd("AS")], 0: [cd("2H")]}, upcard=cd("9H"), void={0: {S}})
    play_tricks(m, [{1: cd("AS"), 0: cd("2H")}])
    assert m.deal is not None and m.deal.tricks[0].winner == 0


def test_holding_a_heart_when_queen_of_hearts_is_led_you_must_play_a_heart() -> None:
    # [000] "Spelas hjärter dam ut och den andra har en hjärter på handen måste hen lägga en
    # hjärter"; [003] "Du må spille samme farge som motspilleren hvis du kan".
    m = german_deal_with({1: [cd("QH")], 0: [cd("3H"), cd("AS")]}, upcard=cd("9C"))
    m.apply(Play(1, cd("QH")))
    legal = m.legal_actions(0)
    assert legal and all(a.card // 13 == H for a in legal if isinstance(a, Play))
    before = view_for(m, 0).to_json()
    with pytest.raises(WhistError) as caught:
        m.apply(Play(0, cd("AS")))
    assert caught.value.code == "must_follow_suit"
    assert view_for(m, 0).to_json() == before  # a refused action changes nothing
    m.apply(Play(0, cd("3H")))  # any heart, no duty to beat the queen [003]
    assert m.deal is not None and m.deal.tricks[0].winner == 1


def test_no_duty_to_trump_or_overtake() -> None:
    # [000] "det finns inget tvång att lägga trumf"; [001] "Trumfovat, přebíjet ani přebíjet
    # trumf povinné není"; [003] "Du trenger ikke slå motspillerens kort".
    # Classic, spades trump (the dealer's turned card), seat 0 leads AH.
    hands = fill_hands(
        4,
        {0: [cd("AH")], 1: [cd("2S"), cd("3C")], 2: [cd("KH"), cd("4H")], 3: [cd("9S"), cd("3H")]},
        void={1: {H}},
    )
    m = new_match("classic")
    m.start_deal(deck_four(hands, dealer=3, last=cd("9S")), dealer=3)
    assert m.deal is not None and m.deal.trump == S
    m.apply(Play(0, cd("AH")))
    legal1 = {a.card for a in m.legal_actions(1) if isinstance(a, Play)}
    assert legal1 == set(hands[1])  # void in hearts: anything, not only trumps
    m.apply(Play(1, cd("3C")))  # discards instead of trumping
    legal2 = {a.card for a in m.legal_actions(2) if isinstance(a, Play)}
    assert cd("4H") in legal2  # partner need not overtake
    m.apply(Play(2, cd("4H")))
    m.apply(Play(3, cd("3H")))
    assert m.deal.tricks[0].winner == 0


def test_spade_two_beats_heart_ace_when_spades_are_trump() -> None:
    # [001] "A♥ 2♠ K♥ — Je-li trumfem pik, piková dvojka porazí srdcové eso."
    hands = fill_hands(
        4,
        {0: [cd("AH")], 1: [cd("2S")], 2: [cd("KH")], 3: [cd("9S"), cd("3H")]},
        void={1: {H}},
    )
    m = new_match("classic")
    m.start_deal(deck_four(hands, dealer=3, last=cd("9S")), dealer=3)
    play_tricks(m, [{0: cd("AH"), 1: cd("2S"), 2: cd("KH"), 3: cd("3H")}])
    assert m.deal is not None and m.deal.tricks[0].winner == 1


def test_fyrmanswhist_trick_north_ace_of_hearts_wins() -> None:
    # [004] "Ett exempel på en giv": Nord hjärteress spelar ut och vinner, Öst hjärterkung,
    # Syd hjärtertio, Väst hjärterfem följer färg och förlorar. N, E, S, W = seats 0..3.
    first = [{0: cd("AH"), 1: cd("KH"), 2: cd("TH"), 3: cd("5H")}]
    hands, tricks = four_plan(winners_for(7, 0, 1), first=first)
    m = new_match("fyrmanswhist")
    m.start_deal(deck_four(hands, dealer=3), dealer=3)
    # Four black bottom cards: nollspel, so North (left of the dealer West) leads.
    for seat in range(4):
        m.apply(Bottom(seat, a_card(hands[seat], {S, C})))
    assert m.next_seat() == 0
    play_tricks(m, tricks[:1])
    assert m.deal is not None and m.deal.tricks[0].winner == 0
    assert [card_text(c) for c in m.deal.tricks[0].cards] == ["AH", "KH", "TH", "5H"]


def test_ace_counts_highest_in_every_variant_trick() -> None:
    # [004] "Ess räknas högst och kan räknas som fjorton"; [001][003] ace is highest.
    m = german_deal_with({1: [cd("KS")], 0: [cd("AS")]}, upcard=cd("9C"))
    play_tricks(m, [{1: cd("KS"), 0: cd("AS")}])
    assert m.deal is not None and m.deal.tricks[0].winner == 0


# ================================================================ German Whist [000][003]
def test_german_deal_thirteen_each_non_dealer_first_upcard_is_trump() -> None:
    # [000][003] "del ut 13 kort til hver, ett om gangen. Motspilleren får første kort";
    # the top stock card is turned and its suit is trump; the non-dealer leads trick 1.
    deck = list(range(52))
    m = new_match("german")
    m.start_deal(deck, dealer=1)
    assert m.deal is not None
    assert set(cards_in(m.deal.hands[0])) == set(deck[0:26:2])
    assert set(cards_in(m.deal.hands[1])) == set(deck[1:26:2])
    v = view_for(m, 1)
    assert v.upcard == deck[26] and v.stock_size == 26
    assert m.deal.trump == deck[26] // 13
    assert m.next_seat() == 0


def test_tomannswhist_worked_example_queen_of_hearts_upcard() -> None:
    # [003] "Et eksempel på en runde": QH is turned, hearts are trump. You (non-dealer) lead
    # KS, the opponent must follow with 9S, you win and take QH, the opponent draws the next
    # card unseen, 4C is turned, hearts are still trump and you lead again.
    you, opp = 1, 0
    hidden = cd("7D")
    hands = fill_hands(2, {you: [cd("KS")], opp: [cd("9S")]}, reserved=[cd("QH"), hidden, cd("4C")])
    used = {c for h in hands.values() for c in h} | {cd("QH"), hidden, cd("4C")}
    stock = [cd("QH"), hidden, cd("4C")] + [c for c in range(52) if c not in used]
    m = new_match("tomannswhist")
    m.start_deal(deck_two(hands, stock, dealer=opp), dealer=opp)
    assert m.deal is not None and m.deal.trump == H
    assert m.next_seat() == you
    m.apply(Play(you, cd("KS")))
    with pytest.raises(WhistError):  # holding a spade, the opponent must follow
        m.apply(Play(opp, a_card(hands[opp], {H, D, C})))
    m.apply(Play(opp, cd("9S")))
    assert m.deal.tricks[0].winner == you
    assert cd("QH") in cards_in(m.deal.hands[you])
    assert hidden in cards_in(m.deal.hands[opp])
    mine, theirs = view_for(m, you), view_for(m, opp)
    assert mine.upcard == theirs.upcard == cd("4C")
    assert cd("QH") in mine.shown[you] and cd("QH") in theirs.shown[you]  # public
    assert hidden not in cards_in(mine.hand) and hidden not in mine.shown[opp]
    assert hidden in cards_in(theirs.hand)
    assert m.deal.trump == H  # a later upcard never changes trump
    assert m.next_seat() == you


def test_later_upcards_never_change_trump_and_stage_two_is_thirteen_tricks() -> None:
    # [000] "Senare kort som vänds upp byter inte trumf"; [003] after 13 tricks the stock is
    # empty, both hold 13, the winner of trick 13 leads the last 13 tricks.
    deck, stage1, stage2 = german_plan([1] * 8 + [0] * 5)
    m = new_match("german")
    m.start_deal(deck, 0)
    for trick in stage1:
        play_tricks(m, [trick])
        assert m.deal is not None and m.deal.trump == H
    assert m.deal is not None
    assert m.deal.stage == 2 and not stock_of(m.deal).cards
    assert [bin(h).count("1") for h in m.deal.hands] == [13, 13]
    assert m.next_seat() == m.deal.tricks[12].winner == 1
    assert m.deal.won == [0, 0]  # stage-1 tricks do not count
    play_tricks(m, stage2)
    assert len(m.deal.tricks) == 26
    assert finished(m) == ([5, 8], [0, 2])


def test_tvamanswhist_eight_tricks_score_two_points() -> None:
    # [000] "Tar en spelare åtta stick är två av dem trick, vilket ger två poäng."
    deck, stage1, stage2 = german_plan([0] * 8 + [1] * 5)
    m = new_match("tvamanswhist")
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert finished(m) == ([8, 5], [2, 0])
    assert m.scores == [2, 0] and not m.over


@pytest.mark.parametrize(
    ("tricks", "points"),
    [((7, 6), 1), ((8, 5), 3), ((9, 4), 5), ((10, 3), 7), ((13, 0), 13)],
    ids=["7-6", "8-5", "9-4", "10-3", "13-0"],
)
def test_tomannswhist_difference_scoring_table(tricks: tuple[int, int], points: int) -> None:
    # [003] "Stikk i andre del | Poeng til vinneren": 7–6 1, 8–5 3, 9–4 5, 10–3 7, 13–0 13.
    won, lost = tricks
    deck, stage1, stage2 = german_plan([1] * won + [0] * lost)
    m = new_match("german", {"scoring": "difference"})
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert finished(m) == ([lost, won], [0, points])


def test_tomannswhist_worked_example_eight_five_gives_three_points() -> None:
    # [003] "Tar du 8 og motspilleren 5, vinner du runden og får 3 poeng hvis dere bruker
    # poengforskjellen" (preset tomannswhist: difference scoring).
    deck, stage1, stage2 = german_plan([1] * 8 + [0] * 5)
    m = new_match("tomannswhist")
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert finished(m) == ([5, 8], [0, 3])


def test_over_six_scoring_eight_five_gives_two_not_three() -> None:
    # [003] "Da gir 8–5 bare 2 poeng, ikke 3."
    deck, stage1, stage2 = german_plan([1] * 8 + [0] * 5)
    m = new_match("german", {"scoring": "over_six"})
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert finished(m)[1] == [0, 2]


def test_deals_scoring_counts_deals_won() -> None:
    # [003] "Dere kan nøye dere med å telle vunne runder" (scoring: deals).
    deck, stage1, stage2 = german_plan([1] * 10 + [0] * 3)
    m = new_match("german", {"scoring": "deals"})
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert finished(m)[1] == [0, 1]


def test_all26_thirteen_thirteen_is_a_drawn_deal_and_a_drawn_single_match() -> None:
    # [003] "Alle 26 stikk teller ... Ved 13–13 blir det uavgjort." The non-dealer wins all
    # 13 stage-1 tricks, the dealer all 13 stage-2 tricks.
    deck, stage1, stage2 = german_plan([0] * 13)
    m = new_match("german", {"counted": "all26", "match": "single"})
    m.start_deal(deck, 0)
    play_tricks(m, stage1)
    assert m.deal is not None and m.deal.won == [0, 13]  # stage-1 tricks count
    play_tricks(m, stage2)
    assert finished(m) == ([13, 13], [0, 0])
    assert m.over and m.winner is None


def test_all26_over_six_scores_tricks_minus_thirteen() -> None:
    # docs/rules.md, German Whist: "with all26: tricks − 13". 13 + 3 = 16 tricks → 3 points.
    deck, stage1, stage2 = german_plan([1] * 3 + [0] * 10)
    m = new_match("german", {"counted": "all26"})
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert finished(m) == ([10, 16], [0, 3])


def test_single_match_is_one_deal_even_when_it_scores_little() -> None:
    # [000] "Ett parti ... kan vara en enda giv".
    deck, stage1, stage2 = german_plan([0] * 7 + [1] * 6)
    m = new_match("german", {"match": "single"})
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert m.over and m.winner == 0 and m.scores == [1, 0]
    with pytest.raises(WhistError) as caught:
        m.start_deal(deck)
    assert caught.value.code == "match_over"


def test_first_to_seven_and_dealer_alternates() -> None:
    # [000] "den som först når sju eller tretton poäng"; [003] "Bytt giver etter hver runde".
    m = new_match("german", {"match": "target:7"})
    deck, stage1, stage2 = german_plan([1] * 10 + [0] * 3, dealer=0)  # 4 points to seat 1
    m.start_deal(deck, 0)
    play_tricks(m, stage1 + stage2)
    assert m.scores == [0, 4] and not m.over and m.needs_deal
    deck, stage1, stage2 = german_plan([0] * 3 + [1] * 10, dealer=1)  # seat 0 is non-dealer
    with pytest.raises(WhistError) as caught:
        m.start_deal(deck, 0)
    assert caught.value.code == "bad_dealer"
    m.start_deal(deck)  # the dealer follows the rotation: seat 1
    assert m.deal is not None and m.deal.dealer == 1 and m.next_seat() == 0
    play_tricks(m, stage1 + stage2)
    assert m.scores == [0, 8] and m.over and m.winner == 1


def test_tomannswhist_preset_plays_four_deals() -> None:
    # [003] "Avtal gjerne et bestemt antall runder" (preset tomannswhist: deals:4).
    m = new_match("tomannswhist")
    for k in range(4):
        dealer = k % 2
        deck, stage1, stage2 = german_plan([1 - dealer] * 13, dealer=dealer)
        assert not m.over
        m.start_deal(deck, dealer if k == 0 else None)
        play_tricks(m, stage1 + stage2)
    assert m.over and m.scores == [26, 26] and m.winner is None


def test_free_play_in_stage_one_wins_only_with_led_suit_or_trump() -> None:
    # [003] "Fritt kortvalg i første del": the follower may play any card but wins only with
    # a higher card of the led suit or a trump; a trump lead needs a higher trump.
    opts = {"stage1_follow": False}
    m = german_deal_with(
        {1: [cd("5S"), cd("4H")], 0: [cd("AS"), cd("KD")]}, cd("9H"), None, 0, opts
    )
    m.apply(Play(1, cd("5S")))
    assert m.deal is not None
    legal = {a.card for a in m.legal_actions(0) if isinstance(a, Play)}
    assert legal == set(cards_in(m.deal.hands[0]))
    m.apply(Play(0, cd("KD")))  # not following although holding AS: allowed, but loses
    assert m.deal is not None and m.deal.tricks[-1].winner == 1
    m2 = german_deal_with({1: [cd("4H")], 0: [cd("3H"), cd("AS")]}, cd("9H"), None, 0, opts)
    m2.apply(Play(1, cd("4H")))
    m2.apply(Play(0, cd("3H")))  # a lower trump does not beat a trump lead
    assert m2.deal is not None and m2.deal.tricks[-1].winner == 1


def test_stage_two_always_requires_following_suit() -> None:
    # [003] "I andre del må dere igjen bekjenne farge."
    deck, stage1, stage2 = german_plan([1] * 7 + [0] * 6)
    m = new_match("german", {"stage1_follow": False})
    m.start_deal(deck, 0)
    play_tricks(m, stage1)
    leader = m.next_seat()
    assert leader is not None
    m.apply(Play(leader, stage2[0][leader]))
    follower = 1 - leader
    led = stage2[0][leader] // 13
    assert m.deal is not None
    other = a_card(cards_in(m.deal.hands[follower]), {s for s in range(4) if s != led})
    with pytest.raises(WhistError) as caught:
        m.apply(Play(follower, other))
    assert caught.value.code == "must_follow_suit"


def test_winner_takes_upcard_loser_draws_unseen_card() -> None:
    # [000] "Efter varje stick i första etappen tar vinnaren det uppvända talongkortet medan
    # förloraren tar nästa kort dolt, och sedan vänds nästa talongkort upp."
    deck, stage1, _ = german_plan([1] * 13)
    m = new_match("german")
    m.start_deal(deck, 0)
    play_tricks(m, stage1[:1])
    assert m.deal is not None
    assert deck[26] in cards_in(m.deal.hands[1]) and deck[27] in cards_in(m.deal.hands[0])
    assert view_for(m, 1).upcard == deck[28]
    assert deck[27] not in cards_in(view_for(m, 1).hand)
    assert all(deck[27] not in shown for shown in view_for(m, 1).shown)


# --------------------------------------------------- German Whist talon_discard [000]
def talon_match(seed_deck: Sequence[int] | None = None) -> Match:
    m = new_match("german", {"talon_discard": True})
    m.start_deal(list(seed_deck or range(52)), 0)
    return m


def play_one_trick(m: Match) -> None:
    """Play the first legal card for each seat of one trick."""
    for _ in range(2):
        m.apply(m.legal_actions()[0])


def test_talon_discard_winner_discards_upcard_then_keeps_next_card_privately() -> None:
    # [000] "får den som står i tur att ta ett talongkort saka ... det första kortet, men
    # måste då ta det andra och behålla det, och det sakade kortet är ute ur spelet";
    # docs/rules.md, German Whist: the card taken after discarding the upcard is private to the
    # winner.
    m = talon_match()
    play_one_trick(m)
    deal = m.deal
    assert deal is not None
    winner = deal.tricks[0].winner
    loser = 1 - winner
    upcard, second, third = stock_of(deal).cards[:3]
    assert m.to_act() == (winner,)
    assert set(m.legal_actions()) == {Take(winner, True), Take(winner, False)}
    m.apply(Take(winner, False))
    assert stock_of(deal).discards == [upcard]
    assert second in cards_in(deal.hands[winner])
    assert view_for(m, loser).discards == (upcard,)  # public
    assert second not in cards_in(view_for(m, loser).hand)
    assert all(second not in s for s in view_for(m, loser).shown)
    # The loser sees its next card privately before deciding.
    assert m.to_act() == (loser,)
    assert view_for(m, loser).offer == third and view_for(m, winner).offer is None
    assert view_for(m, winner).upcard is None and view_for(m, loser).upcard is None
    m.apply(Take(loser, False))
    assert stock_of(deal).discards == [upcard, third]
    assert [bin(h).count("1") for h in deal.hands] == [13, 13]
    assert len(stock_of(deal).cards) == 26 - 4


def test_talon_discard_decisions_only_while_enough_cards_remain() -> None:
    # docs/rules.md, German Whist: the winner may discard while at least 3 cards remain, the loser
    # while at least 2; otherwise the card is simply taken with no decision. A refill that ends with
    # one card left discards it (public) and stage 1 ends early; stage 2 is still 13 tricks.
    m = talon_match()
    deal = m.deal
    assert deal is not None
    play_one_trick(m)
    m.apply(Take(m.to_act()[0], False))  # 26 -> 23 after this refill: odd from now on
    m.apply(Take(m.to_act()[0], True))
    assert len(stock_of(deal).cards) == 23
    refills: list[tuple[int, bool, bool]] = []
    while deal.stage == 1:
        before = len(stock_of(deal).cards)
        play_one_trick(m)
        winner_asked = deal.phase.value == "take"
        if winner_asked:
            m.apply(Take(deal.turn, True))
        loser_asked = deal.phase.value == "take"
        if loser_asked:
            m.apply(Take(deal.turn, True))
        refills.append((before, winner_asked, loser_asked))
    assert refills[-1] == (3, True, True)
    assert all(w and lo for _, w, lo in refills)
    assert len(deal.tricks) == 12  # stage 1 ended early
    last_card = stock_of(deal).discards[-1]
    assert stock_of(deal).cards == [] and view_for(m, 0).discards[-1] == last_card
    assert view_for(m, 1).discards[-1] == last_card
    assert [bin(h).count("1") for h in deal.hands] == [13, 13]
    while not deal.complete:
        play_one_trick(m)
    assert len(deal.tricks) == 12 + 13
    assert sum(deal.won) == 13


def test_talon_discard_no_decision_for_the_last_two_cards() -> None:
    # docs/rules.md, German Whist: with two cards left neither player may discard (the winner needs
    # 3, the loser 2 after the winner's take): both are simply taken.
    m = talon_match()
    deal = m.deal
    assert deal is not None
    seen: list[tuple[int, str]] = []
    while deal.stage == 1:
        before = len(stock_of(deal).cards)
        play_one_trick(m)
        seen.append((before, deal.phase.value))
        while deal.phase.value == "take":
            m.apply(Take(deal.turn, True))
    assert seen[-1] == (2, "play") and len(deal.tricks) == 13
    assert all(phase == "take" for _, phase in seen[:-1])


def test_talon_discard_winner_discards_with_three_left_loser_takes_the_last_card() -> None:
    # docs/rules.md, German Whist: with 3 left the winner may discard (then must take the next
    # card); the loser then takes the last card with no decision.
    m = talon_match()
    deal = m.deal
    assert deal is not None
    play_one_trick(m)
    m.apply(Take(deal.turn, False))  # 26 - 3 = 23
    m.apply(Take(deal.turn, True))
    while len(stock_of(deal).cards) > 3:
        play_one_trick(m)
        while deal.phase.value == "take":
            m.apply(Take(deal.turn, True))
    play_one_trick(m)
    assert deal.phase.value == "take"
    winner = deal.turn
    m.apply(Take(winner, False))  # discard the upcard, take the next: one card left
    assert deal.phase.value == "play" and deal.stage == 2 and stock_of(deal).cards == []
    with pytest.raises(WhistError):
        m.apply(Take(1 - winner, False))
    assert [bin(h).count("1") for h in deal.hands] == [13, 13]


def test_take_refused_without_talon_discard() -> None:
    # docs/record-format.md: take is used only "where a discard is allowed".
    m = new_match("german")
    m.start_deal(list(range(52)), 0)
    play_one_trick(m)
    with pytest.raises(WhistError):
        m.apply(Take(0, False))


# ===================================================================== Plockwhist [000]
def plock(bids: Sequence[tuple[int, str]], stage2: Sequence[int], **opts: object) -> Match:
    deck, stage1, tricks2 = german_plan(stage2)
    m = new_match("plockwhist", dict(opts))
    m.start_deal(deck, 0)
    apply_all(m, [Bid(seat, word) for seat, word in bids])
    play_tricks(m, stage1 + tricks2)
    return m


def test_plockwhist_bidding_non_dealer_first_spel_ends_it() -> None:
    # [000] "varje spelare först får sex kort och sedan bjuder pass eller spel"; docs/rules.md,
    # Plockwhist.
    deck, _, _ = german_plan([1] * 13)
    m = new_match("plockwhist")
    m.start_deal(deck, 0)
    assert m.deal is not None
    assert [bin(h).count("1") for h in m.deal.hands] == [6, 6]
    assert m.next_seat() == 1
    assert set(m.legal_actions()) == {Bid(1, "spel"), Bid(1, "pass")}
    m.apply(Bid(1, "spel"))
    assert m.deal.contract is not None and m.deal.contract.mode == "spel"
    assert m.deal.contract.seat == 1
    assert [bin(h).count("1") for h in m.deal.hands] == [13, 13]
    assert m.deal.trump is None  # no trump by default
    assert m.next_seat() == 1  # the non-dealer leads trick 1
    m2 = new_match("plockwhist")
    m2.start_deal(deck, 0)
    m2.apply(Bid(1, "pass"))
    assert m2.next_seat() == 0 and m2.deal is not None and m2.deal.contract is None
    m2.apply(Bid(0, "pass"))
    assert m2.deal.contract is not None and m2.deal.contract.mode == "pass"


def test_plockwhist_spel_seven_or_more_scores_tricks_minus_six() -> None:
    # [000] "Den som bjudit spel i Tvåmanswhist får ett poäng per stick utöver de sex första."
    m = plock([(1, "spel")], [1] * 9 + [0] * 4)
    assert finished(m) == ([4, 9], [0, 3])


def test_plockwhist_failed_spel_gives_opponent_double() -> None:
    # [000] "Tar den spelaren sex stick eller färre får motspelaren två poäng per eget trick"
    m = plock([(1, "pass"), (0, "spel")], [1] * 9 + [0] * 4)
    assert finished(m) == ([4, 9], [0, 6])


def test_plockwhist_pass_game_fewer_tricks_scores_seven_minus_own() -> None:
    # [000] "Har båda bjudit pass får den med minst stick ett poäng för varje stick under sju"
    m = plock([(1, "pass"), (0, "pass")], [1] * 10 + [0] * 3)
    assert finished(m) == ([3, 10], [4, 0])


def test_plockwhist_only_stage_two_counts_and_upcard_trump_option() -> None:
    # docs/rules.md, Plockwhist: only stage-2 tricks count; option trump: upcard.
    m = plock([(1, "spel")], [1] * 7 + [0] * 6, trump="upcard")
    assert m.deal is not None and m.deal.trump == H
    assert finished(m) == ([6, 7], [0, 1])


# ================================================================ Japanese Whist [000]
def test_japanese_layout_trump_choice_and_first_trick_from_the_table() -> None:
    # [000] twenty table cards each (ten face-down under ten face-up), six in hand; the
    # non-dealer names trump; docs/rules.md, Japanese Whist: trick 1 only from face-up table cards,
    # hands unseen until trick 1 is complete.
    deck, tricks = japanese_plan(13)
    m = new_match("japanese")
    m.start_deal(deck, 0)
    v = view_for(m, 1)
    assert [p.up for p in v.table[1]] == deck[20:30]
    assert [p.up for p in v.table[0]] == deck[30:40]
    assert all(p.down for piles in v.table for p in piles)
    assert v.hand == 0 and view_for(m, 0).hand == 0
    assert m.next_seat() == 1
    assert set(m.legal_actions()) == {ChooseTrump(1, s) for s in range(4)}
    with pytest.raises(WhistError):
        m.apply(ChooseTrump(0, S))
    m.apply(ChooseTrump(1, S))
    assert m.deal is not None and m.deal.trump == S and m.next_seat() == 1
    assert {a.card for a in m.legal_actions() if isinstance(a, Play)} == set(deck[20:30])
    with pytest.raises(WhistError):
        m.apply(Play(1, deck[40]))  # a hand card in trick 1
    assert view_for(m, 1).hand == 0
    play_tricks(m, tricks[:1])
    assert set(cards_in(view_for(m, 1).hand)) == set(deck[40::2])
    # The card under a played face-up card is turned up when the trick is complete.
    assert view_for(m, 0).table[1][0].up == deck[0]
    assert view_for(m, 0).table[0][0].up == deck[10]


def test_japanese_reveal_immediate_turns_the_card_up_at_once() -> None:
    # docs/rules.md, Japanese Whist option reveal: immediate.
    deck, tricks = japanese_plan(13)
    m = new_match("japanese", {"reveal": "immediate"})
    m.start_deal(deck, 0)
    m.apply(ChooseTrump(1, S))
    m.apply(Play(1, tricks[0][1]))
    assert view_for(m, 0).table[1][0].up == deck[0]


def test_japanese_each_trick_over_thirteen_scores_a_point() -> None:
    # [000] "Tjugosex stick spelas ... där varje stick över tretton ger ett poäng".
    deck, tricks = japanese_plan(14)  # non-dealer: 14 + 2 = 16, dealer 10
    m = new_match("japanese")
    m.start_deal(deck, 0)
    m.apply(ChooseTrump(1, S))
    play_tricks(m, tricks)
    assert finished(m) == ([10, 16], [0, 3])


@pytest.mark.parametrize(("tie", "points"), [("none", [0, 0]), ("dealer_one", [1, 0])])
def test_japanese_thirteen_thirteen(tie: str, points: list[int]) -> None:
    # docs/rules.md, Japanese Whist: 13–13 scores nothing (tie: none) or the dealer scores 1
    # (dealer_one).
    deck, tricks = japanese_plan(11)
    m = new_match("japanese", {"tie": tie})
    m.start_deal(deck, 0)
    m.apply(ChooseTrump(1, S))
    play_tricks(m, tricks)
    assert finished(m) == ([13, 13], points)


# ================================================================== Classic Whist [001]
def classic_deal(
    m: Match, team0: int, dealer: int, trump: int = S
) -> tuple[dict[int, list[int]], list[Trick]]:
    """Start and play a Classic deal where team 0 takes ``team0`` tricks."""
    hands, tricks = four_plan(winners_for(team0, 0, 1), trump=trump)
    last = a_card(hands[dealer], {trump})
    m.start_deal(deck_four(hands, dealer, last=last), dealer if not m.deals else None)
    play_tricks(m, tricks)
    return hands, tricks


def test_classic_trump_is_the_dealers_last_card_face_up_until_the_dealer_plays() -> None:
    # [001] "Poslední karta patří rozdávajícímu a její barva určuje trumfy ... Je odkrytá do
    # prvního tahu rozdávajícího; není to karta navíc." Left of the dealer leads, trumps too.
    hands, tricks = four_plan(winners_for(7, 0, 1), trump=D)
    dealer = 2
    last = a_card(hands[dealer], {D})
    m = new_match("classic")
    m.start_deal(deck_four(hands, dealer, last=last), dealer)
    assert m.deal is not None and m.deal.trump == D
    assert bin(m.deal.hands[dealer]).count("1") == 13  # not an extra card
    assert last in cards_in(m.deal.hands[dealer])
    assert view_for(m, 0).trump_card == last and view_for(m, None).trump_card == last
    assert m.next_seat() == 3
    leader_hand = {a.card for a in m.legal_actions() if isinstance(a, Play)}
    assert leader_hand == set(hands[3])  # trumps may be led in trick 1
    play_tricks(m, tricks[:1])
    assert view_for(m, 0).trump_card is None  # the dealer has played to trick 1
    assert m.deal.trump == D


def test_classic_seven_tricks_one_point_ten_tricks_four_points() -> None:
    # [001] "Například 7 zdvihů dává 1 bod a 10 zdvihů 4 body."
    m = new_match("classic")
    classic_deal(m, team0=7, dealer=3)
    assert finished(m) == ([7, 6], [1, 0])
    classic_deal(m, team0=3, dealer=0)
    assert finished(m) == ([3, 10], [0, 4])
    assert m.scores == [1, 4] and not m.over


def test_classic_target_five_ends_the_match_after_a_complete_deal() -> None:
    # [001] "Vyhrává dvojice, která po dokončeném rozdání dosáhne alespoň 5 bodů";
    # the dealer moves one seat clockwise, trump is again the last card.
    m = new_match("classic")
    classic_deal(m, team0=10, dealer=1, trump=H)
    assert m.scores == [4, 0] and not m.over
    classic_deal(m, team0=7, dealer=2, trump=C)
    assert m.deal is not None and m.deal.dealer == 2 and m.deal.trump == C
    assert m.scores == [5, 0] and m.over and m.winner == 0


# ================================================================ Minnesota Whist [002]
def minnesota_deal(m: Match, bids: dict[int, str], team0: int, dealer: int) -> list[Trick]:
    hands, tricks = four_plan(winners_for(team0, 0, 1))
    m.start_deal(deck_four(hands, dealer), dealer if not m.deals else None)
    apply_all(m, [Bid(seat, word) for seat, word in bids.items()])
    play_tricks(m, tricks)
    return tricks


def test_minnesota_reveal_stops_at_the_first_high_from_the_dealers_left() -> None:
    # [002] "avslöjas de i turordning från spelaren till vänster om givaren. Första röda
    # budet bestämmer högspel ... Senare bud förblir hemliga." Lead: right of the grander.
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("minnesota")
    m.start_deal(deck_four(hands, dealer=0), 0)
    # Locked in any order; reveal order is 1, 2, 3, 0.
    m.apply(Bid(3, "high"))
    assert m.to_act() == (1, 2, 0) and m.next_seat() == 1
    m.apply(Bid(0, "high"))
    m.apply(Bid(1, "low"))
    m.apply(Bid(2, "high"))
    deal = m.deal
    assert deal is not None
    assert deal.contract is not None and (deal.contract.mode, deal.contract.seat) == ("high", 2)
    assert deal.revealed == [(1, "low"), (2, "high")]
    for seat in range(4):
        assert view_for(m, seat).revealed == ((1, "low"), (2, "high"))
    assert m.next_seat() == 1  # right of the grander (seat 2)


def test_minnesota_four_low_is_a_low_deal_led_from_the_dealers_left() -> None:
    # [002] "Endast fyra svarta bud ger lågspel"; "I lågspel börjar personen till vänster om
    # givaren."
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("minnesota")
    m.start_deal(deck_four(hands, dealer=2), 2)
    apply_all(m, [Bid(s, "low") for s in (0, 1, 2, 3)])
    assert m.deal is not None and m.deal.contract is not None
    assert m.deal.contract.mode == "low"
    assert m.deal.revealed == [(3, "low"), (0, "low"), (1, "low"), (2, "low")]
    assert m.next_seat() == 3
    assert m.deal.trump is None  # [002] "Ingen färg är trumf"


def test_minnesota_seat_cannot_bid_twice() -> None:
    # docs/record-format.md: "a seat deciding twice is an error".
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("minnesota")
    m.start_deal(deck_four(hands, dealer=0), 0)
    m.apply(Bid(1, "low"))
    with pytest.raises(WhistError) as caught:
        m.apply(Bid(1, "high"))
    assert caught.value.code == "already_decided"


def test_minnesota_high_nine_tricks_score_three() -> None:
    # [002] "Högspel: laget med minst sju stick får en poäng för varje stick över sex. Nio
    # stick ger alltså tre poäng."
    m = new_match("minnesota")
    minnesota_deal(m, {0: "high", 1: "low", 2: "low", 3: "low"}, team0=9, dealer=3)
    assert finished(m) == ([9, 4], [3, 0])


@pytest.mark.parametrize(("team0", "points"), [(5, [2, 0]), (6, [1, 0]), (7, [0, 1]), (8, [0, 2])])
def test_minnesota_low_team_with_fewer_tricks_scores(team0: int, points: list[int]) -> None:
    # [002] "Vid 7–6 får laget med sex stick +1; vid 8–5 får laget med fem stick +2. Det
    # andra laget får 0 poäng."
    m = new_match("minnesota")
    minnesota_deal(m, dict.fromkeys(range(4), "low"), team0=team0, dealer=0)
    assert finished(m) == ([team0, 13 - team0], points)


def test_minnesota_failed_grand_gives_opponents_their_tricks_over_six() -> None:
    # docs/rules.md, Minnesota Whist (default, no doubling): granders take 4, opponents 9 →
    # opponents 3.
    m = new_match("minnesota")
    minnesota_deal(m, {0: "high", 1: "high", 2: "low", 3: "low"}, team0=9, dealer=0)
    assert m.deal is not None and m.deal.contract is not None and m.deal.contract.seat == 1
    assert finished(m) == ([9, 4], [3, 0])


def test_minnesota_fail_double_nine_tricks_give_six() -> None:
    # [002] "om laget som grandade misslyckas får motståndarna dubbla poäng ... Nio stick
    # ger då sex poäng."
    m = new_match("minnesota", {"fail_double": True})
    minnesota_deal(m, {0: "high", 1: "high", 2: "low", 3: "low"}, team0=9, dealer=0)
    assert finished(m) == ([9, 4], [6, 0])


def test_minnesota_first_to_thirteen_dealer_moves_clockwise() -> None:
    # [002] "Första lag till minst 13 poäng vinner matchen ... Efter varje giv flyttar given
    # ett säte medurs."
    m = new_match("minnesota")
    minnesota_deal(m, {0: "low", 1: "high", 2: "low", 3: "low"}, team0=0, dealer=0)
    assert m.scores == [0, 7] and not m.over
    minnesota_deal(m, {0: "low", 1: "low", 2: "high", 3: "low"}, team0=1, dealer=1)
    assert m.deal is not None and m.deal.dealer == 1
    assert m.scores == [0, 13] and m.over and m.winner == 1


def test_minnesota_scores_never_negative() -> None:
    # [002] "Inga minuspoäng delas ut."
    m = new_match("minnesota")
    minnesota_deal(m, {0: "high", 1: "low", 2: "low", 3: "low"}, team0=2, dealer=3)
    assert finished(m)[1] == [0, 5]
    assert min(m.scores) >= 0


def test_south_dakota_granders_with_six_or_fewer_lose_seven_minus_tricks() -> None:
    # docs/rules.md, Minnesota Whist [004]: "a high grander team with ≤ 6 tricks loses 7 − tricks
    # ... the other team scores nothing (this beats fail_double)".
    m = new_match("south_dakota", {"fail_double": True})
    minnesota_deal(m, {0: "high", 1: "low", 2: "low", 3: "low"}, team0=4, dealer=3)
    assert finished(m) == ([4, 9], [-3, 0])
    assert m.scores == [-3, 0]


def test_south_dakota_low_team_taking_seven_or_more_loses_tricks_minus_six() -> None:
    # docs/rules.md, Minnesota Whist: "in a low deal the team taking ≥ 7 loses tricks − 6".
    m = new_match("south_dakota")
    minnesota_deal(m, dict.fromkeys(range(4), "low"), team0=9, dealer=3)
    assert finished(m) == ([9, 4], [-3, 0])


def test_south_dakota_plays_to_eleven() -> None:
    # [004] "South Dakota-varianten ... spelas till elva poäng"; standard Minnesota is 13.
    for name, over in (("south_dakota", True), ("minnesota", False)):
        m = new_match(name)
        minnesota_deal(m, {0: "high", 1: "low", 2: "low", 3: "low"}, team0=13, dealer=3)
        minnesota_deal(m, {0: "low", 1: "low", 2: "high", 3: "low"}, team0=10, dealer=0)
        assert m.scores == [11, 0]
        assert m.over is over and m.winner == (0 if over else None)


def test_minnesota_american_colours_are_labels_only() -> None:
    # [004] "I den amerikanska släktformen betyder svart högt"; docs/rules.md, Minnesota Whist:
    # labels only.
    m = new_match("minnesota", {"colours": "american"})
    minnesota_deal(m, {0: "high", 1: "low", 2: "low", 3: "low"}, team0=9, dealer=3)
    assert finished(m) == ([9, 4], [3, 0])


# ============================================================ Swedish Whist [004]
def swedish_deal(
    m: Match, red: Sequence[int], team0: int, dealer: int, order: Sequence[int] = (0, 1, 2, 3)
) -> list[Trick]:
    """Bottom cards: red for the seats in ``red``, black for the others."""
    hands, tricks = four_plan(winners_for(team0, 0, 1))
    m.start_deal(deck_four(hands, dealer), dealer if not m.deals else None)
    for seat in order:
        m.apply(Bottom(seat, a_card(hands[seat], {H, D} if seat in red else {S, C})))
    play_tricks(m, tricks)
    return tricks


def test_swedish_first_red_bottom_card_stops_the_reveal_lead_right_of_declarer() -> None:
    # [004] "Första röda kortet avbryter visningen och ger spel"; "I spel börjar den som
    # sitter närmast före den som visade rött" = right of the declarer.
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("swedish")
    m.start_deal(deck_four(hands, dealer=1), 1)
    bottoms = {
        0: a_card(hands[0], {H}),
        1: a_card(hands[1], {D}),
        2: a_card(hands[2], {C}),
        3: a_card(hands[3], {D}),
    }
    for seat in (1, 0, 3, 2):
        m.apply(Bottom(seat, bottoms[seat]))
    deal = m.deal
    assert deal is not None and deal.contract is not None
    assert (deal.contract.mode, deal.contract.seat) == ("spel", 3)
    assert deal.revealed == [(2, bottoms[2]), (3, bottoms[3])]  # 0 and 1 never shown
    assert m.next_seat() == 2
    shown = view_for(m, 1).shown
    assert bottoms[3] in shown[3] and bottoms[0] not in shown[0]


def test_swedish_spel_lead_left_option() -> None:
    # docs/rules.md, Swedish Whist: option spel_lead: left.
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("swedish", {"spel_lead": "left"})
    m.start_deal(deck_four(hands, dealer=1), 1)
    for seat in range(4):
        m.apply(Bottom(seat, a_card(hands[seat], {H, D} if seat == 3 else {S, C})))
    assert m.next_seat() == 0


def test_swedish_four_black_is_nollspel_led_left_of_dealer() -> None:
    # [004] "Pass uppstår bara om ingen bjuder spel ... alla fyra visar svart ... nollspel";
    # "I pass börjar förste spelaren efter givaren".
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("swedish")
    m.start_deal(deck_four(hands, dealer=0), 0)
    for seat in range(4):
        m.apply(Bottom(seat, a_card(hands[seat], {S, C})))
    assert m.deal is not None and m.deal.contract is not None
    assert m.deal.contract.mode == "noll" and len(m.deal.revealed) == 4
    assert m.next_seat() == 1
    assert m.deal.trump is None  # [004] "spelet saknar trumf"


def test_swedish_bottom_card_must_be_in_the_hand() -> None:
    # docs/rules.md, Swedish Whist: "every player secretly chooses one card of their hand".
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("swedish")
    m.start_deal(deck_four(hands, dealer=0), 0)
    with pytest.raises(WhistError) as caught:
        m.apply(Bottom(1, hands[2][0]))
    assert caught.value.code == "card_not_available"


def test_swedish_only_a_colour_held_can_be_chosen() -> None:
    # docs/rules.md, Swedish Whist: "A player can only choose a colour they hold" (default
    # bid_input: card, so a spel/pass button is not a choice).
    hands = fill_hands(4, {}, void={1: {H, D}})
    m = new_match("swedish")
    m.start_deal(deck_four(hands, dealer=0), 0)
    assert all(isinstance(a, Bottom) for a in m.legal_actions(1))
    with pytest.raises(WhistError):
        m.apply(Bid(1, "spel"))


@pytest.mark.parametrize(
    ("team0", "points"),
    [(9, [3, 0]), (7, [1, 0]), (5, [0, 4]), (6, [0, 2])],
    ids=["nine-3", "exactly-seven-1", "five-eight-opponents-4", "six-seven-opponents-2"],
)
def test_swedish_spel_scoring(team0: int, points: list[int]) -> None:
    # [004] "tre poäng om laget tar nio stick i spel, ett poäng om det tar precis sju, och
    # fyra poäng till motståndarna om budsidan stannar på fem medan de andra tar åtta";
    # docs/rules.md, Swedish Whist: 6–7 → opponents 2.
    m = new_match("swedish")
    swedish_deal(m, red=[2], team0=team0, dealer=1)
    assert m.deal is not None and m.deal.contract is not None and m.deal.contract.seat == 2
    assert finished(m) == ([team0, 13 - team0], points)


@pytest.mark.parametrize(("team0", "points"), [(4, [3, 0]), (0, [7, 0]), (9, [0, 3])])
def test_swedish_nollspel_scoring(team0: int, points: list[int]) -> None:
    # [004] "I pass ger fyra stick tre poäng och noll stick ger sju poäng."
    m = new_match("swedish")
    swedish_deal(m, red=[], team0=team0, dealer=0)
    assert finished(m) == ([team0, 13 - team0], points)


def test_swedish_rounds_one_everyone_deals_once() -> None:
    # [004] "alternativt så att alla får ge en gång var" (match: rounds:1).
    m = new_match("swedish", {"match": "rounds:1"})
    for k in range(4):
        assert not m.over
        swedish_deal(m, red=[1], team0=6, dealer=(2 + k) % 4)  # team 1: 7 → 1 each deal
    assert m.over and m.scores == [0, 4] and m.winner == 1


def test_swedish_first_to_thirteen() -> None:
    # [004] "Man spelar vanligen till tretton poäng".
    m = new_match("fyrmanswhist")
    swedish_deal(m, red=[], team0=0, dealer=0)  # noll: 0 tricks → 7
    swedish_deal(m, red=[], team0=1, dealer=1)  # 1 trick → 6
    assert m.scores == [13, 0] and m.over and m.winner == 0


def test_swedish_simultaneous_reveal_shows_all_four() -> None:
    # docs/rules.md, Swedish Whist: reveal: simultaneous — all four shown, declarer = first red from
    # left of the dealer.
    hands, _ = four_plan(winners_for(7, 0, 1))
    m = new_match("swedish", {"reveal": "simultaneous"})
    m.start_deal(deck_four(hands, dealer=3), 3)
    for seat in range(4):
        m.apply(Bottom(seat, a_card(hands[seat], {H, D} if seat in (1, 2) else {S, C})))
    deal = m.deal
    assert deal is not None and deal.contract is not None
    assert deal.contract.seat == 1 and len(deal.revealed) == 4
    assert m.next_seat() == 0


def test_swedish_button_bids() -> None:
    # docs/rules.md, Swedish Whist bid_input: button — spel or pass whatever one holds, no card
    # shown.
    hands = fill_hands(4, {}, void={2: {H, D}})
    m = new_match("swedish", {"bid_input": "button"})
    m.start_deal(deck_four(hands, dealer=0), 0)
    assert set(m.legal_actions(2)) == {Bid(2, "spel"), Bid(2, "pass")}
    apply_all(m, [Bid(1, "pass"), Bid(2, "spel"), Bid(3, "spel"), Bid(0, "pass")])
    assert m.deal is not None and m.deal.contract is not None and m.deal.contract.seat == 2
    assert all(not shown for shown in m.deal.shown)


# ======================================================================== Resignation
def test_resigning_loses_the_match_at_once() -> None:
    # docs/rules.md, Common rules: "any player may resign at any moment; their side loses the
    # match".
    m = new_match("classic")
    hands, _ = four_plan(winners_for(7, 0, 1))
    m.start_deal(deck_four(hands, 0, last=a_card(hands[0], {S})), 0)
    assert Resign(1) not in m.legal_actions()
    m.apply(Resign(3))
    assert m.over and m.winner == 0 and m.next_seat() is None
