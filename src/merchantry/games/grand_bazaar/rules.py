"""Grand Bazaar's rules: the state and its forward model. Clause ids refer to
../shared/rules/grand_bazaar.md.

Each of the 27 rounds opens with the next price card (GB-R1); then every player, from the round's first
player on, takes a turn made of single buys and sells ended by `done` (GB-R2, GB-R7).
"""

from __future__ import annotations

import functools
import random
from typing import Any, Final

from merchantry.engine import JSON, EventLog, State, replace_at, seat_label
from merchantry.errors import Reason
from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL, BazaarAction
from merchantry.games.grand_bazaar.components import (
    CARD_TEXTS,
    FINAL_GEM_VALUE,
    GEM_CARDS_PER_TYPE,
    GEM_LIMIT,
    GEMS,
    PRICE_CARDS,
    ROUNDS,
    START_CASH,
    START_PRICE,
)

GEM_RANGE: Final = range(len(GEMS))
# The gems as a tuple of ints, for legal_actions' loops: compiled, iterating a tuple[int, ...] is a native
# loop, where iterating the range object GEM_RANGE is CPython's generic iteration (an iterator, a call per
# gem); in pure Python both cost the same, where range(n) in the loop would build a range on every call.
GEM_INDICES: Final[tuple[int, ...]] = tuple(GEM_RANGE)
NO_FLAGS: Final[tuple[bool, ...]] = (False,) * len(GEMS)
UNKNOWN: Final = -1  # BazaarState.buy_targets before it is worked out
GEM_BITS: Final = tuple(1 << g for g in GEM_RANGE)
ALL_GEMS: Final = (1 << len(GEMS)) - 1  # every gem's bit
# A buy's or a sale's log arguments, one read-only dict per (seat, gem, price), shared by every such event
# (EventLog copies them into the event it builds). Compiled, building and later freeing a dict on every
# trade cost more than this lookup (callgrind: ~600 instructions a trade); pure Python, about the same
_TRADE_FIELDS: Final[dict[tuple[int, int, int], dict[str, Any]]] = {}
FORMAT_VERSION: Final = 2  # 2: the game's seed is no longer part of the state


