"""Grand Bazaar rules, one test (or more) per clause of ../shared/rules/grand_bazaar.md."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import resources

import pytest

import merchantry
from merchantry.games import grand_bazaar
from merchantry.games.grand_bazaar.components import PRICE_CARDS
from merchantry.games.grand_bazaar.rules import BazaarState
from merchantry.i18n import log_lines

GAME = grand_bazaar.GAME
SAPPHIRE, RUBY, EMERALD = 0, 1, 2


def game_with_top_card(players: int, card: tuple[int, int, int], seed: int = 0) -> BazaarState:
    """A new game whose first revealed price card is `card`."""
    for s in range(seed, seed + 10_000):
        state = GAME.new_game(players=players, seed=s)
        if PRICE_CARDS[state.revealed[0]] == card:
            return state
    raise AssertionError("no seed reveals that card first")


def arranged(state: BazaarState, **fields: object) -> BazaarState:
    """The same position with some fields changed, rebuilt by from_dict (which checks that it adds up);
    a dict changes only the seats it names."""
    data = state.to_dict()
    for name, value in fields.items():
        if isinstance(value, dict):
            data[name] = [value.get(seat, old) for seat, old in enumerate(data[name])]
        else:
            data[name] = value
    return GAME.from_dict(data)


def play_turn(state: BazaarState, *moves: str) -> None:
    for move in moves:
        state.apply(state.current, move)


def legal(state: BazaarState) -> list[str]:
    return [str(a) for a in state.legal_actions(state.current)]


# --- components and setup ---------------------------------------------------------------------------


def test_gb_c1_three_gem_types_ten_cards_each_in_the_bazaar():
    state = GAME.new_game(players=3, seed=1)
    assert state.view(None)["gems"] == ["sapphire", "ruby", "emerald"]
    assert state.stock == (10, 10, 10)


def test_gb_c2_every_price_starts_at_ten():
    state = GAME.new_game(players=3, seed=1)
    assert state.view(None)["price_history"][0] == [10, 10, 10]


def test_gb_c3_price_deck_is_every_combination_once_as_data():
    data = json.loads(
        resources.files("merchantry.games.grand_bazaar").joinpath("data", "price_cards.json").read_text()
    )
    cards = [tuple(card) for card in data["cards"]]
    assert len(cards) == 27 and len(set(cards)) == 27
    assert all(change in (-1, 0, 1) for card in cards for change in card)
    for gem in range(3):
        assert Counter(card[gem] for card in cards) == {-1: 9, 0: 9, 1: 9}


def test_gb_c3_prices_stay_within_1_and_19():
    for seed in range(30):
        state = GAME.new_game(players=2, seed=seed)
        history = state.price_history()
        while not state.is_over():
            state.apply(state.current, random.Random(seed).choice(state.legal_actions(state.current)))
        history = state.price_history()
        assert all(1 <= price <= 19 for prices in history for price in prices)


def test_gb_c4_amounts_are_whole_grands_and_the_bank_never_runs_out():
    state = GAME.new_game(players=7, seed=2)
    rng = random.Random(2)
    while not state.is_over():
        state.apply(state.current, rng.choice(state.legal_actions(state.current)))
    assert all(isinstance(c, int) and c >= 0 for c in state.cash)


def test_gb_s1_each_player_starts_with_30_grands_and_no_gems():
    state = GAME.new_game(players=5, seed=3)
    assert state.cash == (30,) * 5
    assert state.gems == ((0, 0, 0),) * 5
    assert len(state.deck) == 26 and len(state.revealed) == 1  # round 1's card is already turned


def test_gb_s2_seat_zero_is_player_one_and_opens_round_one():
    state = GAME.new_game(players=4, seed=3)
    assert state.opener() == 0 and state.to_act() == [0]
    assert "Round 1: P1 reveals" in log_lines(state.view(None))[0]


def test_a_price_cards_fall_reads_with_the_minus_sign_in_the_log_as_on_its_panel():
    """Issue 32, twelfth pass: the log wrote a card "+1 -1 0" (a hyphen) where the price cards' panel and
    the tracks write "−1". Every language's log line writes the minus sign; the event keeps its text."""
    state = GAME.new_game(players=3, seed=4)
    finish(state, random.Random(4))
    lines = [line for line in log_lines(state.view(None)) if "reveals" in line]
    falls = [line for line in lines if "\u22121" in line]
    assert falls and not any(" -1" in line for line in lines), lines[:3]
    assert any("-1" in event.get("card", "") for event in state.view(None)["log"])  # the record as it was


