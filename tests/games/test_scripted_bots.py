"""The scripted newcomer strategies (games/<game>/scripted.py, issue 29): each plays whole games by the
rules, and keeps to the habit that names it."""

from __future__ import annotations

import random

import pytest

from merchantry import bots, games
from merchantry.games.byzanz.components import CODE_INDEX, CODE_TYPE, CODE_VALUE, MERCHANT
from merchantry.games.byzanz.scripted import most_held_type
from merchantry.games.grand_bazaar.components import FINAL_GEM_VALUE
from merchantry.games.money.components import BLUFF
from merchantry.games.money.greedy import NOTE_INFO, bid_worth
from merchantry.games.money.scripted import HIGH_BID, favourite

SCRIPTED = {
    "byzanz": ["focus", "minimum", "hoarder"],
    "money": ["minimum", "highroller", "hoarder"],
    "grand_bazaar": ["hoarder", "minimum", "copycat"],
    "samarkand": ["loyal", "keeper", "copycat"],
}


def scripted_moves(name: str, bot: str, seed: int, with_legal: bool = False):
    """(view before, action) of every move seat 0 makes as `bot` against three greedy bots, or (legal
    moves, action) `with_legal`; the game ends."""
    state = games.get(name).new_game(players=4, seed=seed)
    lineup = [bots.get(bot, name)] + [bots.get("greedy", name) for _ in range(3)]
    rng = random.Random(seed)
    moves = []
    while not state.is_over():
        seat = state.to_act()[0]
        action = bots.play_turn(state, seat, lineup[seat], rng)
        if seat == 0:
            moves.append((state.view(0), action) if not with_legal else (state.legal_actions(0), action))
        state.apply(seat, action)  # raises IllegalAction on a move the rules refuse
    return moves


@pytest.mark.parametrize(("name", "bot"), [(name, bot) for name, names in SCRIPTED.items() for bot in names])
def test_scripted_bots_are_registered_and_play_whole_games(name, bot):
    assert bot in bots.names(name)
    assert scripted_moves(name, bot, seed=3)


def byzanz_forced(view) -> bool:
    return view["phase"] == "final_selling" or view["hand_limit_player"] == 0


def test_byzanz_hoarder_sells_only_when_forced():
    sales = [
        (view, a)
        for seed in (1, 2)
        for view, a in scripted_moves("byzanz", "hoarder", seed)
        if a.verb == "sell"
    ]
    assert sales and all(byzanz_forced(view) for view, _ in sales)


def test_byzanz_focus_sells_early_only_top_sets_and_bids_only_on_its_type():
    bids = 0
    for seed in (1, 2):
        for view, action in scripted_moves("byzanz", "focus", seed):
            if action.verb == "sell" and not byzanz_forced(view):
                assert MERCHANT not in action.codes and max(CODE_VALUE[c] for c in action.codes) == max(
                    CODE_VALUE
                )
            if action.verb == "add":
                focus = most_held_type([CODE_INDEX[c] for c in view["hand"]])
                assert focus in {CODE_TYPE[CODE_INDEX[c]] for c in view["lot"]}
                bids += 1
    assert bids


def test_byzanz_minimum_raises_whenever_its_goods_can_beat_the_high_bid():
    raised = passed = 0
    for view, action in scripted_moves("byzanz", "minimum", seed=1):
        if view["phase"] == "auction" and action.verb in ("add", "pass", "bid"):
            raised += action.verb != "pass"
            passed += action.verb == "pass"
    assert raised > passed


def sealed_bids(bot: str, seeds=(1, 2)):
    """Seat 0's bid as sealed, with its holding then."""
    for seed in seeds:
        for view, action in scripted_moves("money", bot, seed):
            if view["phase"] == "bidding" and str(action) == "bid":
                yield (
                    [c for c in view["my_bid"] if c != BLUFF],
                    [c for c in view["hand"] + view["my_bid"] if c != BLUFF],
                )


def test_money_minimum_bids_one_card():
    bids = list(sealed_bids("minimum"))
    assert bids and all(len(bid) == 1 or not holding for bid, holding in bids)


def test_money_highroller_bids_high_or_everything():
    bids = list(sealed_bids("highroller"))
    assert bids and all(bid_worth(bid) >= HIGH_BID or sorted(bid) == sorted(holding) for bid, holding in bids)


def test_money_hoarder_never_bids_its_favourite_currency():
    for bid, holding in sealed_bids("hoarder"):
        kept = favourite(holding)
        assert not [c for c in bid if c in NOTE_INFO and NOTE_INFO[c][0] == kept]


def test_grand_bazaar_minimum_buys_once_a_turn_and_hoarder_holds_one_gem():
    for view, action in scripted_moves("grand_bazaar", "minimum", seed=1):
        if action.verb == "buy":
            assert not view["turn"]["bought"]
    hoarded = [view["holdings"][0]["gems"] for view, _ in scripted_moves("grand_bazaar", "hoarder", seed=1)]
    assert max(max(gems) for gems in hoarded) == 4  # it fills up on one gem (GB-R4's limit)


def test_grand_bazaar_copycat_trades_towards_the_leaders_gems():
    """Most of its sales and buys move its gems towards those of the other seat worth most (the others are
    the buy every turn requires, GB-R3, when it already holds what the leader holds, and the sale that
    makes room for it, GB-R4)."""
    toward = away = 0
    for view, action in scripted_moves("grand_bazaar", "copycat", seed=2):
        if action.verb not in ("buy", "sell"):
            continue
        worth = view_worth(view)
        leader = max(range(1, 4), key=lambda p: worth[p])
        mine, theirs = view["holdings"][0]["gems"][action.gem], view["holdings"][leader]["gems"][action.gem]
        if (action.verb == "buy" and mine < theirs) or (action.verb == "sell" and mine > theirs):
            toward += 1
        else:
            away += 1
    assert toward > away


def view_worth(view) -> list[float]:
    """Cash plus 10 per gem, what each seat would have if the game ended now (GB-E1)."""
    return [h["cash"] + FINAL_GEM_VALUE * sum(h["gems"]) for h in view["holdings"]]


def test_samarkand_loyal_marries_once_and_keeper_never_sells():
    marriages = [
        legal for legal, a in scripted_moves("samarkand", "loyal", 1, with_legal=True) if a.verb == "marry"
    ]
    assert marriages  # its first marriage, then only those the rules leave it no other move than (SK-T1)
    assert all({a.verb for a in legal} == {"marry"} for legal in marriages[1:])
    for seed in (1, 2):
        assert not [a for _, a in scripted_moves("samarkand", "keeper", seed) if a.verb == "sell"]
