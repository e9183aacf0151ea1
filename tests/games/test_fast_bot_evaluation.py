"""The bots' evaluation code was rewritten for speed (issue 29): it must make the same choices as before.

Each game's former implementation is kept here, verbatim but for its name, as the reference; the new code
is compared with it on every position of seeded games (greedy and random players mixed, so that positions
are varied), every seat, with exact equality: a search is only the same search if its rollouts are.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import pytest

from merchantry import bots, games
from merchantry.games.grand_bazaar import speculator
from merchantry.games.grand_bazaar.components import GEM_LIMIT, GEMS
from merchantry.games.grand_bazaar.rules import GEM_RANGE
from merchantry.games.money import greedy as money_greedy
from merchantry.games.money.components import BLUFF, COIN, COIN_VALUE, TRIO_VALUES
from merchantry.games.money.scoring import THRESHOLD, TRIO_BONUS, currency_score
from merchantry.games.samarkand import greedy as samarkand_greedy
from merchantry.games.samarkand.components import ADJACENT, MAP, OWN_CAMEL_POINTS
from merchantry.games.samarkand.rules import FAMILIES


def seeded_positions(name: str, seeds: range, players: int = 4):
    """Every position of games played by greedy and random seats (a seed's line-up differs by seed)."""
    for seed in seeds:
        state = games.get(name).new_game(players=players, seed=seed)
        rng = random.Random(seed)
        lineup = [bots.get("greedy" if (seed >> seat) & 1 else "random", name) for seat in range(players)]
        while not state.is_over():
            yield state.clone()
            seat = state.to_act()[0]
            state.apply(seat, bots.play_turn(state, seat, lineup[seat], rng))


# --- Money: hand_value and remove, formerly with Counters and code strings parsed per call -----------------


def reference_hand_value(cards: list[str], progress: float) -> float:
    totals: Counter[str] = Counter()
    counts = Counter(cards)
    for code, n in counts.items():
        if code not in (COIN, BLUFF):
            totals[code[:3]] += int(code[3:]) * n
    exact = promise = float(counts[COIN] * COIN_VALUE)
    for currency, total in totals.items():
        held = [counts[f"{currency}{v}"] for v in TRIO_VALUES]
        trios = sum(1 for n in held if n == 3)
        exact += currency_score(total, trios)
        promise += total if total >= THRESHOLD else total * total / THRESHOLD
        promise += TRIO_BONUS * trios + money_greedy.PARTIAL_TRIO * sum(1 for n in held if n == 2)
    return progress * exact + (1 - progress) * promise


def reference_remove(cards: list[str], gone: list[str]) -> list[str]:
    rest = Counter(cards) - Counter(gone)
    return list(rest.elements())


def money_hands(state) -> list[list[str]]:
    """The hands greedy judges in a position: each seat's hand and bid, with each market group and bid."""
    hands = []
    for seat in range(state.num_players):
        view = state.view(seat)
        hand = [c for c in view["hand"] + view.get("my_bid", []) if c != BLUFF]
        groups = [view["market"]["right"], view["market"]["left"]]
        groups += [s.get("bid") or [] for s in view["seats"]]
        hands += [hand] + [hand + list(group) for group in groups]
    return hands


def test_money_hand_value_and_remove_match_the_former_code_on_seeded_positions():
    compared = 0
    for state in seeded_positions("money", range(6)):
        for hand in money_hands(state):
            for progress in (0.0, 0.37, 1.0):
                assert money_greedy.hand_value(hand, progress) == reference_hand_value(hand, progress), hand
            for card in set(hand):
                assert money_greedy.remove(hand, [card]) == reference_remove(hand, [card])
            assert money_greedy.remove(hand, hand[::2] + ["EUR90"]) == reference_remove(
                hand, hand[::2] + ["EUR90"]
            )
            compared += 1
    assert compared > 2000


def test_money_bots_bid_and_exchange_as_with_the_former_hand_value(monkeypatch):
    """The bots' choices, played with the new code and again with the former functions patched in."""
    positions = list(itertools.islice(seeded_positions("money", range(100, 104)), 0, None, 3))

    def choices() -> list[str]:
        money_greedy.wanted_bid.cache_clear()
        made = []
        for state in positions:
            for name in ("greedy", "collector"):
                for seat in state.to_act():
                    made.append(str(bots.get(name, "money").choose(state.clone(), seat, random.Random(1))))
        return made

    fast = choices()
    monkeypatch.setattr(money_greedy, "hand_value", reference_hand_value)
    monkeypatch.setattr(money_greedy, "remove", reference_remove)
    assert choices() == fast
    assert len(fast) > 300
    money_greedy.wanted_bid.cache_clear()


# --- Grand Bazaar: the speculator's best_holding, formerly every holding checked by can_reach --------------

HOLDINGS = tuple(
    counts for counts in itertools.product(range(GEM_LIMIT + 1), repeat=len(GEMS)) if sum(counts) <= GEM_LIMIT
)


def reference_best_holding(world, seat, statistics):
    moves, covariance = statistics
    rival = world.gems[speculator.leader(world, seat)]
    hand = world.gems[seat]
    best, best_merit = hand, (False, -math.inf, 0)
    for holding in HOLDINGS:
        if not speculator.can_reach(world, seat, holding):
            continue
        apart = [mine - theirs for mine, theirs in zip(holding, rival, strict=True)]
        variance = sum(apart[g] * apart[h] * covariance[g][h] for g in GEM_RANGE for h in GEM_RANGE)
        gain = sum(count * move for count, move in zip(holding, moves, strict=True))
        buys = any(want > have for want, have in zip(holding, hand, strict=True))
        trades = sum(abs(want - have) for want, have in zip(holding, hand, strict=True))
        merit = (buys or world.bought_any, gain + speculator.RISK * math.sqrt(max(variance, 0.0)), -trades)
        if merit > best_merit:
            best, best_merit = holding, merit
    return best


def test_grand_bazaar_reachable_holdings_are_those_can_reach_allows():
    for state in itertools.islice(seeded_positions("grand_bazaar", range(3)), 0, None, 2):
        for seat in range(state.num_players):
            hand = state.gems[seat]
            allowed = [
                (
                    h,
                    any(w > g for w, g in zip(h, hand, strict=True)),
                    sum(abs(w - g) for w, g in zip(h, hand, strict=True)),
                )
                for h in HOLDINGS
                if speculator.can_reach(state, seat, h)
            ]
            assert speculator.reachable(state, seat) == allowed


@pytest.mark.parametrize("players", [2, 4])
def test_grand_bazaar_best_holding_matches_the_former_code_on_seeded_positions(players):
    compared = 0
    for state in seeded_positions("grand_bazaar", range(5), players):
        statistics = speculator.next_card_statistics(frozenset(state.deck))
        for seat in range(players):
            expected = reference_best_holding(state, seat, statistics)
            assert speculator.best_holding(state, seat, statistics) == expected
            compared += 1
    assert compared > 1000


# --- Samarkand: greedy's prospect, formerly a breadth-first search over a dict per family -----------------


@functools.lru_cache(maxsize=4096)
def reference_distances(camels, family):
    bit = 1 << family
    frontier = [space for space, mask in enumerate(camels) if mask & bit]
    seen = dict.fromkeys(frontier, 0)
    for steps in range(1, samarkand_greedy.HORIZON + 1):
        ring = []
        for space in frontier:
            for other in ADJACENT[space]:
                mask = camels[other]
                if other not in seen and not mask & (mask - 1):
                    seen[other] = steps
                    ring.append(other)
        frontier = ring
    return seen


def reference_prospect(state, seat):
    families = [f for f in FAMILIES if state.tiles_held[seat][f] and state.camels_left[f]]
    reach = [reference_distances(state.camels, f) for f in families]
    total = 0.0
    for good in state.hands[seat]:
        space = MAP.goods_space[good - 1]
        mask = state.camels[space]
        if mask & (mask - 1):
            continue
        best = 0.0
        for family, steps in zip(families, reach, strict=True):
            if not mask & (1 << family) and steps.get(space, 0) > 0:
                best = max(best, OWN_CAMEL_POINTS * samarkand_greedy.REACH_DISCOUNT ** steps[space])
        total += best
    return total


@pytest.mark.parametrize("players", [3, 4])
def test_samarkand_prospect_and_distances_match_the_former_code_on_seeded_positions(players):
    compared = 0
    for state in seeded_positions("samarkand", range(4), players):
        for seat in range(players):
            assert samarkand_greedy.prospect(state, seat) == reference_prospect(state, seat)
            compared += 1
        for family in FAMILIES:
            assert samarkand_greedy.distances(state, family) == reference_distances(state.camels, family)
    assert compared > 500


def test_samarkand_prospect_counts_cards_a_family_can_still_reach():
    """Not only equal to the former code: a card is worth something only while a held family can reach it."""
    judged = [
        (samarkand_greedy.prospect(state, seat), state, seat)
        for state in seeded_positions("samarkand", range(2))
        for seat in range(state.num_players)
    ]
    assert any(value > 0 for value, _, _ in judged)
    for value, state, seat in judged:
        if not any(state.tiles_held[seat]) or not state.hands[seat]:
            assert value == 0