# --- rounds -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_gb_r1_round_r_is_opened_by_player_r_mod_n(players):
    state = GAME.new_game(players=players, seed=4)
    finish(state, random.Random(4))
    reveals = [
        line.split(":")[0].split() + [line.split()[2]]
        for line in log_lines(state.view(None))
        if "reveals" in line
    ]
    openers = [(int(words[1]), int(words[2][1:]) - 1) for words in reveals]  # ("Round", r, "Pk")
    assert [r for r, _ in openers] == list(range(1, 28))
    assert all(seat == (r - 1) % players for r, seat in openers)
    if players == 2:
        assert openers[2] == (3, 0)  # round 3 is opened by player 1 again


def test_gb_r1_the_opener_reveals_the_top_card_and_every_price_moves():
    state = GAME.new_game(players=2, seed=5)
    top = state.deck[-1]
    before = state.prices
    play_turn(state, "buy ruby", "done", "buy ruby", "done")
    assert state.round == 2 and state.current == 1
    assert state.revealed[-1] == top
    assert list(state.prices) == [p + c for p, c in zip(before, PRICE_CARDS[top], strict=True)]


def test_gb_r2_players_trade_in_turn_clockwise_from_the_first_player():
    state = GAME.new_game(players=4, seed=6)
    play_turn(state, "buy ruby", "done")
    assert state.to_act() == [1]
    play_turn(state, "buy ruby", "done", "buy ruby", "done", "buy ruby", "done")
    assert state.round == 2 and state.to_act() == [1]
    play_turn(state, "buy sapphire", "done")
    assert state.to_act() == [2]


def test_gb_r3_every_turn_must_buy_at_least_one_gem():
    state = GAME.new_game(players=3, seed=7)
    assert "done" not in legal(state)
    before = state.to_dict()
    with pytest.raises(merchantry.IllegalAction, match="must buy at least one gem"):
        state.apply(0, "done")
    assert state.to_dict() == before
    play_turn(state, "buy emerald")
    assert "done" in legal(state)


def test_gb_r4_never_more_than_four_gems_sell_first_then_buy():
    state = arranged(GAME.new_game(players=2, seed=8), gems={0: [2, 2, 0]}, stock=[8, 8, 10])
    assert "buy emerald" not in legal(state)
    with pytest.raises(merchantry.IllegalAction, match="sell one before buying"):
        state.apply(0, "buy emerald")
    play_turn(state, "sell sapphire", "buy emerald")
    assert state.gems[0] == (1, 2, 1)
    assert "buy ruby" not in legal(state)  # four again


def test_gb_r5_cannot_buy_without_the_cash_or_from_an_empty_stock():
    state = GAME.new_game(players=2, seed=9)
    state = arranged(state, cash={0: state.prices[RUBY] - 1})
    assert "buy ruby" not in legal(state)
    with pytest.raises(merchantry.IllegalAction, match="costs"):
        state.apply(0, "buy ruby")
    state = arranged(state, cash={0: 100}, stock=[10, 10, 0], gems={1: [0, 0, 10]})
    with pytest.raises(merchantry.IllegalAction, match="no emerald left"):
        state.apply(0, "buy emerald")


