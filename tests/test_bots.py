"""Bots: the registry, the rule that a bot sees only a sampled world, and that greedy plays sensibly."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import merchantry
from merchantry import bots, games, simulate
from merchantry.games import money
from merchantry.games.byzanz.components import CODE_INDEX
from merchantry.games.byzanz.rules import count
from merchantry.games.grand_bazaar.components import PRICE_CARDS
from tests.games.money_helpers import arrange, bid_round, hand_codes


def test_bot_registry_lists_bots_per_game():
    levels = ["easy", "medium", "hard"]
    assert bots.names("byzanz") == [*levels, "focus", "greedy", "hoarder", "minimum", "random"]
    assert bots.names("money") == [
        *levels,
        "collector",
        "greedy",
        "highroller",
        "hoarder",
        "minimum",
        "random",
    ]
    assert bots.names("samarkand") == [
        *levels,
        "closer",
        "copycat",
        "greedy",
        "investor",
        "keeper",
        "loyal",
        "random",
    ]
    assert bots.names("grand_bazaar") == [
        *levels,
        *("closer", "copycat", "greedy", "hoarder", "minimum", "random", "speculator", "trader"),
    ]
    assert bots.get("greedy", money.GAME).name == "greedy"
    with pytest.raises(
        merchantry.UnknownBot,
        match="are: easy, medium, hard, collector, greedy, highroller, hoarder, minimum, random",
    ):
        bots.get("genius", "money")


class SpyBot:
    name = "spy"

    def __init__(self):
        self.worlds = []

    def choose(self, world, seat, rng):
        self.worlds.append(world)
        return world.legal_actions(seat)[0]


def test_a_bot_is_handed_a_sampled_world_never_the_real_state():
    state = money.GAME.new_game(players=4, seed=1)
    spy = SpyBot()
    for k in range(8):
        bots.play_turn(state, 0, spy, random.Random(k))
    assert all(world is not state for world in spy.worlds)
    assert all(world.view(0) == state.view(0) for world in spy.worlds)
    # what seat 0 cannot see differs between the worlds it is shown
    assert len({tuple(world.deck) for world in spy.worlds}) > 1
    assert any(world.hands[1] != state.hands[1] for world in spy.worlds)


def test_greedy_builds_its_bid_card_by_card_then_seals_it():
    state = arrange(
        hands=[["USD20", "USD30", "USD40", "GBP20"], ["EUR20"], ["EUR30"], ["EUR40"]],
        right=["USD50", "USD60", "USD30", "USD20"],
        left=["AUD20", "CAD20", "BRL20", "COIN"],
    )
    greedy = bots.get("greedy", "money")
    rng = random.Random(0)
    moves = []
    for _ in range(10):
        action = bots.play_turn(state, 0, greedy, rng)
        state.apply(0, action)
        moves.append(str(action))
        if action == money.actions.SEAL:
            break
    assert moves[-1] == "bid"
    assert all(m.startswith("add ") for m in moves[:-1])
    assert "GBP20" in " ".join(moves)  # it offers the card it needs least
    assert "add USD40" not in moves  # and keeps its best dollar, which the right group adds to


def test_greedy_takes_the_exchange_that_scores_best():
    state = arrange(
        hands=[["USD20", "USD30", "USD40"], ["EUR20"], ["EUR30"], ["EUR40"]],
        right=["AUD20", "CAD20", "BRL20", "COIN"],
        left=["USD50", "USD60", "USD30", "GBP20"],
    )
    bid_round(state, [["USD20"], [], [], []])
    greedy = bots.get("greedy", "money")
    action = bots.play_turn(state, 0, greedy, random.Random(0))
    assert str(action) == "take left"
    state.apply(0, action)
    assert "USD60" in hand_codes(state, 0)


def test_greedy_beats_three_random_bots_clearly():
    results, _ = simulate.run("money", ["greedy", "random", "random", "random"], 40, seed=11)
    summary = simulate.summarise("money", results, 1.0)
    assert summary.by_bot["greedy"]["win_rate"] > 0.75
    assert summary.by_bot["greedy"]["mean_score"] > 2 * summary.by_bot["random"]["mean_score"]


def test_grand_bazaar_greedy_sells_what_should_fall_and_buys_what_should_rise():
    from merchantry.games import grand_bazaar

    state = grand_bazaar.GAME.new_game(players=2, seed=3)
    # leave only cards that push sapphire down and ruby up
    state.deck = tuple(c for c in state.deck if PRICE_CARDS[c][0] < 0 and PRICE_CARDS[c][1] > 0) or state.deck
    state.gems = ((1, 0, 0), state.gems[1])
    state.stock = (9, 10, 10)
    greedy = bots.get("greedy", "grand_bazaar")
    first = bots.play_turn(state, 0, greedy, random.Random(0))
    assert str(first) == "sell sapphire"
    state.apply(0, first)
    assert str(bots.play_turn(state, 0, greedy, random.Random(0))) == "buy ruby"


def test_grand_bazaar_greedy_beats_three_random_bots_clearly():
    results, _ = simulate.run("grand_bazaar", ["greedy", "random", "random", "random"], 60, seed=3)
    summary = simulate.summarise("grand_bazaar", results, 1.0)
    assert summary.by_bot["greedy"]["win_rate"] > 0.5


def test_byzanz_greedy_beats_three_random_bots_clearly():
    results, _ = simulate.run("byzanz", ["greedy", "random", "random", "random"], 40, seed=5)
    summary = simulate.summarise("byzanz", results, 1.0)
    assert summary.by_bot["greedy"]["win_rate"] > 0.75


def test_byzanz_greedy_takes_the_market_type_that_completes_a_set_and_discards_its_least_useful_card():
    from tests.games.test_byzanz import arrange, market_round

    state = market_round()
    market = [0] * len(state.market)
    for code in ("spice1", "cloth1", "wood2"):
        market[CODE_INDEX[code]] += 1
    state.market = tuple(market)  # the state's tables are tuples (the compiled build insists)
    state.hands[1] = count([CODE_INDEX["spice4"], CODE_INDEX["spice3"]])  # Abel picks first: spice is a set
    greedy = bots.get("greedy", "byzanz")
    assert str(bots.play_turn(state, 1, greedy, random.Random(0))) == "take spice"

    state = arrange(
        4,
        [["wine1", "wine2", "wine3", "olive1"], [], [], []],
        ["cloth1", "cloth2", "cloth3", "spice1", "grain1"],
    )
    for seat in range(4):
        state.apply(seat, "pass")  # P1 takes the lot: 9 cards, over the limit
    action = bots.play_turn(state, 0, greedy, random.Random(0))
    assert action.verb == "sell"  # selling a set beats throwing cards away


def greedy_positions(seed: int):
    """Every position of a 4-player Grand Bazaar game that greedy bots play, with the seat to move."""
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot

    state = games.get("grand_bazaar").new_game(players=4, seed=seed)
    rng = random.Random(seed)
    greedy = GrandBazaarGreedyBot()
    while not state.is_over():
        seat = state.to_act()[0]
        yield state, seat
        state.apply(seat, greedy.choose(state, seat, rng))


def test_the_grand_bazaar_trader_plays_as_greedy_while_ahead_and_apart_from_it_otherwise():
    from merchantry.games.grand_bazaar.actions import SELL
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot
    from merchantry.games.grand_bazaar.trader import KEEP_ABOVE, GrandBazaarTraderBot, ahead

    trader, greedy, rng = GrandBazaarTraderBot(), GrandBazaarGreedyBot(), random.Random(0)
    same_ahead = differ_behind = sold_a_rising_gem = 0
    for seed in range(4):
        for state, seat in greedy_positions(seed):
            ours, theirs = trader.choose(state, seat, rng), greedy.choose(state, seat, rng)
            if ahead(state, seat):
                assert ours == theirs, "ahead, it plays the others' game"
                same_ahead += 1
                continue
            differ_behind += ours != theirs
            moves = state.expected_moves()
            sellable = [g for g in range(3) if SELL[g] in state.legal_actions(seat)]
            worth_little = [g for g in sellable if moves[g] < KEEP_ABOVE]
            if worth_little:  # sold, the worst first, even a gem greedy keeps (expected to rise a little)
                assert ours == SELL[min(worth_little, key=lambda g: moves[g])]
                sold_a_rising_gem += min(moves[g] for g in worth_little) >= 0
    assert same_ahead and differ_behind and sold_a_rising_gem


def bazaar_position(revealed, gems, cash, bought=(False, False, False)):
    """A 4-player Grand Bazaar position, seat 0 to trade, after the price cards `revealed` (given by their
    changes)."""
    d = games.get("grand_bazaar").new_game(players=4, seed=1).to_dict()
    shown = [PRICE_CARDS.index(card) for card in revealed]
    d |= {
        "revealed": shown,
        "deck": [card for card in range(len(PRICE_CARDS)) if card not in shown],
        "round": len(shown),
        "prices": [10 + sum(card[g] for card in revealed) for g in range(3)],
        "gems": gems,
        "cash": cash,
        "stock": [10 - sum(hand[g] for hand in gems) for g in range(3)],
        "current": 0,
        "turn": -(len(shown) - 1) % 4,  # round r is opened by seat r - 1 (GB-R1)
        "bought": list(bought),
        "bought_any": any(bought),
        "log": [],
    }
    return games.get("grand_bazaar").from_dict(d)


def test_the_grand_bazaar_speculator_reads_the_next_price_card_from_the_cards_left():
    from merchantry.games.grand_bazaar.speculator import next_card_statistics

    both_up, both_down = PRICE_CARDS.index((1, 1, 0)), PRICE_CARDS.index((-1, -1, 0))
    mean, covariance = next_card_statistics(frozenset((both_up, both_down)))
    assert mean == [0.0, 0.0, 0.0]
    # sapphire and ruby move together
    assert covariance == [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]]
    state = bazaar_position([(-1, -1, 1), (-1, 0, 1)], [[0, 0, 0]] * 4, [30] * 4)
    assert next_card_statistics(frozenset(state.deck))[0] == list(state.expected_moves())
    assert next_card_statistics(frozenset())[0] == [0.0, 0.0, 0.0]  # after the last card, nothing moves


def test_the_grand_bazaar_speculator_behind_holds_apart_from_the_leader_at_a_small_cost():
    from merchantry.games.grand_bazaar import speculator
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot

    # sapphire is expected to rise most, ruby a little less; the leader (seat 1) holds four sapphires
    revealed = [(-1, -1, 1), (-1, 0, 1), (-1, -1, 0), (0, 0, 1)]
    gems = [[0, 0, 0], [4, 0, 0], [0, 0, 0], [0, 0, 0]]
    state = bazaar_position(revealed, gems, [30] * 4)
    moves = state.expected_moves()
    assert moves[0] > moves[1] > 0 > moves[2]
    rng = random.Random(0)
    assert str(GrandBazaarGreedyBot().choose(state, 0, rng)) == "buy sapphire"
    statistics = speculator.next_card_statistics(frozenset(state.deck))
    assert speculator.best_holding(state, 0, statistics) == (
        0,
        3,
        0,
    )  # apart from the leader: it can only catch up so
    assert str(speculator.GrandBazaarSpeculatorBot().choose(state, 0, rng)) == "buy ruby"
    # ahead of everyone, it plays the others' game
    rich = bazaar_position(revealed, gems, [80, 30, 30, 30])
    assert str(speculator.GrandBazaarSpeculatorBot().choose(rich, 0, rng)) == "buy sapphire"


def test_the_grand_bazaar_speculator_swaps_a_gem_that_rises_little_for_one_that_rises_more():
    from merchantry.games.grand_bazaar import speculator
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot

    # seat 0 holds four gems (an emerald bought this turn, so GB-R3 is met) and little cash
    state = bazaar_position(
        [(-1, -1, 1), (-1, 0, 1), (-1, -1, 0), (0, 0, 1), (-1, 1, 0), (-1, 0, 0)],
        [[0, 3, 1], [4, 0, 0], [0, 0, 0], [0, 0, 0]],
        [5, 30, 30, 30],
        bought=(False, False, True),
    )
    moves = state.expected_moves()
    assert moves[0] > 0.2 and 0 < moves[1] < 0.05
    rng = random.Random(0)
    assert str(GrandBazaarGreedyBot().choose(state, 0, rng)) == "done"  # greedy keeps what will not fall
    bot = speculator.GrandBazaarSpeculatorBot()
    steps = []
    while state.to_act() == [0]:
        steps.append(str(bot.choose(state, 0, rng)))
        state.apply(0, steps[-1])
    assert steps == [*["sell ruby"] * 3, *["buy sapphire"] * 3, "done"]


def test_the_grand_bazaar_speculator_can_judge_the_leader_by_the_holding_it_will_carry_into_the_next_card():
    from merchantry.games.grand_bazaar import speculator
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot

    # round 4 is opened by seat 3, so seat 0 trades second and the leader (seat 1, four sapphires) after it
    revealed = [(-1, -1, 1), (-1, 0, 1), (-1, -1, 0), (0, 0, 1)]
    state = bazaar_position(revealed, [[0, 0, 0], [4, 0, 0], [0, 0, 0], [0, 0, 0]], [30] * 4)
    assert speculator.leader(state, 0) == 1
    assert speculator.rival_holding(state, 0) == (4, 0, 0)
    # greedy must buy with a full hand: it sells its one kind (sapphire) and buys the next best, ruby
    assert speculator.rival_holding(state, 0, predict=True) == (3, 1, 0)
    statistics = speculator.next_card_statistics(frozenset(state.deck))
    assert speculator.best_holding(state, 0, statistics) == (0, 3, 0)
    assert speculator.best_holding(state, 0, statistics, predict=True) != (0, 3, 0)
    # a leader that has played this round is judged by its hand
    played = bazaar_position(revealed, [[0, 0, 0], [0, 0, 0], [0, 0, 0], [4, 0, 0]], [30] * 4)
    assert speculator.rival_holding(played, 0, predict=True) == (4, 0, 0)
    # greedy_turn is greedy's own turn, at the start of every turn of a game of four greedy bots
    state, bot = games.get("grand_bazaar").new_game(players=4, seed=9), GrandBazaarGreedyBot()
    rng = random.Random(0)
    while not state.is_over():
        seat = state.current
        predicted = speculator.greedy_turn(state, seat)
        while not state.is_over() and state.current == seat:
            state.apply(seat, bot.choose(state, seat, rng))
        assert tuple(state.gems[seat]) == predicted


def test_the_samarkand_investor_counts_the_first_meetings_its_families_may_still_have():
    from merchantry.games.samarkand.greedy import judge
    from merchantry.games.samarkand.investor import MEETING_WORTH, invested, meetings_ahead

    d = games.get("samarkand").new_game(players=4, seed=3).to_dict()
    d["domain_tiles"][0] -= 1
    d["tiles_held"][1][0] = 1  # seat 1 holds family 0, seat 0 holds nothing
    state = games.get("samarkand").from_dict(d)
    assert meetings_ahead(state, 0) == 5  # nine families to meet, five markers (SK-R2, SK-E1)
    assert invested(state, 1) == judge(state, 1) + MEETING_WORTH * 5
    assert invested(state, 0) == judge(state, 0)  # a family not held earns its holders only
    d["met"][0] = 0b1111111100  # met every family but 1 (and itself)
    d["met"][1] = 0b1
    for stack, ahead in ((5, 1), (0, 0)):  # a family with no marker left has had its last meeting
        d["stack"][0] = stack
        state = games.get("samarkand").from_dict(d)
        assert meetings_ahead(state, 0) == ahead
        assert invested(state, 1) == judge(state, 1) + MEETING_WORTH * ahead


def test_the_samarkand_investor_plays_greedys_game_but_for_the_meetings_its_tiles_will_be_paid_for():
    from merchantry.games.samarkand.greedy import SamarkandGreedyBot, judge
    from merchantry.games.samarkand.investor import SamarkandInvestorBot, meetings_ahead

    def after(state, seat, action):
        """Greedy's judgement of the move and the meetings still ahead of the seat's families after it."""
        world = state.clone()
        world.apply(seat, action)
        held = world.tiles_held[seat]
        return judge(world, seat), sum(meetings_ahead(world, f) for f in range(len(held)) if held[f])

    investor, greedy = SamarkandInvestorBot(), SamarkandGreedyBot()
    same = differ = married_instead = 0
    for seed in range(3):
        state = games.get("samarkand").new_game(players=4, seed=seed)
        while not state.is_over():
            seat = state.to_act()[0]
            ours = investor.choose(state, seat, random.Random(seed))
            theirs = greedy.choose(state, seat, random.Random(seed))
            if ours == theirs:
                same += 1
            else:
                (our_judgement, our_meetings), (their_judgement, their_meetings) = (
                    after(state, seat, ours),
                    after(state, seat, theirs),
                )
                # unless the two moves are equal (a tie drawn differently), it gives up some of greedy's
                # judgement only for meetings still to be paid
                if (our_judgement, our_meetings) != (their_judgement, their_meetings):
                    differ += 1
                    assert our_meetings > their_meetings and our_judgement <= their_judgement
                    married_instead += ours.verb == "marry" and theirs.verb != "marry"
            state.apply(seat, theirs)
    assert same > differ > 0 and married_instead


def test_the_money_collector_keeps_a_currency_short_of_200_worth_collecting_at_the_deals_end():
    from merchantry.games.money.collector import MoneyCollectorBot
    from merchantry.games.money.greedy import MoneyGreedyBot

    hands = [["USD20", "USD20", "USD30", "USD40", "USD50", "EUR20"], ["EUR30"], ["EUR40"], ["EUR50"]]
    dealt = arrange(4, hands, ["USD30"], ["COIN", "COIN", "COIN", "COIN"]).to_dict()
    for deck_at_deal, greedy_takes in ((len(dealt["deck"]), "right"), (1000, "left")):
        dealt["initial_deck"] = deck_at_deal  # the deck as it was dealt: the deal's start, or nearly its end
        state = money.GAME.from_dict(dealt)
        bid_round(state, [["EUR20"], [], [], []])  # seat 0 alone bids, and chooses first
        # USD 160 + 30 is still short of 200 (MO-E3: exactly +30), four coins are exactly +40
        assert str(MoneyGreedyBot().choose(state, 0, random.Random(0))) == f"take {greedy_takes}"
        assert str(MoneyCollectorBot().choose(state, 0, random.Random(0))) == "take right"


def test_the_money_collector_bids_less_for_a_group_it_expects_to_find_even_when_it_acts_late():
    from merchantry.games.money.collector import MoneyCollectorBot
    from merchantry.games.money.greedy import MoneyGreedyBot, bid_worth

    def whole_bid(bot, state):
        state = state.clone()
        cards = []
        while (action := bot.choose(state, 0, random.Random(0))).verb != "bid":
            state.apply(0, action)
            cards.append(action.arg)
        return cards

    mine = ["USD20", "USD20", "USD30", "EUR20", "EUR30", "EUR40", "COIN", "COIN", "GBP60"]
    state = arrange(4, [mine, ["EUR50"], ["EUR60"], ["GBP50"]], ["USD30", "USD30"], ["GBP20"])
    greedy, collector = whole_bid(MoneyGreedyBot(), state), whole_bid(MoneyCollectorBot(), state)
    assert 0 < bid_worth(collector) < bid_worth(greedy)  # the USD 30s (a trio) are worth a bid to both


def test_the_grand_bazaar_closer_plays_the_speculators_game_before_the_last_rounds():
    from merchantry.games.grand_bazaar.closer import ENDGAME_ROUNDS, PREDICT, GrandBazaarCloserBot
    from merchantry.games.grand_bazaar.components import ROUNDS
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot
    from merchantry.games.grand_bazaar.speculator import GrandBazaarSpeculatorBot

    state = games.get("grand_bazaar").new_game(players=4, seed=5)
    closer, greedy = GrandBazaarCloserBot(), GrandBazaarGreedyBot()
    speculator = GrandBazaarSpeculatorBot(predict=PREDICT)
    rng = random.Random(0)
    while state.round <= ROUNDS - ENDGAME_ROUNDS:
        seat = state.to_act()[0]
        if seat == 0:
            action = closer.choose(state.sample_hidden(0, rng), 0, rng)
            assert action == speculator.choose(state, 0, rng)
        else:
            action = greedy.choose(state, seat, rng)
        state.apply(seat, action)


def test_the_samarkand_closer_plays_the_investors_game_until_near_the_end_then_the_step_that_won_most():
    """Far from the end the closer's step is the investor's; within its horizon it is the candidate that
    wins most often played out on the same sampled worlds and streams (the investor's on a tie)."""
    from merchantry.games.samarkand.closer import SamarkandCloserBot, ranked
    from merchantry.games.samarkand.investor import SamarkandInvestorBot

    bot, investor, greedy = (
        SamarkandCloserBot(worlds=4),
        SamarkandInvestorBot(),
        bots.get("greedy", "samarkand"),
    )
    state = games.get("samarkand").new_game(players=3, seed=2)
    seat = state.to_act()[0]
    assert not bot.near_the_end(state, random.Random(1))
    assert bot.choose(state, seat, random.Random(1)) == investor.choose(state, seat, random.Random(1))
    rng = random.Random(3)
    while True:  # greedy play until the closer, from stream 7, sees the end near and has 3 steps or more
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        # the closer's own draws, in its order: the investor's step, the horizon's probe, then the worlds
        stream = random.Random(7)
        own = investor.choose(state, seat, stream)
        if len(legal) > 2 and bot.near_the_end(state, stream):
            break
        state.apply(seat, greedy.choose(state, seat, rng))
    worlds = [(state.sample_hidden(seat, stream), stream.getrandbits(64)) for _ in range(bot.worlds)]
    options = [own] + [step for step in ranked(state, seat, legal) if step != own][: bot.candidates - 1]
    wins = {step: sum(bot.play_out(w, seat, step, s) for w, s in worlds) for step in options}
    best = max(options, key=lambda step: wins[step])  # the first of equals: the investor's
    assert bot.choose(state, seat, random.Random(7)) == best
    assert 1 < len(options) <= bot.candidates and set(options) <= set(legal)


def test_the_grand_bazaar_closers_play_outs_find_a_greedy_turn_played_before_and_play_the_same_games():
    """A memo shared by the candidates played out on one order of the price cards (a greedy seat's turn
    looked up by what it depends on; the speculator's holding chosen once a turn) changes no play-out."""
    from merchantry.games.grand_bazaar import closer
    from merchantry.games.grand_bazaar.greedy import GrandBazaarGreedyBot

    bot, greedy = closer.GrandBazaarCloserBot(), GrandBazaarGreedyBot()
    looked_up = 0
    for seed in range(3):
        state = games.get("grand_bazaar").new_game(players=4, seed=seed)
        rng = random.Random(seed)
        while state.round < 15 + seed:
            seat = state.to_act()[0]
            state.apply(seat, greedy.choose(state, seat, rng))
        seat = state.to_act()[0]
        options = closer.candidates(state, seat, 10)
        assert len(options) > 3
        for order in closer.sample_orders(state, seat, rng, 6):
            memo: closer.TurnMemo = {}
            for holding in options:
                plain = closer.play_out(order, seat, holding, bot.speculator, bot.greedy, 0.5)
                before = len(memo)
                fast = closer.play_out(order, seat, holding, bot.speculator, bot.greedy, 0.5, memo)
                assert fast == plain
                looked_up += before == len(memo)
            assert memo  # the greedy seats' turns were kept
    assert looked_up > 0  # some candidates' play-outs found every greedy turn already played


def test_the_grand_bazaar_closer_spreads_its_orders_over_the_next_price_card():
    """GB-I1: only the order of the cards left is secret. Stratified, each card left is the next one (the
    top of the deck, last) as evenly as the count allows; where there are no more orders than asked for,
    each is played out once."""
    from merchantry.games.grand_bazaar import closer

    state = games.get("grand_bazaar").new_game(players=4, seed=3)
    greedy = bots.get("greedy", "grand_bazaar")
    rng = random.Random(1)
    while len(state.deck) > 8:
        seat = state.to_act()[0]
        state.apply(seat, greedy.choose(state, seat, rng))
    cards = sorted(state.deck)
    seat = state.to_act()[0]
    orders = closer.sample_orders(state, seat, random.Random(2), 20)
    assert len(orders) == 20 and all(sorted(world.deck) == cards for world in orders)
    nexts = [world.deck[-1] for world in orders]
    assert sorted(nexts[:8]) == cards  # the first 8 orders: every card next once (a cut look is spread)
    assert {nexts.count(card) for card in cards} == {2, 3}
    assert len({world.deck for world in orders}) == 20
    # the independent orders of before: any card next, by chance
    plain = closer.sample_orders(state, seat, random.Random(2), 20, stratify=False)
    assert len(plain) == 20 and all(sorted(world.deck) == cards for world in plain)
    # four cards left: 24 orders, each once when 24 or more are asked for
    while len(state.deck) > 4:
        seat = state.to_act()[0]
        state.apply(seat, greedy.choose(state, seat, rng))
    seat = state.to_act()[0]
    every = closer.sample_orders(state, seat, random.Random(2), 96)
    assert sorted(world.deck for world in every) == sorted(itertools.permutations(sorted(state.deck)))


def test_the_grand_bazaar_closer_with_deny_also_plays_out_buying_the_most_of_each_gem():
    """GB-R5 (a buy needs stock): with `deny`, the closer's candidates are its usual ones, then for each gem
    the speculator's best among the holdings that buy the most of it, so that taking what greedy players
    after it want is played out too; without it nothing changes."""
    from merchantry.games.grand_bazaar import closer

    revealed = [(-1, -1, 1), (-1, 0, 1), (-1, -1, 0), (0, 0, 1), (-1, 1, 0), (1, 1, 1), (0, 1, -1), (1, 0, 0)]
    revealed += [(0, -1, 1), (1, -1, 0), (-1, 0, -1), (0, 1, 1), (1, 0, 1), (-1, 1, 1), (0, 0, -1)]
    revealed += [(1, 1, -1), (-1, -1, -1), (0, -1, 0), (1, -1, 1), (0, 1, 0), (-1, 1, -1), (1, 0, -1)]
    state = bazaar_position(revealed, [[0, 0, 0], [4, 0, 0], [0, 0, 2], [1, 1, 0]], [66, 30, 31, 27])
    usual = closer.candidates(state, 0)
    assert closer.candidates(state, 0, deny=False) == usual
    denying = closer.candidates(state, 0, deny=True)
    assert denying[: len(usual)] == usual and len(denying) == len(set(denying))
    reachable = [holding for holding, _, _ in closer.reachable(state, 0)]
    assert set(denying) <= set(reachable)
    added = denying[len(usual) :]
    assert added  # the usual candidates do not all buy four sapphires, rubies or emeralds
    for gem in range(3):
        most = max(holding[gem] for holding in reachable)  # seat 0 holds none: the most it can buy
        assert any(holding[gem] == most for holding in denying)
    # the closer itself passes its `deny` on: with it, the holding it goes to is among those candidates
    bot = closer.GrandBazaarCloserBot(deny=True)
    assert bot.target(state, 0, random.Random(9)) in denying


def test_the_grand_bazaar_closer_ends_its_turn_on_the_holding_that_won_most_often_played_out(monkeypatch):
    from merchantry.games.grand_bazaar import closer

    # round 23 of 27: five price cards left, seat 0 (no gems, 66 grands) just behind the leader (seat 1, four
    # sapphires and 30): the speculator would hold the leader's four sapphires, the closer holds three
    revealed = [(-1, -1, 1), (-1, 0, 1), (-1, -1, 0), (0, 0, 1), (-1, 1, 0), (1, 1, 1), (0, 1, -1), (1, 0, 0)]
    revealed += [(0, -1, 1), (1, -1, 0), (-1, 0, -1), (0, 1, 1), (1, 0, 1), (-1, 1, 1), (0, 0, -1)]
    revealed += [(1, 1, -1), (-1, -1, -1), (0, -1, 0), (1, -1, 1), (0, 1, 0), (-1, 1, -1), (1, 0, -1)]
    state = bazaar_position(revealed, [[0, 0, 0], [4, 0, 0], [0, 0, 2], [1, 1, 0]], [66, 30, 31, 27])
    assert len(state.deck) == 5 and state.round > closer.ROUNDS - closer.ENDGAME_ROUNDS
    options = closer.candidates(state, 0)
    assert 1 < len(options) <= closer.CANDIDATES + 1
    reachable = {holding for holding, _, _ in closer.reachable(state, 0)}
    assert set(options) <= reachable
    # the worlds the closer plays out are drawn from its random stream: the same stream, the same worlds
    bot = closer.GrandBazaarCloserBot()
    worlds = closer.sample_orders(state, 0, random.Random(9), bot.worlds)
    wins = {
        holding: sum(closer.play_out(w, 0, holding, bot.speculator, bot.greedy) for w in worlds)
        for holding in options
    }
    best = max(options, key=lambda holding: wins[holding])  # the first of equals: the speculator's order
    assert best != options[0] and wins[best] > wins[options[0]]  # here it overrules the speculator
    # with its deadline passed (a level's budget spent), one order is played out, every candidate on it
    played = []
    monkeypatch.setattr(closer, "play_out", lambda *args: played.append(args[2]) or 0.0)
    closer.GrandBazaarCloserBot().choose_within(state.clone(), 0, random.Random(9), deadline=-math.inf)
    assert sorted(played) == sorted(options)
    monkeypatch.undo()
    rng = random.Random(9)
    while state.to_act() == [0]:
        state.apply(0, bot.choose(state, 0, rng))
    assert tuple(state.gems[0]) == best
    # with a margin weight, a play-out also counts its final margin over the best other seat (GB-E2: most
    # grands wins), clipped: a win adds 0 or more, a loss 0 or less, never more than the weight
    weight = 0.5
    for w in worlds:
        for holding in options:
            share = closer.play_out(w, 0, holding, bot.speculator, bot.greedy)
            judged = closer.play_out(w, 0, holding, bot.speculator, bot.greedy, margin_weight=weight)
            assert abs(judged - share) <= weight
            assert (judged >= share) if share > 0 else (judged <= share)
    judged_apart = {
        closer.play_out(w, 0, h, bot.speculator, bot.greedy, margin_weight=weight)
        for w in worlds
        for h in options
    }
    assert len(judged_apart) > len({0.0, 0.5, 1.0})  # margins tell apart play-outs the win shares do not