class BazaarState(State):
    """A position of Grand Bazaar: tuples of ints, replaced when they change, so that `clone` copies no
    table (principle 4, issue 12)."""

    __slots__ = (
        "num_players",
        "deck",
        "revealed",
        "prices",
        "stock",
        "gems",
        "cash",
        "round",
        "turn",
        "current",
        "bought",
        "sold",
        "bought_any",
        "over",
        "log",
        "options",
        "buy_targets",
        "legal",
    )

    num_players: int
    options: dict[str, Any]  # the resolved options (variants); public, never changed once built: shared
    deck: tuple[int, ...]  # unrevealed price cards, the top one last (GB-I1: the only secret)
    revealed: tuple[int, ...]  # price cards in the order they were revealed (public)
    prices: tuple[int, ...]  # per gem
    stock: tuple[int, ...]  # gem cards left in the bazaar, per gem
    gems: tuple[tuple[int, ...], ...]  # per player, per gem
    cash: tuple[int, ...]  # grands per player
    round: int  # 1..27
    turn: int  # how many players have finished their turn this round
    current: int  # seat whose turn it is
    bought: tuple[bool, ...]  # per gem, during the current turn (GB-R6)
    sold: tuple[bool, ...]
    bought_any: bool  # GB-R3
    over: bool
    log: EventLog
    # The gems the current seat could still buy after some sales (GB-R7, `_buy_targets`: bit g for gem g),
    # or UNKNOWN: legal_actions and apply's check both need it for the same position. Forgotten by _apply.
    buy_targets: int
    # legal_actions(current) in this position, or None before it is worked out: a playout asks for the list
    # and then applies one of its actions, whose check (_is_legal) is then a look in the list, not a second
    # pass over the rules. Forgotten by _apply; never handed out (callers get a copy).
    legal: list[BazaarAction] | None

    # --- the contract -----------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> list[int]:
        return [] if self.over else [self.current]

    def in_decision(self, player: int) -> bool:
        """A turn is one decision: its buys and sells up to `done` (GB-R2, GB-R7)."""
        return not self.over and player == self.current and (any(self.bought) or any(self.sold))

    def legal_actions(self, player: Any) -> list[BazaarAction]:
        if type(player) is not int or not 0 <= player < self.num_players:
            self.check_seat(player)
        seat: int = player  # typed: compiled, comparing and indexing by it is then native, not generic
        if self.over or seat != self.current:
            return []
        known = self.legal
        if known is None:
            known = self.legal = self._current_seats_actions()
        return known.copy()  # the caller may change its list, never the remembered one

    def _current_seats_actions(self) -> list[BazaarAction]:
        """legal_actions(current), worked out: _can_buy, _must_buy and _may_sell for every gem at once
        (random playouts spend their time here)."""
        seat = self.current
        hand, cash, prices, stock, bought, sold = (
            self.gems[seat],
            self.cash[seat],
            self.prices,
            self.stock,
            self.bought,
            self.sold,
        )
        held = 0  # a loop, not sum(hand): compiled, sum is a generic call (~900 instructions, a loop ~30)
        for g in GEM_INDICES:
            held += hand[g]
        if held < GEM_LIMIT:
            actions = [BUY[g] for g in GEM_INDICES if stock[g] > 0 and cash >= prices[g] and not sold[g]]
        else:
            actions = []
        # GB-R3/GB-R7: before the turn's first buy, `done` is refused while some buy is possible, and so is
        # a sale after which none would be. Every buy at hand is a target (`_buy_targets`), so with two at
        # hand any one sale leaves a buy, and the targets need not be worked out (most turns' first steps)
        if self.bought_any:
            must_buy, targets = False, 0
        elif len(actions) >= 2:
            must_buy, targets = True, ALL_GEMS
        else:
            targets = self._targets()
            must_buy = targets != 0
        for g in GEM_INDICES:
            if hand[g] == 0 or bought[g]:
                continue
            if not must_buy or targets & ~GEM_BITS[g]:  # GB-R7: some buy is left after this sale
                actions.append(SELL[g])
        if not must_buy:
            actions.append(DONE)
        return actions

    def _is_legal(self, player: int, action: object) -> bool:
        """`action in legal_actions(player)`, without building the list: apply() asks on every move."""
        if self.over or player != self.current or not isinstance(action, BazaarAction):
            return False
        known = self.legal
        if known is not None:  # legal_actions worked out this position (a playout asked it first)
            return action in known
        if action.verb in ("buy", "sell") and action.gem not in GEM_RANGE:
            return False
        if action.verb == "buy":
            return self._can_buy(player, action.gem)
        must_buy = self._must_buy(player)
        if action.verb == "sell":
            return self._may_sell(player, action.gem, must_buy)
        return action == DONE and not must_buy

    def _must_buy(self, player: int) -> bool:
        """GB-R3/GB-R7: no buy yet this turn, and some sequence of sales still allows one. `player` is the
        current seat (the only one asked)."""
        return not self.bought_any and self._targets() != 0

    def position_changed(self) -> None:
        """Forget what was worked out for this position (its buy targets and legal actions): for code that
        sets a state's fields itself (a bot's trial turn, from_dict, a test); apply does it on every move."""
        self.legal, self.buy_targets = None, UNKNOWN

    def _targets(self) -> int:
        """`_buy_targets` for the current seat in this position, remembered until the next move."""
        targets = self.buy_targets
        if targets == UNKNOWN:
            player = self.current
            targets = _buy_targets(
                self.cash[player], self.gems[player], self.prices, self.stock, self.bought, self.sold
            )
            self.buy_targets = targets
        return targets

    def _may_sell(self, player: int, gem: int, must_buy: bool) -> bool:
        """GB-R6, and before a required buy no sale that would make every buy impossible (GB-R7)."""
        return self._can_sell(player, gem) and not (must_buy and self._sale_blocks_every_buy(player, gem))

    def _can_buy(self, player: int, gem: int) -> bool:
        return (
            self.stock[gem] > 0  # GB-R5: the bazaar has one
            and self.cash[player] >= self.prices[gem]  # GB-R5: and the player can pay
            and sum(self.gems[player]) < GEM_LIMIT  # GB-R4
            and not self.sold[gem]  # GB-R6
        )

    def _can_sell(self, player: int, gem: int) -> bool:
        return self.gems[player][gem] > 0 and not self.bought[gem]  # GB-R6

    def _sale_blocks_every_buy(self, player: int, gem: int) -> bool:
        """GB-R3/GB-R7: a player who can still buy may not sell their way out of buying: after selling `gem`
        the buys left are the targets less `gem` itself (`_buy_targets`)."""
        return self._targets() & ~GEM_BITS[gem] == 0

    def _why_illegal(self, player: int, action: BazaarAction) -> Reason:
        if self.over:
            return Reason("game_over", "the game is over")
        if player != self.current:
            turn, who = seat_label(self.current), seat_label(player)
            return Reason(
                "not_your_turn", f"it is {turn}'s turn, not {who}'s", turn_seat=self.current, seat=player
            )
        if action.gem not in GEM_RANGE and (action.verb in ("buy", "sell") or action.gem != -1):
            last = len(GEMS) - 1
            text = f"there is no gem number {action.gem}: gems are 0-{last}"
            return Reason("no_gem_number", text, "GB-R5", number=action.gem, last=last)
        gem = GEMS[action.gem] if action.gem >= 0 else ""
        if action.verb == "buy":
            if self.sold[action.gem]:
                text = f"you sold {gem} this round and cannot buy it back"
                return Reason("sold_this_round", text, "GB-R6", gem=gem)
            if sum(self.gems[player]) >= GEM_LIMIT:
                text = f"you hold {GEM_LIMIT} gems: sell one before buying"
                return Reason("gem_limit", text, "GB-R4", limit=GEM_LIMIT)
            if self.stock[action.gem] == 0:
                return Reason("none_left", f"the bazaar has no {gem} left", "GB-R5", gem=gem)
            price, cash = self.prices[action.gem], self.cash[player]
            text = f"{gem} costs {price} and you have {cash} grands"
            return Reason("cannot_afford", text, "GB-R5", gem=gem, price=price, cash=cash)
        if action.verb == "sell":
            if self.bought[action.gem]:
                text = f"you bought {gem} this round and cannot sell it"
                return Reason("bought_this_round", text, "GB-R6", gem=gem)
            if self._can_sell(player, action.gem):
                text = f"you must buy a gem this turn, and after selling {gem} you could buy none: buy first"
                return Reason("sale_blocks_buy", text, "GB-R3", "GB-R7", gem=gem)
            return Reason("none_to_sell", f"you have no {gem} to sell", gem=gem)
        return Reason("must_buy_gem", "you must buy at least one gem this turn before you are done", "GB-R3")

    def _apply(self, player: int, action: BazaarAction) -> None:
        self.legal, self.buy_targets = None, UNKNOWN  # a new position: what was worked out was for the old
        verb, gem = action.verb, action.gem
        if verb == "buy":
            price = self.prices[gem]
            self._trade(player, gem, 1, -price)
            self.bought = replace_at(self.bought, gem, True)
            self.bought_any = True
            # add_fields, not add(**arguments): compiled, a call with keywords is CPython's generic call
            self.log = self.log.add_fields("bought", _trade_fields(player, gem, price))
        elif verb == "sell":
            price = self.prices[gem]
            self._trade(player, gem, -1, price)
            self.sold = replace_at(self.sold, gem, True)
            self.log = self.log.add_fields("sold", _trade_fields(player, gem, price))
        else:
            if not self.bought_any:
                self.log = self.log.add_fields("could_not_buy", {"seat": player})
            self._end_turn()

    def _trade(self, player: int, gem: int, gems_in: int, cash_in: int) -> None:
        """`gems_in` of `gem` into the player's hand from the bazaar, `cash_in` grands into its purse (a buy
        or a sale at the gem's price). New tuples (clones share the old), each made by replace_at: a list
        and a tuple, where slicing around the changed item made five tuples."""
        cash, stock, gems = self.cash, self.stock, self.gems
        hand = gems[player]
        self.cash = replace_at(cash, player, cash[player] + cash_in)
        self.stock = replace_at(stock, gem, stock[gem] - gems_in)
        self.gems = replace_at(gems, player, replace_at(hand, gem, hand[gem] + gems_in))

    # --- turns and rounds -------------------------------------------------------------------------------

    def opener(self) -> int:
        """GB-R1: round r is opened by player ((r - 1) mod n) + 1, i.e. seat (r - 1) mod n."""
        return (self.round - 1) % self.num_players

    def _end_turn(self) -> None:
        self.bought = self.sold = NO_FLAGS
        self.bought_any = False
        self.turn += 1
        if self.turn < self.num_players:
            self.current = (self.opener() + self.turn) % self.num_players  # GB-R2: clockwise
        elif self.round == ROUNDS:
            self._cash_out()
        else:
            self.round += 1
            self._open_round()

    def _open_round(self) -> None:
        """GB-R1: the round's first player reveals the top price card and every price moves."""
        self.turn = 0
        self.current = self.opener()
        card = self.deck[-1]
        self.deck = self.deck[:-1]
        self.revealed = self.revealed + (card,)
        before, changes = self.prices, PRICE_CARDS[card]
        # by index, not zip(..., strict=True): compiled, a call with a keyword is CPython's generic call
        self.prices = prices = tuple([before[g] + changes[g] for g in GEM_INDICES])
        # add_fields with the dict built here, in the order add(**arguments) gave: round, seat, card, each
        # gem's new price, new_round (compiled, the keywords and the splat went through the generic call)
        fields: dict[str, Any] = {"round": self.round, "seat": self.current, "card": CARD_TEXTS[card]}
        for g in GEM_INDICES:
            fields[GEMS[g]] = prices[g]
        fields["new_round"] = self.round
        self.log = self.log.add_fields("price_card", fields)

    def _cash_out(self) -> None:
        """GB-E1: every gem in hand is worth 10 grands at the end."""
        self.cash = self.worth_at_end()
        self.over = True
        self.log = self.log.add("game_over", scores=list(self.cash))

    def scores(self) -> list[float]:
        """Grands in hand (public); final after the cash-out (GB-E2)."""
        return [float(c) for c in self.cash]

    def ranks(self) -> list[int]:
        """GB-E2: ranked by grands; tied players share a rank."""
        return [1 + sum(1 for other in self.cash if other > mine) for mine in self.cash]

    # --- information --------------------------------------------------------------------------------

    def view(self, player: Any) -> dict[str, JSON]:
        """GB-I1: everything is public except the order of the price deck."""
        if player is not None:
            self.check_seat(player)
        remaining = sorted(PRICE_CARDS[c] for c in self.deck)
        worth = list(self.cash) if self.over else list(self.worth_at_end())
        view: dict[str, JSON] = {
            "game": "grand_bazaar",
            "seat": player,
            "players": self.num_players,
            "round": self.round,
            "rounds": ROUNDS,
            "opener": self.opener(),
            "current": None if self.over else self.current,
            "to_act": self.to_act(),
            "gems": list(GEMS),
            "prices": list(self.prices),
            "price_history": self.price_history(),
            "revealed": [list(PRICE_CARDS[c]) for c in self.revealed],
            "remaining_cards": [list(card) for card in remaining],
            "stock": list(self.stock),
            # worth: what each seat would have if the game ended now (GB-E1's cash-out, 10 a gem), the one
            # figure the page and the terminal both show; once over, the gems are cashed out into cash
            "holdings": [
                {"seat": p, "gems": list(self.gems[p]), "cash": self.cash[p], "worth": worth[p]}
                for p in range(self.num_players)
            ],
            "turn": {
                "bought": [GEMS[g] for g in GEM_RANGE if self.bought[g]],
                "sold": [GEMS[g] for g in GEM_RANGE if self.sold[g]],
            },
            "over": self.over,
            "scores": self.scores(),
            "ranks": self.ranks() if self.over else None,
            "log": self.log.visible_to(player),
        }
        variants = self.game.variants_in_play(self.options)
        if variants:
            view["variants"] = variants
        return view

    def expected_moves(self) -> tuple[float, ...]:
        """Each gem's mean change over the price cards not yet revealed (0 once none are left): public,
        because which cards are left is (GB-I1 hides only their order). For bots, without a whole view."""
        deck = self.deck
        if not deck:
            return (0.0,) * len(GEMS)
        return tuple(sum(PRICE_CARDS[c][g] for c in deck) / len(deck) for g in GEM_RANGE)

    def worth_at_end(self) -> tuple[int, ...]:
        """Each seat's cash plus 10 grands for each gem it holds, what it would have if the game ended now
        (GB-E1): the cash-out, and for bots how far each seat is ahead."""
        return tuple(
            cash + FINAL_GEM_VALUE * sum(gems) for cash, gems in zip(self.cash, self.gems, strict=True)
        )

    def price_history(self) -> list[list[int]]:
        """Prices after each revealed card, starting from the opening prices."""
        return [list(prices) for prices in _price_history(self.revealed)]

    # --- copies, serialisation, sampling ------------------------------------------------------------

    def clone(self) -> BazaarState:
        new = BazaarState.__new__(BazaarState)
        new.num_players = self.num_players
        new.deck = self.deck  # tuples: shared
        new.revealed = self.revealed
        new.prices = self.prices
        new.stock = self.stock
        new.gems = self.gems
        new.cash = self.cash
        new.round = self.round
        new.turn = self.turn
        new.current = self.current
        new.bought = self.bought
        new.sold = self.sold
        new.bought_any = self.bought_any
        new.over = self.over
        new.log = self.log  # immutable, shared
        new.options = self.options  # never changed once the game is built: shared
        new.buy_targets = self.buy_targets  # the same position
        new.legal = self.legal  # never changed, only replaced: shared
        return new

    def to_dict(self) -> dict[str, JSON]:
        return {
            "game": "grand_bazaar",
            "version": FORMAT_VERSION,
            "players": self.num_players,
            "deck": list(self.deck),
            "revealed": list(self.revealed),
            "prices": list(self.prices),
            "stock": list(self.stock),
            "gems": [list(g) for g in self.gems],
            "cash": list(self.cash),
            "round": self.round,
            "turn": self.turn,
            "current": self.current,
            "bought": list(self.bought),
            "sold": list(self.sold),
            "bought_any": self.bought_any,
            "over": self.over,
            "log": self.log.events(),
            **self._options_dict(),
        }

    def _options_dict(self) -> dict[str, JSON]:
        """The variants in play, under "options"; nothing at the rulebook's rules (the dict stays as it was
        before variants existed)."""
        recorded = self.game.recorded_options(self.options)
        return {"options": recorded} if recorded else {}

    def sample_hidden(self, player: Any, rng: Any) -> BazaarState:
        """GB-I1: only the order of the unrevealed price cards is secret; reshuffle it with `rng`."""
        self.check_viewer(player, rng)
        world = self.clone()
        world.log = self.log.seen_by(player)
        deck = sorted(world.deck)  # the unrevealed cards as a set: their real order must not steer a shuffle
        rng.shuffle(deck)
        world.deck = tuple(deck)
        return world