def test_gb_r6_cannot_sell_then_buy_back_or_buy_then_sell_the_same_gem():
    state = arranged(GAME.new_game(players=2, seed=10), gems={0: [1, 0, 0]}, stock=[9, 10, 10])
    play_turn(state, "sell sapphire")
    with pytest.raises(merchantry.IllegalAction, match="cannot buy it back"):
        state.apply(0, "buy sapphire")
    play_turn(state, "buy ruby")
    with pytest.raises(merchantry.IllegalAction, match="cannot sell it"):
        state.apply(0, "sell ruby")
    play_turn(state, "done")
    # the ban lasts one round only: next turn the same player may trade sapphires again
    play_turn(state, "buy emerald", "done", "buy emerald", "done")  # P2 ends round 1 and opens round 2
    assert state.round == 2 and state.current == 0
    assert "buy sapphire" in legal(state)
    assert "sell ruby" in legal(state)


def test_gb_r7_a_turn_is_single_buys_and_sells_ended_by_done():
    state = GAME.new_game(players=2, seed=11)
    assert legal(state) == ["buy sapphire", "buy ruby", "buy emerald"]
    play_turn(state, "buy ruby", "buy ruby")
    assert state.current == 0 and state.gems[0] == (0, 2, 0)
    play_turn(state, "done")
    assert state.current == 1


def test_gb_r7_when_no_sales_could_make_a_buy_possible_the_turn_ends_without_one():
    state = arranged(GAME.new_game(players=2, seed=12), cash={0: 0})
    assert legal(state) == ["done"]
    play_turn(state, "done")
    assert state.current == 1
    assert "cannot buy anything" in log_lines(state.view(None))[-1]


def test_gb_r7_done_waits_while_a_sale_would_still_allow_a_buy():
    state = arranged(GAME.new_game(players=2, seed=13), cash={0: 0}, gems={0: [0, 1, 0]}, stock=[10, 9, 10])
    # selling the ruby pays for a sapphire or an emerald: a buy is still possible, so no "done" yet
    assert legal(state) == ["sell ruby"]
    play_turn(state, "sell ruby")
    assert "buy sapphire" in legal(state) and "buy ruby" not in legal(state) and "done" not in legal(state)


def test_gb_r7_selling_the_only_buyable_gem_type_ends_the_obligation():
    state = arranged(GAME.new_game(players=2, seed=14), gems=[[0, 4, 0], [10, 0, 10]], stock=[0, 6, 0])
    # the only gem for sale is ruby, and a sold ruby cannot be bought back: no buy can ever happen
    assert legal(state) == ["sell ruby", "done"]


def test_gb_r3_gb_r7_selling_the_gems_that_allow_a_buy_does_not_dodge_it():
    """P1 can buy an emerald; selling it would leave nothing to buy (no sapphire or ruby left in the
    bazaar, and a sold emerald cannot be bought back). That sale is refused until P1 has bought."""
    start = game_with_top_card(7, (0, 0, 0)).to_dict()
    others = [[4, 0, 0], [4, 0, 0], [2, 2, 0], [0, 4, 0], [0, 4, 0], [0, 0, 0]]
    state = GAME.from_dict(
        {**start, "gems": [[0, 0, 1], *others], "cash": [10] + [30] * 6, "stock": [0, 0, 9]}
    )
    assert state.current == 0 and state.prices == (10, 10, 10)
    assert legal(state) == ["buy emerald"]
    with pytest.raises(merchantry.IllegalAction, match="buy first"):
        state.apply(0, "sell emerald")
    with pytest.raises(merchantry.IllegalAction, match="must buy at least one gem"):
        state.apply(0, "done")
    play_turn(state, "buy emerald")
    assert legal(state) == ["done"]  # GB-R6: a gem bought this turn cannot be sold


