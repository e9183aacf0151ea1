"""Grand Bazaar's rules: the state and its forward model. Clause ids refer to
../shared/rules/grand_bazaar.md.

Each of the 27 rounds opens with the next price card (GB-R1); then every player, from the round's first
player on, takes a turn made of single buys and sells ended by `done` (GB-R2, GB-R7).
"""

from __future__ import annotations

import random

from merchantry.engine import JSON, EventLog, State, seat_label
from merchantry.games.grand_bazaar.actions import BUY, DONE, SELL, BazaarAction
from merchantry.games.grand_bazaar.components import (
    FINAL_GEM_VALUE,
    GEM_CARDS_PER_TYPE,
    GEM_LIMIT,
    GEMS,
    PRICE_CARDS,
    ROUNDS,
    START_CASH,
    START_PRICE,
    card_text,
)

GEM_RANGE = range(len(GEMS))
FORMAT_VERSION = 2  # 2: the game's seed is no longer part of the state


class BazaarState(State):
    """A position of Grand Bazaar: flat lists of ints, cheap to clone (principle 4)."""

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
    )

    num_players: int
    deck: list[int]  # unrevealed price cards, the top one last (GB-I1: the only secret)
    revealed: tuple[int, ...]  # price cards in the order they were revealed (public)
    prices: list[int]  # per gem
    stock: list[int]  # gem cards left in the bazaar, per gem
    gems: list[list[int]]  # per player, per gem
    cash: list[int]  # grands per player
    round: int  # 1..27
    turn: int  # how many players have finished their turn this round
    current: int  # seat whose turn it is
    bought: list[bool]  # per gem, during the current turn (GB-R6)
    sold: list[bool]
    bought_any: bool  # GB-R3
    over: bool
    log: EventLog

    # --- the contract -----------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> list[int]:
        return [] if self.over else [self.current]

    def legal_actions(self, player: int) -> list[BazaarAction]:
        if self.over or player != self.current:
            return []
        actions = [BUY[g] for g in GEM_RANGE if self._can_buy(player, g)]
        must_buy = self._must_buy(player)
        actions += [SELL[g] for g in GEM_RANGE if self._may_sell(player, g, must_buy)]
        if not must_buy:
            actions.append(DONE)
        return actions

    def _is_legal(self, player: int, action: object) -> bool:
        """`action in legal_actions(player)`, without building the list: apply() asks on every move."""
        if self.over or player != self.current or not isinstance(action, BazaarAction):
            return False
        if action.verb in ("buy", "sell") and action.gem not in GEM_RANGE:
            return False
        if action.verb == "buy":
            return self._can_buy(player, action.gem)
        must_buy = self._must_buy(player)
        if action.verb == "sell":
            return self._may_sell(player, action.gem, must_buy)
        return action == DONE and not must_buy

    def _must_buy(self, player: int) -> bool:
        """GB-R3/GB-R7: no buy yet this turn, and some sequence of sales still allows one."""
        return not self.bought_any and self._buy_still_possible(player)

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

    def _buy_still_possible(self, player: int) -> bool:
        """GB-R7: could some sequence of sales from here make a buy possible?

        To buy gem g the best a player can do is sell every other gem that may still be sold (never g
        itself, which would forbid buying it), which raises the most cash and frees the most room."""
        hand = self.gems[player]
        for gem in GEM_RANGE:
            if self.stock[gem] == 0 or self.sold[gem]:
                continue
            others = [h for h in GEM_RANGE if h != gem]
            cash = self.cash[player] + sum(hand[h] * self.prices[h] for h in others if not self.bought[h])
            held = hand[gem] + sum(hand[h] for h in others if self.bought[h])
            if cash >= self.prices[gem] and held < GEM_LIMIT:
                return True
        return False

    def _sale_blocks_every_buy(self, player: int, gem: int) -> bool:
        """GB-R3/GB-R7: a player who can still buy may not sell their way out of buying. Judged by making
        the sale, looking, and undoing it (three numbers and a flag)."""
        sold_before = self.sold[gem]
        self.cash[player] += self.prices[gem]
        self.gems[player][gem] -= 1
        self.sold[gem] = True
        blocked = not self._buy_still_possible(player)
        self.cash[player] -= self.prices[gem]
        self.gems[player][gem] += 1
        self.sold[gem] = sold_before
        return blocked

    def _why_illegal(self, player: int, action: BazaarAction) -> str:
        if self.over:
            return "the game is over"
        if player != self.current:
            return f"it is {seat_label(self.current)}'s turn, not {seat_label(player)}'s"
        gem = GEMS[action.gem] if action.gem >= 0 else ""
        if action.verb == "buy":
            if self.sold[action.gem]:
                return f"you sold {gem} this round and cannot buy it back (GB-R6)"
            if sum(self.gems[player]) >= GEM_LIMIT:
                return f"you hold {GEM_LIMIT} gems: sell one before buying (GB-R4)"
            if self.stock[action.gem] == 0:
                return f"the bazaar has no {gem} left (GB-R5)"
            return f"{gem} costs {self.prices[action.gem]} and you have {self.cash[player]} grands (GB-R5)"
        if action.verb == "sell":
            if self.bought[action.gem]:
                return f"you bought {gem} this round and cannot sell it (GB-R6)"
            if self._can_sell(player, action.gem):
                return (
                    f"you must buy a gem this turn, and after selling {gem} you could buy none:"
                    " buy first (GB-R3, GB-R7)"
                )
            return f"you have no {gem} to sell"
        return "you must buy at least one gem this turn before you are done (GB-R3)"

    def _apply(self, player: int, action: BazaarAction) -> None:
        gem = action.gem
        if action.verb == "buy":
            self.cash[player] -= self.prices[gem]
            self.stock[gem] -= 1
            self.gems[player][gem] += 1
            self.bought[gem] = True
            self.bought_any = True
            self.log = self.log.add("bought", seat=player, gem=GEMS[gem], price=self.prices[gem])
        elif action.verb == "sell":
            self.cash[player] += self.prices[gem]
            self.stock[gem] += 1
            self.gems[player][gem] -= 1
            self.sold[gem] = True
            self.log = self.log.add("sold", seat=player, gem=GEMS[gem], price=self.prices[gem])
        else:
            if not self.bought_any:
                self.log = self.log.add("could_not_buy", seat=player)
            self._end_turn()

    # --- turns and rounds -------------------------------------------------------------------------------

    def opener(self) -> int:
        """GB-R1: round r is opened by player ((r - 1) mod n) + 1, i.e. seat (r - 1) mod n."""
        return (self.round - 1) % self.num_players

    def _end_turn(self) -> None:
        self.bought = [False] * len(GEMS)
        self.sold = [False] * len(GEMS)
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
        card = self.deck.pop()
        self.revealed = (*self.revealed, card)
        for gem, change in enumerate(PRICE_CARDS[card]):
            self.prices[gem] += change
        self.log = self.log.add(
            "price_card",
            round=self.round,
            seat=self.current,
            card=card_text(card),
            **{gem: self.prices[g] for g, gem in enumerate(GEMS)},
            new_round=self.round,
        )

    def _cash_out(self) -> None:
        """GB-E1: every gem in hand is worth 10 grands at the end."""
        for player in range(self.num_players):
            self.cash[player] += FINAL_GEM_VALUE * sum(self.gems[player])
        self.over = True
        self.log = self.log.add("game_over", scores=self.cash[:])

    def scores(self) -> list[float]:
        """Grands in hand (public); final after the cash-out (GB-E2)."""
        return [float(c) for c in self.cash]

    def ranks(self) -> list[int]:
        """GB-E2: ranked by grands; tied players share a rank."""
        return [1 + sum(1 for other in self.cash if other > mine) for mine in self.cash]

    # --- information --------------------------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, JSON]:
        """GB-I1: everything is public except the order of the price deck."""
        if player is not None:
            self.check_seat(player)
        remaining = sorted(PRICE_CARDS[c] for c in self.deck)
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
            "prices": self.prices[:],
            "price_history": self.price_history(),
            "revealed": [list(PRICE_CARDS[c]) for c in self.revealed],
            "remaining_cards": [list(card) for card in remaining],
            "stock": self.stock[:],
            "holdings": [
                {"seat": p, "gems": self.gems[p][:], "cash": self.cash[p]} for p in range(self.num_players)
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
        return view

    def price_history(self) -> list[list[int]]:
        """Prices after each revealed card, starting from the opening prices."""
        prices = [START_PRICE] * len(GEMS)
        history = [prices[:]]
        for card in self.revealed:
            prices = [p + change for p, change in zip(prices, PRICE_CARDS[card], strict=True)]
            history.append(prices)
        return history

    # --- copies, serialisation, sampling ------------------------------------------------------------

    def clone(self) -> BazaarState:
        new = BazaarState.__new__(BazaarState)
        new.num_players = self.num_players
        new.deck = self.deck[:]
        new.revealed = self.revealed  # immutable
        new.prices = self.prices[:]
        new.stock = self.stock[:]
        new.gems = [g[:] for g in self.gems]
        new.cash = self.cash[:]
        new.round = self.round
        new.turn = self.turn
        new.current = self.current
        new.bought = self.bought[:]
        new.sold = self.sold[:]
        new.bought_any = self.bought_any
        new.over = self.over
        new.log = self.log  # immutable, shared
        return new

    def to_dict(self) -> dict[str, JSON]:
        return {
            "game": "grand_bazaar",
            "version": FORMAT_VERSION,
            "players": self.num_players,
            "deck": self.deck[:],
            "revealed": list(self.revealed),
            "prices": self.prices[:],
            "stock": self.stock[:],
            "gems": [g[:] for g in self.gems],
            "cash": self.cash[:],
            "round": self.round,
            "turn": self.turn,
            "current": self.current,
            "bought": self.bought[:],
            "sold": self.sold[:],
            "bought_any": self.bought_any,
            "over": self.over,
            "log": self.log.events(),
        }

    def sample_hidden(self, player: int | None, rng: random.Random) -> BazaarState:
        """GB-I1: only the order of the unrevealed price cards is secret; reshuffle it with `rng`."""
        if player is not None:
            self.check_seat(player)
        world = self.clone()
        rng.shuffle(world.deck)
        return world


def setup(state: BazaarState, rng: random.Random) -> None:
    """GB-S1: prices at 10, gems in the bazaar, the price cards shuffled, 30 grands each; then round 1."""
    n = state.num_players
    state.deck = list(range(len(PRICE_CARDS)))
    rng.shuffle(state.deck)
    state.revealed = ()
    state.prices = [START_PRICE] * len(GEMS)
    state.stock = [GEM_CARDS_PER_TYPE] * len(GEMS)
    state.gems = [[0] * len(GEMS) for _ in range(n)]
    state.cash = [START_CASH] * n
    state.round = 1
    state.bought = [False] * len(GEMS)
    state.sold = [False] * len(GEMS)
    state.bought_any = False
    state.over = False
    state.log = EventLog()
    state._open_round()
