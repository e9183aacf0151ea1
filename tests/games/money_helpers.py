"""Helpers to set up Money positions by card code for rule tests."""

from __future__ import annotations

from merchantry.games import money
from merchantry.games.money.components import CARD_CODES, CARD_CURRENCY, NUM_CARDS
from merchantry.games.money.rules import MoneyState


def ids_for(codes: list[str], used: set[int]) -> list[int]:
    """Card ids for codes, lowest unused serial first."""
    out = []
    for code in codes:
        card = min(c for c in range(NUM_CARDS) if CARD_CODES[c] == code and c not in used)
        used.add(card)
        out.append(card)
    return out


def arrange(
    players: int = 4,
    hands: list[list[str]] | None = None,
    right: list[str] | None = None,
    left: list[str] | None = None,
    deck: list[str] | None = None,
    deck_size: int | None = None,
    **options: object,
) -> MoneyState:
    """A round-1 bidding position with the given cards; every other card of the deal goes to the deck
    (listed `deck` cards on top, in order), or out of play if `deck_size` caps the deck."""
    if players == 4:
        options.setdefault("removed_currencies", "JPY")
    if players == 3:
        options.setdefault("removed_currencies", "JPY,BRL")
    state = money.GAME.new_game(players=players, seed=0, **options)
    used: set[int] = set()
    hands = hands if hands is not None else [[] for _ in range(players)]
    state.hands = [tuple(ids_for(h, used)) for h in hands]
    state.known = [()] * players
    state.market = [tuple(ids_for(right or [], used)), tuple(ids_for(left or [], used))]
    top = ids_for(deck or [], used)
    rest = [c for c in range(NUM_CARDS) if c not in used and CARD_CURRENCY[c] not in state.removed]
    if deck_size is not None:
        rest = rest[: max(0, deck_size - len(top))]
    state.deck = tuple(rest + top[::-1])  # the top of the deck is the end of the tuple
    state.initial_deck = len(state.deck)
    return state


def seal(state: MoneyState, player: int, codes: list[str]) -> None:
    for code in codes:
        state.apply(player, f"add {code}")
    state.apply(player, "bid")


def bid_round(state: MoneyState, bids: list[list[str]]) -> None:
    for player, codes in enumerate(bids):
        seal(state, player, codes)


def hand_codes(state: MoneyState, player: int) -> list[str]:
    return sorted(CARD_CODES[c] for c in state.hands[player])