def test_gb_r7_a_sale_that_keeps_a_buy_possible_stays_legal_before_buying():
    start = game_with_top_card(7, (0, 0, 0)).to_dict()
    others = [[4, 0, 0], [4, 0, 0], [2, 0, 0], [0, 4, 0], [0, 4, 0], [0, 0, 0]]
    state = GAME.from_dict(
        {**start, "gems": [[0, 2, 1], *others], "cash": [0] + [30] * 6, "stock": [0, 0, 9]}
    )
    # ruby is sold out to the others; P1 must sell a ruby to afford an emerald, but not the emerald,
    # which would leave nothing to buy
    assert legal(state) == ["sell ruby"]
    play_turn(state, "sell ruby", "sell ruby")
    assert legal(state) == ["buy emerald"]


# --- end and scoring --------------------------------------------------------------------------------


def finish(state: BazaarState, rng: random.Random) -> None:
    while not state.is_over():
        state.apply(state.current, rng.choice(state.legal_actions(state.current)))


def test_gb_e1_after_27_rounds_prices_are_ten_and_gems_cash_out_at_ten():
    state = GAME.new_game(players=3, seed=15)
    rng = random.Random(15)
    while not (state.round == 27 and state.turn == 2 and "done" in legal(state)):
        state.apply(state.current, rng.choice(state.legal_actions(state.current)))
    cash, gems = state.cash, [sum(g) for g in state.gems]
    assert any(gems)
    # the 27th card opened the last round: every trade in it is at 10, as the guided game's last step says
    assert state.prices == (10, 10, 10)
    state.apply(state.current, "done")  # the last turn of the last round
    assert state.is_over() and state.prices == (10, 10, 10) and state.deck == ()
    assert list(state.cash) == [c + 10 * g for c, g in zip(cash, gems, strict=True)]
    assert state.scores() == [float(c) for c in state.cash]


def test_gb_e2_most_grands_wins_and_tied_players_share_rank_and_win():
    state = GAME.new_game(players=4, seed=16)
    state.cash = (50, 70, 70, 40)
    state.over = True
    assert state.winners() == [1, 2]
    assert state.ranks() == [3, 1, 1, 4]
    assert state.view(None)["ranks"] == [3, 1, 1, 4]


# --- worked examples --------------------------------------------------------------------------------


def test_gb_x1_first_card_plus_one_minus_one_zero():
    state = game_with_top_card(3, (1, -1, 0))
    assert state.prices == (11, 9, 10)


def test_gb_x2_after_all_27_cards_every_price_is_ten():
    for seed in range(5):
        state = GAME.new_game(players=2, seed=seed)
        finish(state, random.Random(seed))
        assert state.prices == (10, 10, 10)
        assert state.price_history()[-1] == [10, 10, 10] and len(state.revealed) == 27


# --- information ------------------------------------------------------------------------------------


def test_gb_i1_everything_is_public_but_the_order_of_the_price_deck():
    state = GAME.new_game(players=3, seed=17)
    play_turn(state, "buy ruby", "done")
    spectator = state.view(None)
    assert spectator == {**state.view(1), "seat": None}
    cash = 30 - state.prices[RUBY]
    assert spectator["holdings"][0] == {"seat": 0, "gems": [0, 1, 0], "cash": cash, "worth": cash + 10}
    assert sorted(map(tuple, spectator["remaining_cards"])) == sorted(PRICE_CARDS[c] for c in state.deck)
    assert "deck" not in spectator
    worlds = [state.sample_hidden(0, random.Random(k)) for k in range(5)]
    assert all(w.view(0) == state.view(0) for w in worlds)
    assert len({tuple(w.deck) for w in worlds}) > 1
    assert all(sorted(w.deck) == sorted(state.deck) for w in worlds)


def test_bad_notation_is_refused_with_the_move_format():
    state = GAME.new_game(players=2, seed=1)
    with pytest.raises(merchantry.IllegalAction, match="buy ruby, sell emerald, done"):
        state.apply(0, "buy diamond")
    with pytest.raises(merchantry.IllegalAction, match="P1's turn"):
        state.apply(1, "buy ruby")
    assert str(GAME.parse_action(state, 0, " BUY  Ruby")) == "buy ruby"


