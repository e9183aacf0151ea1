"""Money rules, one test (or more) per clause of ../shared/rules/money.md."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections import Counter
from importlib import resources

import pytest

import merchantry
from merchantry.games import money
from merchantry.games.money.components import (
    CARD_CODES,
    CARD_CURRENCY,
    CARD_VALUES,
    COPIES,
    CURRENCIES,
    NUM_CARDS,
)
from merchantry.games.money.rules import MoneyState, codes
from merchantry.i18n import Translator, log_lines
from tests.games.money_helpers import arrange, bid_round, hand_codes, seal

GAME = money.GAME


# --- components -------------------------------------------------------------------------------------


def test_mo_c1_sixty_three_banknotes_seven_currencies_of_nine_notes():
    notes = [c for c in range(NUM_CARDS) if CARD_CURRENCY[c] is not None]
    assert len(notes) == 63
    assert sorted(CURRENCIES) == ["AUD", "BRL", "CAD", "EUR", "GBP", "JPY", "USD"]
    for cur in CURRENCIES:
        values = sorted(CARD_VALUES[c] for c in notes if CARD_CURRENCY[c] == cur)
        assert values == [20, 20, 20, 30, 30, 30, 40, 50, 60]
        assert sum(values) == 300


def test_mo_c2_six_coins_worth_ten():
    coins = [c for c in range(NUM_CARDS) if CARD_CODES[c] == "COIN"]
    assert len(coins) == 6
    assert all(CARD_VALUES[c] == 10 for c in coins)


def test_mo_c3_one_bluff_card_per_player_worth_nothing():
    for players in (3, 4, 5):
        state = GAME.new_game(players=players, seed=3)
        for p in range(players):
            assert state.view(p)["hand"].count("BLUFF") == 1
    assert money.score_hand(["BLUFF", "COIN"]) == 10


def test_mo_c4_serial_table_is_data_with_every_card_once_in_scrambled_order():
    from importlib import resources

    data = json.loads(resources.files("merchantry.games.money").joinpath("data", "serials.json").read_text())
    assert "NOT the printed" in data["note"]
    assert len(data["serials"]) == 69
    assert Counter(data["serials"]) == COPIES
    # scrambled: neither sorted nor grouped by currency
    assert data["serials"] != sorted(data["serials"])
    first_nine = {code[:3] for code in data["serials"][:9]}
    assert len(first_nine) > 2


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed"), [(5, 0), (4, 1), (3, 2)])
def test_mo_s1_currencies_removed_by_player_count(players, removed):
    seen = set()
    for seed in range(20):
        state = GAME.new_game(players=players, seed=seed)
        assert len(state.removed) == removed
        in_play = {CARD_CURRENCY[c] for c in (*state.deck, *sum(state.hands, ()), *sum(state.market, ()))}
        assert in_play.isdisjoint(state.removed)
        assert len(in_play - {None}) == 7 - removed
        seen.add(state.removed)
    assert len(seen) > 1 or removed == 0  # drawn at random (seeded)
    assert GAME.new_game(players=players, seed=11).removed == GAME.new_game(players=players, seed=11).removed


def test_mo_s1_option_names_removed_currencies():
    state = GAME.new_game(players=3, seed=1, removed_currencies="eur, jpy")
    assert state.removed == ("EUR", "JPY")
    with pytest.raises(merchantry.InvalidOption, match="remove 1 currencies"):
        GAME.new_game(players=4, seed=1, removed_currencies="EUR,JPY")
    with pytest.raises(merchantry.InvalidOption, match="distinct currencies"):
        GAME.new_game(players=4, seed=1, removed_currencies="XXX")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_mo_s2_each_player_gets_bluff_and_six_cards(players):
    state = GAME.new_game(players=players, seed=5)
    for p in range(players):
        assert len(state.hands[p]) == 6
        assert len(state.view(p)["hand"]) == 7
        assert state.view(None)["seats"][p]["hand_size"] == 7


@pytest.mark.parametrize("players", [3, 4, 5])
def test_mo_s3_four_face_up_cards_right_then_left_rest_is_deck(players):
    state = GAME.new_game(players=players, seed=9)
    assert [len(g) for g in state.market] == [4, 4]
    total = 9 * (7 - (5 - players)) + 6
    assert len(state.deck) == total - 6 * players - 8
    view = state.view(None)
    assert view["deck"] == len(state.deck)
    assert len(view["market"]["right"]) == 4 and len(view["market"]["left"]) == 4
    # the same seed deals the same cards
    again = GAME.new_game(players=players, seed=9)
    assert again.to_dict() == state.to_dict()


# --- a round ----------------------------------------------------------------------------------------


def four_player_table() -> MoneyState:
    return arrange(
        hands=[
            ["EUR20", "EUR30", "USD60", "COIN"],
            ["EUR40", "GBP20", "GBP30"],
            ["AUD20", "AUD30", "CAD50"],
            ["BRL20", "BRL30", "CAD20"],
        ],
        right=["USD20", "USD30", "USD40", "USD50"],
        left=["GBP40", "GBP50", "GBP60", "COIN"],
    )


def test_mo_r1_every_player_bids_at_once_and_nobody_sees_a_bid_before_the_reveal():
    state = four_player_table()
    assert state.to_act() == [0, 1, 2, 3]
    others_before = [json.dumps(state.view(p)) for p in (1, 2, 3, None)]
    state.apply(0, "add USD60")
    state.apply(0, "add COIN")
    # building a bid changes nothing anyone else can see
    assert [json.dumps(state.view(p)) for p in (1, 2, 3, None)] == others_before
    state.apply(0, "bid")
    assert state.to_act() == [1, 2, 3]
    for p in (1, 2, 3, None):
        view = state.view(p)
        assert view["seats"][0]["sealed"] is True
        assert view["seats"][0]["hand_size"] == 5
        assert "USD60" not in json.dumps(view)  # the sealed bid is nowhere in another seat's view
    assert state.view(0)["my_bid"] == ["USD60", "COIN"]
    # a sealed bid cannot be changed, and acting again is refused with the reason
    before = state.to_dict()
    with pytest.raises(merchantry.IllegalAction, match="already sealed"):
        state.apply(0, "add EUR20")
    assert state.to_dict() == before
    bid_round_rest = [["GBP20"], ["AUD20"], ["BRL20"]]
    for p, cards in enumerate(bid_round_rest, 1):
        seal(state, p, cards)
    view = state.view(3)
    assert view["phase"] == "exchange"
    assert view["seats"][0]["bid"] == ["USD60", "COIN"]


def test_mo_r1_a_bid_may_hold_every_card_of_the_hand():
    state = four_player_table()
    seal(state, 0, ["EUR20", "EUR30", "USD60", "COIN", "BLUFF"])
    assert state.hands[0] == ()
    bid_round_rest = [["GBP20"], ["AUD20"], ["BRL20"]]
    for p, cards in enumerate(bid_round_rest, 1):
        seal(state, p, cards)
    assert state.view(0)["seats"][0]["bid_value"] == 120
    assert state.view(0)["hand"] == ["BLUFF"]


def test_mo_r1_a_card_goes_back_into_the_hand_before_the_bid_is_sealed():
    state = four_player_table()
    hand_before = sorted(state.hands[0])
    for move in ("add EUR20", "add EUR30", "add BLUFF", "remove EUR20", "remove BLUFF"):
        state.apply(0, move)
    assert state.view(0)["my_bid"] == ["EUR30"] and "BLUFF" in state.view(0)["hand"]
    assert "remove EUR30" in [str(a) for a in state.legal_actions(0)]
    with pytest.raises(merchantry.IllegalAction, match="holds no EUR20"):
        state.apply(0, "remove EUR20")
    state.apply(0, "remove EUR30")
    assert sorted(state.hands[0]) == hand_before  # the very cards, serials included
    state.apply(0, "add EUR30")
    state.apply(0, "bid")
    assert not any(str(a).startswith("remove") for a in state.legal_actions(0))  # sealed is sealed


def test_mo_r1_the_kept_bidding_lists_follow_the_hand_and_bid_however_they_change():
    """Bidding keeps each seat's `add` and `remove` lists and the unsealed seats (rules.py) instead of
    listing them on every call: every step of seeded random bidding, a clone moving on alone, a hand
    replaced from outside and a rebuilt state list exactly what a state listing afresh (from_dict) lists."""
    rng = random.Random(5)
    state = GAME.new_game(players=4, seed=3)
    for _ in range(300):
        seat = state.to_act()[0]
        fresh = GAME.from_dict(state.to_dict())
        assert state.to_act() == fresh.to_act()
        assert state.legal_actions(seat) == fresh.legal_actions(seat)
        twin = state.clone()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if twin.phase == 0:  # the clone shares the kept lists, then takes a step of its own
            twin.apply(seat, twin.legal_actions(seat)[-2])
            assert twin.legal_actions(seat) == GAME.from_dict(twin.to_dict()).legal_actions(seat)
        if state.is_over():
            break
    bidding = GAME.new_game(players=3, seed=8)
    bidding.legal_actions(0)
    hands = bidding.hands  # tests arrange hands this way: here a card of each of two hands swapped
    hands[0], hands[1] = hands[0][1:] + hands[1][:1], hands[1][1:] + hands[0][:1]
    assert bidding.legal_actions(0) == GAME.from_dict(bidding.to_dict()).legal_actions(0)


def test_mo_r1_a_bid_built_with_take_backs_is_said_as_the_bid_sealed():
    """The analysis shows a whole move as its player would say it: a sealed bid without the cards put in
    and taken back out (a newcomer of issue 32 read "add BRL50, add EUR40, add CAD30, remove CAD30, bid")."""
    state = four_player_table()
    fiddled = ["add EUR20", "add EUR30", "add BLUFF", "remove EUR20", "add EUR20", "remove BLUFF", "bid"]
    steps = []
    trial = state.clone()
    for text in fiddled:
        steps.append(GAME.parse_action(trial, 0, text))
        trial.apply(0, steps[-1])
    net = state.net_move(0, steps)
    assert [str(a) for a in net] == ["add EUR30", "add EUR20", "bid"]
    short = state.clone()
    for step in net:
        short.apply(0, step)
    assert short.bids == trial.bids and sorted(short.hands[0]) == sorted(trial.hands[0])  # the same bid
    plain = [GAME.parse_action(state, 0, text) for text in ("add EUR20", "bid")]
    assert state.net_move(0, plain) == plain  # nothing taken back: the move as played


def test_mo_r2_bluff_card_returns_and_a_bid_without_value_sits_out():
    state = four_player_table()
    bid_round(state, [["BLUFF", "EUR30"], ["BLUFF"], [], ["BRL20"]])
    assert not any(state.bluff_bid)
    assert state.view(0)["hand"].count("BLUFF") == 1
    assert state.order == [0, 3]  # P2 (bluff only) and P3 (nothing) sit out
    assert state.acted[1] and state.acted[2]
    log = log_lines(state.view(None))
    assert "P2 sits out" in log and "P3 sits out" in log
    assert state.view(None)["seats"][0]["bid"] == ["EUR30"]


def test_mo_r2_a_bid_bluff_card_is_in_the_bid_not_the_hand_until_the_reveal():
    """A lesson's page showed the bluff card in the hand and in the bid once it was bid: the view's hand
    always ended with it."""
    state = four_player_table()
    state.apply(0, "add BLUFF")
    mine = state.view(0)
    assert mine["my_bid"] == ["BLUFF"] and "BLUFF" not in mine["hand"]
    state.apply(0, "remove BLUFF")
    assert state.view(0)["hand"].count("BLUFF") == 1 and state.view(0)["my_bid"] == []
    bid_round(state, [["BLUFF", "EUR30"], ["BLUFF"], [], ["BRL20"]])
    assert state.view(0)["hand"].count("BLUFF") == 1  # back at the reveal


def test_mo_r3_bid_value_is_the_sum_of_face_values():
    state = four_player_table()
    bid_round(state, [["EUR30", "COIN"], ["GBP20", "GBP30"], ["AUD20"], ["BRL20"]])
    seats = state.view(None)["seats"]
    assert [s["bid_value"] for s in seats] == [40, 50, 20, 20]


def test_mo_r4_highest_bid_acts_first_then_the_next_highest():
    state = four_player_table()
    bid_round(state, [["EUR30"], ["GBP20", "GBP30"], ["CAD50", "AUD30"], ["BRL20"]])
    assert state.order == [2, 1, 0, 3]
    assert state.to_act() == [2]
    state.apply(2, "take right")
    assert state.to_act() == [1]
    state.apply(1, "keep")
    assert state.to_act() == [0]


def test_mo_r5_tied_bids_go_to_the_bid_with_the_lowest_serial():
    state = four_player_table()
    bid_round(state, [["EUR20"], ["GBP20"], ["AUD20"], ["BRL20"]])
    lowest = sorted(range(4), key=lambda p: min(state.bids[p]))
    assert state.order == lowest
    # serials are what decides, not seat order
    assert lowest != [0, 1, 2, 3] or min(state.bids[0]) < min(state.bids[1])


def test_mo_r5_adding_a_duplicate_note_uses_the_lowest_serial_copy():
    state = arrange(hands=[["EUR20", "EUR20", "EUR20"], [], [], []])
    lowest = min(state.hands[0])
    state.apply(0, "add EUR20")
    assert state.bids[0] == (lowest,)
    assert state.view(0)["hand_serials"] == sorted(c + 1 for c in state.hands[0])


def test_mo_r6_take_a_market_group_and_leave_the_bid_in_its_place_counts_need_not_match():
    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20"], [], []])
    state.apply(0, "take right")
    assert hand_codes(state, 0) == sorted(["EUR20", "EUR30", "COIN", "USD20", "USD30", "USD40", "USD50"])
    assert state.view(None)["market"]["right"] == ["USD60"]  # one card where four were


def test_mo_r6_take_another_players_bid_and_put_own_bid_in_front_of_them():
    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20", "GBP30"], [], []])
    assert state.order == [0, 1]
    state.apply(0, "take P2")
    assert "GBP20" in hand_codes(state, 0) and "GBP30" in hand_codes(state, 0)
    assert state.view(None)["seats"][1]["bid"] == ["USD60"]


def test_mo_r6_take_own_bid_back_without_exchange():
    state = four_player_table()
    bid_round(state, [["USD60", "COIN"], [], [], []])
    state.apply(0, "keep")
    assert hand_codes(state, 0) == sorted(["EUR20", "EUR30", "USD60", "COIN"])
    assert state.view(None)["market"]["right"] == ["USD20", "USD30", "USD40", "USD50"]


def test_mo_r6_only_bids_of_players_who_have_not_acted_can_be_taken():
    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20", "GBP30"], ["AUD20"], []])
    state.apply(0, "take right")  # P1 acts; nobody took P1's bid
    assert state.to_act() == [1]
    legal = [str(a) for a in state.legal_actions(1)]
    assert legal == ["take right", "take left", "take P3", "keep"]
    before = state.to_dict()
    with pytest.raises(merchantry.IllegalAction, match="no bid on the table"):
        state.apply(1, "take P1")
    with pytest.raises(merchantry.IllegalAction, match="no bid on the table"):
        state.apply(1, "take P4")  # P4 sat out
    with pytest.raises(merchantry.IllegalAction, match="use 'keep'"):
        state.apply(1, "take P2")
    with pytest.raises(merchantry.IllegalAction, match="P2's turn"):
        state.apply(2, "keep")
    assert state.to_dict() == before


def test_mo_r7_the_player_whose_bid_was_taken_acts_next_and_swaps_may_chain():
    state = four_player_table()
    bid_round(state, [["USD60", "COIN"], ["GBP20"], ["AUD20"], ["BRL30", "BRL20"]])
    assert state.order[:2] == [0, 3]
    state.apply(0, "take P4")  # P1 takes P4's bid: P4 acts next, with P1's cards in front of them
    assert state.to_act() == [3]
    assert state.view(None)["seats"][3]["bid"] == ["USD60", "COIN"]
    state.apply(3, "take P2")  # and P4 takes P2's bid in turn, leaving P1's cards with P2
    assert state.to_act() == [1]
    assert state.view(None)["seats"][1]["bid"] == ["USD60", "COIN"]
    state.apply(1, "keep")
    assert "USD60" in hand_codes(state, 1)
    assert state.to_act() == [2]  # back to the order of the bids
    state.apply(2, "take left")
    assert state.phase == 0 and state.round == 2


def test_mo_r8_refill_right_then_left_up_to_four_a_full_group_gets_none():
    state = four_player_table()
    bid_round(state, [["USD60", "EUR20", "EUR30", "COIN"], ["GBP20"], [], []])
    top = state.deck[-3:][::-1]
    state.apply(0, "take right")  # right now holds the 4 bid cards: no refill
    state.apply(1, "take left")  # left now holds 1 card: 3 more
    assert state.view(None)["market"]["right"] == ["EUR20", "EUR30", "USD60", "COIN"]
    assert state.market[1][1:] == top

    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20", "GBP30"], [], []])
    top = state.deck[-5:][::-1]
    state.apply(0, "take right")
    state.apply(1, "take left")
    # right (1 card) is filled first with the top three cards, then left (2 cards) with the next two
    assert state.market[0][1:] == top[:3]
    assert state.market[1][2:] == top[3:5]
    assert "Market refilled: right +3, left +2; " in " ".join(log_lines(state.view(None)))


def test_mo_e1_the_round_after_the_refill_that_empties_the_deck_is_the_last():
    state = arrange(
        hands=[["EUR20", "EUR30"], ["GBP20"], ["AUD20"], ["BRL20"]],
        right=["USD20", "USD30", "USD40", "USD50"],
        left=["GBP40", "GBP50", "GBP60", "COIN"],
        deck_size=3,
    )
    bid_round(state, [["EUR30"], ["GBP20"], [], []])
    state.apply(0, "take right")
    state.apply(1, "take left")
    # the refill needed 3 + 3 cards and the deck had 3: right is full, left keeps its 1 card
    assert state.deck == () and state.final_round
    assert [len(g) for g in state.market] == [4, 1]
    assert "final round" in log_lines(state.view(None))[-1]
    assert not state.is_over()
    bid_round(state, [["EUR20"], [], [], []])  # the final round is played with what is there
    state.apply(0, "take left")
    assert state.is_over()
    assert state.to_act() == []


def test_mo_e1_a_refill_that_uses_the_last_card_exactly_also_makes_the_last_round():
    state = arrange(
        hands=[["EUR20"], ["GBP20"], [], []],
        right=["USD20", "USD30", "USD40", "USD50"],
        left=["GBP40", "GBP50", "GBP60", "COIN"],
        deck_size=3,
    )
    bid_round(state, [["EUR20"], [], [], []])
    state.apply(0, "take right")  # right: 1 card, takes the 3 cards left in the deck
    assert state.final_round and state.deck == ()
    assert [len(g) for g in state.market] == [4, 4]


def test_mo_e1_a_round_that_needs_no_refill_leaves_the_deck_and_the_game_goes_on():
    state = arrange(
        hands=[["EUR20"], [], [], []],
        right=["USD20", "USD30", "USD40", "USD50"],
        left=["GBP40", "GBP50", "GBP60", "COIN"],
        deck_size=4,
    )
    bid_round(state, [[], [], [], []])
    assert not state.final_round and len(state.deck) == 4 and state.round == 2


def test_mo_e2_max_rounds_ends_and_scores_the_game():
    state = GAME.new_game(players=3, seed=2, max_rounds=2)
    for _ in range(2):
        bid_round(state, [[], [], []])
    assert state.is_over() and state.round == 2
    assert state.scores() == [float(state.hand_score(p)) for p in range(3)]
    assert "MO-E2" in GAME.options()["max_rounds"][1]


def test_mo_e3_a_currency_below_200_loses_100_never_below_zero():
    assert money.score_hand(["EUR60", "EUR50", "EUR40", "EUR30"]) == 80  # 180 - 100
    assert money.score_hand(["EUR60"]) == 0  # 60 - 100 -> 0, not negative
    assert money.score_hand(["EUR60", "EUR50", "EUR40", "EUR30", "EUR20"]) == 200  # 200: no penalty


def test_mo_e4_trio_bonus_after_the_penalty():
    assert money.score_hand(["EUR20", "EUR20", "EUR20"]) == 100  # 60 -> 0, + 100
    assert money.score_hand(["EUR30", "EUR30", "EUR30"]) == 100  # 90 -> 0, + 100
    assert money.score_hand(["EUR20", "EUR20", "EUR30", "EUR30"]) == 0  # no complete trio
    both = ["GBP20"] * 3 + ["GBP30"] * 3
    assert money.score_hand(both) == 50 + 200  # 150 - 100, two trios


def test_mo_e5_coins_always_score_ten_and_are_no_currency():
    assert money.score_hand(["COIN"] * 6) == 60
    assert money.score_hand(["COIN"] * 6 + ["EUR60"]) == 60  # the euro is penalised, coins are not
    assert money.score_hand(["BLUFF"]) == 0
    breakdown = money.score_breakdown(["COIN", "EUR60"])
    assert breakdown.coins == 10 and [c.currency for c in breakdown.currencies] == ["EUR"]


def test_mo_e6_highest_total_wins_and_ties_share_the_win():
    state = arrange(players=3, hands=[["EUR20"] * 3, ["GBP20"] * 3, ["COIN"]], max_rounds=1)
    bid_round(state, [[], [], []])
    assert state.scores() == [100, 100, 10]
    assert state.winners() == [0, 1]


def test_mo_e6_a_match_of_three_games_adds_the_scores():
    state = GAME.new_game(players=3, seed=4, match_games=3, max_rounds=1)
    first_hands = [h[:] for h in state.hands]
    per_game = []
    for game_no in range(3):
        assert state.view(None)["match"] == {"game": game_no + 1, "of": 3}
        per_game.append([state.hand_score(p) for p in range(3)])
        bid_round(state, [[], [], []])
    assert state.is_over()
    assert state.scores() == [sum(g[p] for g in per_game) for p in range(3)]
    assert len(state.view(None)["results"]) == 3
    assert state.view(None)["results"][0]["hands"][0]["hand"] == [
        *sorted((CARD_CODES[c] for c in first_hands[0]), key=money.components.display_key),
        "BLUFF",
    ]


def test_mo_i1_the_hands_shown_at_the_end_are_the_cards_counted_with_the_bluff_card():
    state = GAME.new_game(players=4, seed=11, max_rounds=1)
    bid_round(state, [[], [], [], []])
    assert state.is_over()
    view = state.view(None)
    for info, result in zip(view["seats"], view["results"][-1]["hands"], strict=True):
        assert len(result["hand"]) == info["hand_size"]  # the count shown is the cards shown
        assert result["hand"].count("BLUFF") == 1
        assert Counter(result["hand"]) == Counter([*codes(list(state.hands[info["seat"]])), "BLUFF"])


# --- worked examples --------------------------------------------------------------------------------


def test_mo_x1_worked_example_scores_450():
    hand = (
        ["EUR20"] * 3
        + ["JPY20"]
        + ["JPY30"] * 3
        + ["USD20", "USD30", "USD30", "USD40", "USD50", "USD60", "COIN"]
    )
    assert money.score_hand(hand) == 450
    by_currency = {c.currency: c.score for c in money.score_breakdown(hand).currencies}
    assert by_currency == {"EUR": 100, "JPY": 110, "USD": 230}


def test_mo_x2_all_nine_notes_of_one_currency_score_500():
    assert money.score_hand(["CAD20"] * 3 + ["CAD30"] * 3 + ["CAD40", "CAD50", "CAD60"]) == 500


def test_score_hand_rejects_cards_that_do_not_exist():
    with pytest.raises(merchantry.IllegalAction, match="not a Money card"):
        money.score_hand(["EUR25"])
    with pytest.raises(merchantry.IllegalAction, match="only 1 exist"):
        money.score_hand(["EUR60", "EUR60"])


# --- information ------------------------------------------------------------------------------------


def test_mo_i1_hands_hidden_sizes_public_public_exchanges_known_to_all():
    state = four_player_table()
    spectator = state.view(None)
    assert "hand" not in spectator
    assert [s["hand_size"] for s in spectator["seats"]] == [5, 4, 4, 4]
    bid_round(state, [["USD60"], [], [], []])
    state.apply(0, "take right")
    for viewer in (1, None):
        seat0 = state.view(viewer)["seats"][0]
        assert seat0["known"] == ["USD20", "USD30", "USD40", "USD50"]
        assert seat0["hand_size"] == 8
    # a sampled world for another seat keeps those cards where everyone saw them go
    world = state.sample_hidden(1, random.Random(5))
    assert Counter(hand_codes(world, 0)) >= Counter(["USD20", "USD30", "USD40", "USD50"])
    # once the cards are bid (and revealed) they are no longer known to be in hand
    seal(state, 0, ["USD20"])
    assert state.view(1)["seats"][0]["known"] == ["USD20", "USD30", "USD40", "USD50"]  # still sealed
    for p in (1, 2, 3):
        seal(state, p, [])
    assert state.view(1)["seats"][0]["known"] == ["USD30", "USD40", "USD50"]


def test_mo_i1_sample_hidden_redeals_only_unseen_cards():
    state = four_player_table()
    seal(state, 1, ["GBP20"])
    rng = random.Random(1)
    worlds = [state.sample_hidden(0, rng) for _ in range(10)]
    for world in worlds:
        assert world.view(0) == state.view(0)
        assert world.hands[0] == state.hands[0]
        assert world.market == state.market
    assert any(w.hands[1] + w.bids[1] != state.hands[1] + state.bids[1] for w in worlds)
    assert any(w.deck != state.deck for w in worlds)


def test_bad_notation_is_refused_with_the_move_format():
    state = four_player_table()
    with pytest.raises(merchantry.IllegalAction, match="moves look like"):
        GAME.parse_action(state, 0, "buy EUR20")
    with pytest.raises(merchantry.IllegalAction, match="no seat P5"):
        GAME.parse_action(state, 0, "take P5")
    with pytest.raises(merchantry.IllegalAction, match="no EUR40 in hand"):
        state.apply(0, "add EUR40")
    with pytest.raises(merchantry.IllegalAction, match="not a seat"):
        state.apply(7, "bid")
    assert str(GAME.parse_action(state, 0, "  ADD   eur20 ")) == "add EUR20"


# --- found by mutation testing (docs/testing.md) ------------------------------------------------------


def test_mo_r7_robbed_bidder_acts_next_even_out_of_bid_order():
    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20", "GBP30"], ["AUD20"], []])
    assert state.order == [0, 1, 2]
    state.apply(0, "take P3")  # P3 bid least: by bid order P2 would be next, but P3 was robbed
    assert state.to_act() == [2] and state.view(None)["current"] == 2
    assert [str(a) for a in state.legal_actions(2)] == ["take right", "take left", "take P2", "keep"]
    assert state.legal_actions(1) == []
    state.apply(2, "keep")  # P3 takes back the cards P1 left there
    assert "USD60" in hand_codes(state, 2)
    assert state.to_act() == [1]  # then the bid order goes on


def test_mo_r6_the_exchange_step_allows_only_the_three_options():
    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20"], [], []])
    before = state.to_dict()
    for move in ("bid", "add EUR20", "remove USD60"):
        with pytest.raises(merchantry.IllegalAction, match="P1 must exchange: take right, take left"):
            state.apply(0, move)
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []  # only the bidder to act
    assert state.to_dict() == before


def test_mo_r6_an_empty_market_group_cannot_be_taken():
    state = arrange(hands=[["EUR20"], [], [], []], right=["USD20"], left=[])
    bid_round(state, [["EUR20"], [], [], []])
    assert [str(a) for a in state.legal_actions(0)] == ["take right", "keep"]
    with pytest.raises(merchantry.IllegalAction, match="the left market group is empty"):
        state.apply(0, "take left")


def test_mo_r6_the_takers_bid_is_gone_from_the_table_and_the_state_still_saves():
    from merchantry.games.money.actions import TAKE_BID

    state = four_player_table()
    bid_round(state, [["USD60"], ["GBP20", "GBP30"], ["AUD20"], []])
    with pytest.raises(merchantry.IllegalAction, match="there is no seat P5 in this game"):
        state.apply(0, TAKE_BID[4])  # a hand-made action for a seat the table lacks
    state.apply(0, "take P2")
    assert state.to_dict()["bids"][0] == []
    assert GAME.from_dict(state.to_dict()).view(None) == state.view(None)
    state.apply(1, "keep")  # P3 is still to act: the kept bid is gone from the table
    assert state.to_act() == [2]
    assert state.to_dict()["bids"][1] == [] and GAME.from_dict(state.to_dict()).view(1) == state.view(1)


def test_mo_r1_refusals_say_who_has_sealed_and_whom_the_table_waits_for():
    state = four_player_table()
    state.apply(0, "add BLUFF")
    assert state.view(0)["my_bid"] == ["BLUFF"]  # the bluff card shows in the bid being built
    with pytest.raises(merchantry.IllegalAction, match="bluff card is already in the bid"):
        state.apply(0, "add BLUFF")
    state.apply(0, "bid")
    state.apply(2, "bid")
    with pytest.raises(
        merchantry.IllegalAction, match="^P1 has already sealed a bid this round; waiting for P2, P4$"
    ):
        state.apply(0, "add EUR20")


def test_mo_e2_a_finished_game_refuses_every_move():
    state = GAME.new_game(players=3, seed=2, max_rounds=1)
    bid_round(state, [[], [], []])
    assert state.is_over() and state.legal_actions(0) == []
    with pytest.raises(merchantry.IllegalAction, match="^the game is over$"):
        state.apply(0, "bid")


def test_mo_s1_later_deals_of_a_match_are_seeded_too():
    def second_deal() -> list[tuple[int, ...]]:
        state = GAME.new_game(players=3, seed=8, match_games=2, max_rounds=1)
        bid_round(state, [[], [], []])
        assert state.match_index == 1
        return [state.hands[p] for p in range(3)] + [state.deck]

    assert second_deal() == second_deal()


@pytest.mark.parametrize("games", [2, 3])
def test_mo_e6_the_log_numbers_each_game_of_a_match(games):
    state = GAME.new_game(players=3, seed=4, match_games=games, max_rounds=1)
    for _ in range(games):
        bid_round(state, [[], [], []])
    deals = [e for e in state.view(None)["log"] if e["type"] in ("deal", "match_deal")]
    assert [(e["type"], e["game"], e["new_round"]) for e in deals] == [
        ("match_deal", g, 1) for g in range(1, games + 1)
    ]
    lines = log_lines(state.view(None))
    assert lines[0].startswith("Game 1: cards dealt; currencies removed: ")
    assert [line.split(":")[0] for line in lines if " over:" in line] == [
        f"Game {g} over" for g in range(1, games + 1)
    ]
    single = GAME.new_game(players=3, seed=4, max_rounds=1)
    assert [(e["type"], e["game"]) for e in single.view(None)["log"]] == [("deal", 1)]
    bid_round(single, [[], [], []])
    words = log_lines(single.view(None))
    assert words[0].startswith("Cards dealt; currencies removed: ")  # a sentence, and no game number
    assert words[-1].startswith("Game over: P1 ") and single.view(None)["log"][-1]["type"] == "deal_scored"


def test_mo_i1_the_public_log_opens_each_round():
    state = GAME.new_game(players=3, seed=4)
    assert state.view(None)["log"][0]["new_round"] == 1
    bid_round(state, [[], [], []])
    bid_round(state, [[], [], []])
    revealed = [e for e in state.view(None)["log"] if e["type"] == "bids_revealed"]
    assert revealed == [
        {"type": "bids_revealed", "round": 1},
        {"type": "bids_revealed", "round": 2, "new_round": 2},
    ]


def test_mo_c4_the_terminal_shows_each_hand_card_with_its_serial():
    from merchantry.games.money.components import CARD_CODES
    from merchantry.games.money.terminal import hand_by_currency

    view = merchantry.games.get("money").new_game(players=3, seed=1).view(0)
    shown = hand_by_currency(view["hand"], view["hand_serials"])
    for code, serial in zip(view["hand"], view["hand_serials"], strict=False):
        assert CARD_CODES[serial - 1] == code  # the serial is that card's (FRED 001 is serial 1)
        assert f"{code}[/][dim]#{serial}[/]" in shown
    assert "BLUFF" in shown and "BLUFF[/][dim]#" not in shown  # a bluff card has no serial


def test_mo_r1_the_analysis_labels_a_sealed_bid_with_the_round_it_is_made_in():
    # the log opens round 2 only at its reveal, after the bids: labelled by the log a bid of round 2 read
    # "round 1" in the analysis
    from merchantry.bots.analysis import round_of

    state = GAME.new_game(players=3, seed=4)
    assert round_of(state) == 1
    bid_round(state, [[], [], []])
    assert not any(e.get("new_round") == 2 for e in state.view(None)["log"])  # the log has not opened it yet
    assert round_of(state) == 2


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's module")
@pytest.mark.parametrize("language", ["en", "de"])
def test_mo_r5_the_pages_order_line_keeps_every_tied_bids_deciding_serial_to_the_end_of_the_exchange(
    language, tmp_path
):
    """The page's exchange order said each tied seat's serial only while that seat was still to exchange
    ("1. P2 (20) → 2. P4 (20, Seriennr. 41)" once P2 had gone), and after a take the serial of the bid now
    in front of a seat, not the one that decided: every tied seat's deciding serial stays on the line, the
    module run as the page runs it, view after view."""
    state = arrange(
        hands=[["EUR20"], ["GBP20"], ["AUD20"], ["BRL20"]], right=["USD60", "CAD60"], left=["EUR60", "GBP60"]
    )
    bid_round(state, [["EUR20"], ["GBP20"], ["AUD20"], ["BRL20"]])
    deciding = {p: min(state.bids[p]) + 1 for p in range(4)}  # MO-R5: the lowest serial in each bid
    first, second = state.order[0], state.order[1]
    views = [state.view(None)]
    state.apply(first, f"take P{second + 1}")  # the first takes the second's bid: the second now holds its
    views.append(state.view(None))
    state.apply(second, "take right")
    views.append(state.view(None))
    tr = Translator("money", language)
    words = {key: tr.ui(key) for key in ("serial", "order", "colon", "tieRule")}
    source = (resources.files("merchantry.games.money") / "static" / "drawing.js").read_text(encoding="utf-8")
    stub = (
        "const h = (tag, attrs, ...children) => ({ children: children.flat(Infinity) });\n"
        "const seatLabel = (s) => `P${s + 1}`; const seatName = seatLabel;\n"
    )
    module = tmp_path / "drawing.mjs"
    module.write_text(
        source.replace('import { h, seatLabel, seatName } from "/static/dom.js";', stub)
        + "\nexport { exchangeOrder };\n",
        encoding="utf-8",
    )
    script = f"""
        const {{ exchangeOrder }} = await import({json.dumps(module.as_uri())});
        const words = {json.dumps(words)};
        const text = (n) => (n === null || n === undefined || n === false ? ""
          : typeof n === "object" ? n.children.map(text).join("") : String(n));
        for (const view of {json.dumps(views)}) console.log(text(exchangeOrder(view, (k) => words[k])));
    """
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    lines = out.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        for p in range(4):
            assert f"P{p + 1} (20, {words['serial']} {deciding[p]})" in line, line
    assert lines[-1].index(f"P{first + 1} ") < lines[-1].index(f"P{second + 1} ")


def test_mo_r1_a_seats_chance_of_a_bid_is_the_same_before_and_after_the_others_seal_theirs():
    """Issue 32, fifteenth pass: a hint asked again after a bot sealed its bid gave the same bid 4% and then
    53%. Sealing tells the seat nothing of the bid (MO-R1), but the searches' worlds drew a sealed bid at
    random from the seat's sampled cards, while their play-outs bid for an unsealed seat as the greedy bot:
    over these 16 deals the chance of P1's bid rose by 10.5 points on average once P2 and P3 had sealed.
    The worlds the searches play in (`bots.worlds.sampled_world`) now have a sealed bid made again by the
    greedy bot (the package's `hidden_model`): the same on average, within the play-outs' noise."""
    from merchantry import bots, records
    from merchantry.bots import analysis

    search = analysis.searcher("money", analysis.analysis_recipe("money"))
    greedy = bots.get("greedy", "money")
    rises = []
    for seed in range(16):
        state = records.Session("money", 3, seed=seed).state
        rng = random.Random(seed)
        bid, mine = [], state.clone()
        while not mine.committed[0]:
            bid.append(greedy.choose(mine, 0, rng))
            mine.apply(0, bid[-1])
        sealed = state.clone()
        for other in (1, 2):
            while not sealed.committed[other]:
                sealed.apply(other, greedy.choose(sealed, other, rng))
        chances = []
        for position in (state, sealed):
            outcome = analysis.play_outs(position, 0, [bid], search, random.Random(1), 64)[0]
            chances.append(sum(shares[0] for shares in outcome) / len(outcome))
        rises.append(chances[1] - chances[0])
    assert abs(sum(rises) / len(rises)) < 0.04, rises


def test_mo_r1_a_sealed_bid_reopens_only_when_sealed_its_cards_back_in_the_hand():
    """`reopen_bid`, for the searches' model of a sealed bid in a sampled world: the bid's cards go back to
    the hand and the seat is to bid again; an unsealed bid cannot be reopened."""
    state = money.GAME.new_game(players=3, seed=2)
    with pytest.raises(ValueError, match="no sealed bid"):
        state.reopen_bid(1)
    held = hand_codes(state, 1)
    seal(state, 1, held[:2])
    assert state.committed[1] and 1 not in state.to_act() and hand_codes(state, 1) == held[2:]
    state.reopen_bid(1)
    assert not state.committed[1] and 1 in state.to_act() and state.bids[1] == ()
    assert hand_codes(state, 1) == held