@functools.lru_cache(maxsize=4096)
def _price_history(revealed: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Remembered per sequence of revealed cards, each built on the one before: every view shows the
    history, and a server builds views after every move (it was most of a view's time)."""
    if not revealed:
        return ((START_PRICE,) * len(GEMS),)
    before = _price_history(revealed[:-1])
    card = PRICE_CARDS[revealed[-1]]
    return (*before, tuple(price + change for price, change in zip(before[-1], card, strict=True)))


def setup(state: BazaarState, rng: random.Random, options: dict[str, Any] | None = None) -> None:
    """GB-S1: prices at 10, gems in the bazaar, the price cards shuffled, 30 grands each; then round 1.
    `options` may name variants (game.py): the grands each starts with, the gem cards of each type."""
    n = state.num_players
    state.options = options or {}
    deck = list(range(len(PRICE_CARDS)))
    rng.shuffle(deck)
    state.deck = tuple(deck)
    state.revealed = ()
    state.prices = (START_PRICE,) * len(GEMS)
    state.stock = (market_size(state.options),) * len(GEMS)
    state.gems = ((0,) * len(GEMS),) * n
    state.cash = (state.options.get("start_cash") or START_CASH,) * n
    state.round = 1
    state.bought = state.sold = NO_FLAGS
    state.bought_any = False
    state.over = False
    state.log = EventLog()
    state.position_changed()
    state._open_round()


def _trade_fields(seat: int, gem: int, price: int) -> dict[str, Any]:
    """The arguments of a buy's or a sale's event: seat, gem and price (in that order), read-only."""
    key = (seat, gem, price)
    fields = _TRADE_FIELDS.get(key)
    if fields is None:
        fields = _TRADE_FIELDS[key] = {"seat": seat, "gem": GEMS[gem], "price": price}
    return fields


def market_size(options: dict[str, Any]) -> int:
    """Gem cards of each type in the bazaar: GB-C1's 10, or the variant's."""
    size: int = options.get("market_size") or GEM_CARDS_PER_TYPE
    return size


def _buy_targets(
    cash: int,
    hand: tuple[int, ...],
    prices: tuple[int, ...],
    stock: tuple[int, ...],
    bought: tuple[bool, ...],
    sold: tuple[bool, ...],
) -> int:
    """GB-R7: the gems a player could buy after some sequence of sales from here, as a bitmask (bit g for
    gem g); 0 when no sequence of sales makes any buy possible.

    To buy gem g the best a player can do is sell every other gem that may still be sold (never g itself,
    which would forbid buying it): that raises the most cash and frees the most room. A sale of gem s
    changes none of that for a gem g other than s (the price of s is in the cash either way), and forbids
    buying s (GB-R6): after selling s the targets are these less s. So one pass answers every sale."""
    money = cash  # cash after selling every gem that may be sold
    held = 0  # gems that must stay in hand: those bought this turn (GB-R6)
    for g in GEM_INDICES:
        if bought[g]:
            held += hand[g]
        else:
            money += hand[g] * prices[g]
    targets = 0
    for g in GEM_INDICES:
        if stock[g] == 0 or sold[g]:
            continue
        if bought[g]:
            can = money >= prices[g] and held < GEM_LIMIT
        else:  # its own gems stay in hand
            can = money - hand[g] * prices[g] >= prices[g] and held + hand[g] < GEM_LIMIT
        if can:
            targets |= GEM_BITS[g]
    return targets