# --- found by mutation testing (docs/testing.md) ------------------------------------------------------


def spread_prices() -> BazaarState:
    """Round 9 of 4 players, opened by P1: sapphire fell to 4 and ruby rose to 16 over the first 9 cards;
    P1 holds one sapphire and 8 grands, and the bazaar has no emerald left."""
    cards = [i for i, c in enumerate(PRICE_CARDS) if (c[SAPPHIRE], c[RUBY]) in ((-1, 1), (-1, 0), (0, 1))]
    assert len(cards) == 9
    start = GAME.new_game(players=4, seed=0)
    prices = tuple(10 + sum(PRICE_CARDS[c][g] for c in cards) for g in range(3))
    assert prices == (4, 16, 10)
    deck = [c for c in range(len(PRICE_CARDS)) if c not in cards]
    return arranged(
        start,
        revealed=cards,
        deck=deck,
        round=9,
        turn=0,
        current=0,
        prices=list(prices),
        cash=[8, 30, 30, 30],
        gems=[[1, 0, 0], [0, 0, 4], [0, 0, 4], [0, 0, 2]],
        stock=[9, 10, 0],
    )


def test_gb_r7_a_sale_counts_only_the_gems_left_after_it():
    state = spread_prices()
    # buying the sapphire is possible; after selling it (12 grands) the ruby (16) is out of reach
    assert legal(state) == ["buy sapphire"]
    with pytest.raises(
        merchantry.IllegalAction,
        match=r"^you must buy a gem this turn, and after selling sapphire you could buy none: buy first "
        r"\(GB-R3, GB-R7\)$",
    ):
        state.apply(0, "sell sapphire")
    with pytest.raises(
        merchantry.IllegalAction,
        match=r"^you must buy at least one gem this turn before you are done \(GB-R3\)$",
    ):
        state.apply(0, "done")


def test_gb_r6_only_held_gems_can_be_sold_and_only_the_player_to_act_trades():
    state = spread_prices()
    before = state.to_dict()
    with pytest.raises(merchantry.IllegalAction, match="^you have no ruby to sell$"):
        state.apply(0, "sell ruby")
    with pytest.raises(merchantry.IllegalAction, match=r"^it is P1's turn, not P2's$"):
        state.apply(1, "sell emerald")
    assert state.legal_actions(1) == [] and state.legal_actions(3) == []
    assert state.to_dict() == before


def test_gb_r5_hand_made_actions_for_no_real_gem_are_refused():
    from merchantry.games.grand_bazaar.actions import BazaarAction

    state = arranged(GAME.new_game(players=2, seed=3), gems={0: [0, 0, 2]}, stock=[10, 10, 8])
    before = state.to_dict()
    for verb in ("buy", "sell"):
        with pytest.raises(merchantry.IllegalAction) as refused:
            state.apply(0, BazaarAction(verb, -1))  # -1 would be the emerald in Python's reckoning
        assert not any(gem in str(refused.value) for gem in state.view(None)["gems"])  # it names no gem
        assert "XX" not in str(refused.value)
    assert state.to_dict() == before


def test_gb_i1_the_expected_price_moves_are_the_mean_of_the_cards_left():
    state = GAME.new_game(players=3, seed=5)
    left = [PRICE_CARDS[c] for c in state.deck]
    assert state.expected_moves() == tuple(sum(card[g] for card in left) / len(left) for g in range(3))


def test_gb_r1_the_log_opens_each_round_and_names_who_could_not_buy():
    state = arranged(GAME.new_game(players=2, seed=12), cash={0: 0})
    play_turn(state, "done")
    events = state.view(None)["log"]
    assert events[0]["type"] == "price_card" and events[0]["new_round"] == 1
    assert events[-1] == {"type": "could_not_buy", "seat": 0}


def test_gb_e1_a_finished_game_refuses_every_move():
    state = GAME.new_game(players=2, seed=1)
    rng = random.Random(2)
    while not state.is_over():
        state.apply(state.current, rng.choice(state.legal_actions(state.current)))
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    for seat in (0, 1):
        with pytest.raises(merchantry.IllegalAction, match="^the game is over$"):
            state.apply(seat, "done")


def test_the_terminal_worth_is_what_the_cash_out_would_give_now():
    import io

    from rich.console import Console

    from merchantry.games.grand_bazaar.terminal import holdings_table

    state = GAME.new_game(players=3, seed=4)
    rng = random.Random(4)
    greedy = merchantry.bots.get("greedy", "grand_bazaar")
    for _ in range(25):
        seat = state.to_act()[0]
        state.apply(seat, merchantry.bots.play_turn(state, seat, greedy, rng))
    console = Console(file=io.StringIO(), width=200, record=True, color_system=None)
    console.print(holdings_table(state.view(0)))
    rows = [line.split("│") for line in console.export_text().splitlines() if line.startswith("│")]
    assert [int(cells[-2]) for cells in rows] == list(state.worth_at_end())
    assert any(sum(gems) for gems in state.gems)  # gems held: worth is not just the cash


def _a_buy_after_some_sales(state: BazaarState) -> bool:
    """GB-R7 by brute force: try every sequence of legal single sales (GB-R6, never below 0) from this
    position and say whether one of them reaches a position where some buy is legal (GB-R4, GB-R5, GB-R6)."""
    player, seen, todo = state.current, set(), [state]
    while todo:
        here = todo.pop()
        if any(here._can_buy(player, g) for g in range(3)):
            return True
        key = (here.cash[player], here.gems[player], here.sold)
        if key in seen:
            continue
        seen.add(key)
        for g in range(3):
            if here._can_sell(player, g):
                after = here.clone()
                after.position_changed()
                after._apply(player, grand_bazaar.actions.SELL[g])  # the sale alone, not judged by GB-R7
                todo.append(after)
    return False


def test_gb_r7_the_sales_and_done_offered_agree_with_a_search_of_every_sequence_of_sales():
    """On random mid-turn positions (hands, cash, stock, prices, gems bought and sold this turn), `done` is
    offered exactly when no sequence of sales could make a buy possible, and a sale exactly when a buy is
    still possible after it (or none was required)."""
    rng = random.Random(30)
    checked = {"done": 0, "no done": 0, "sale refused": 0}
    for _ in range(400):
        state = GAME.new_game(players=3, seed=rng.randrange(1000))
        hand = tuple(rng.randint(0, 2) for _ in range(3))
        bought = tuple(rng.random() < 0.25 and hand[g] > 0 for g in range(3))
        sold = tuple(rng.random() < 0.25 and not bought[g] for g in range(3))
        state.gems = (hand, *state.gems[1:])
        state.cash = (rng.randint(0, 25), *state.cash[1:])
        state.prices = tuple(rng.randint(4, 18) for _ in range(3))
        state.stock = tuple(rng.choice((0, 1, 5)) for _ in range(3))
        state.bought, state.sold, state.bought_any = bought, sold, False
        state.position_changed()
        must_buy = _a_buy_after_some_sales(state)
        actions = [str(a) for a in state.legal_actions(0)]
        assert ("done" in actions) == (not must_buy)
        checked["no done" if must_buy else "done"] += 1
        for g, gem in enumerate(("sapphire", "ruby", "emerald")):
            if not state._can_sell(0, g):
                continue
            after = state.clone()
            after._apply(0, grand_bazaar.actions.SELL[g])
            allowed = not must_buy or _a_buy_after_some_sales(after)
            assert (f"sell {gem}" in actions) == allowed
            assert state._is_legal(0, grand_bazaar.actions.SELL[g]) == allowed
            checked["sale refused"] += not allowed
    assert min(checked.values()) > 10  # every case was met
