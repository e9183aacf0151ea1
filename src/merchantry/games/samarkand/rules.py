"""Samarkand's rules: the state and its forward model. Clause ids refer to ../shared/rules/samarkand.md.

A turn is one action (SK-T1..T6) played as a short sequence of small steps:
- `marry F`, then, if cards were drawn, `discard g` at most twice and `done` (SK-T1, SK-T2);
- `expand F s` places the first camel; then `camel s` places a second one (1 dirham from the family's
  treasury) or `done` ends the turn (SK-T3..T5);
- the first camel on a goods space opens a sale offer (SK-G1). Every seat answers it, `sell g` or `keep`,
  as a simultaneous step: at a real table whoever holds the card speaks up or stays silent, so waiting for
  the holder alone would tell everyone who holds it (SK-I1). Only the holder may answer `sell`.
"""

from __future__ import annotations

import random
from typing import Any, Final

from merchantry.engine import JSON, EventLog, State, add_at, replace_at, seat_label, without
from merchantry.errors import Reason
from merchantry.games.samarkand.actions import (
    CAMEL,
    DISCARD,
    DONE,
    EVERY_ACTION,
    EXPAND,
    KEEP,
    MARRY,
    PASS,
    SELL,
    SamarkandAction,
)
from merchantry.games.samarkand.components import (
    ACTIVE_BONUS,
    ADJACENT,
    CAMELS_PER_FAMILY,
    DRAW_ON_MARRIAGE,
    GOOD_AT,
    HAND_LIMIT,
    IS_WATER,
    MAP,
    MARKERS_PER_FAMILY,
    MAX_DISCARDS,
    NUM_GOODS,
    OTHER_CAMEL_POINTS,
    OWN_CAMEL_POINTS,
    PASSIVE_BONUS,
    SALE_PRICE,
    START_HAND,
    START_MONEY,
    TILES_PER_FAMILY,
)

FORMAT_VERSION: Final = 1
# A tuple of ints, not a range: compiled, a loop over a tuple[int, ...] is native, over a range object it is
# CPython's generic iteration (legal_actions, the marriages and the scoring loop over the families)
FAMILIES: Final[tuple[int, ...]] = tuple(range(len(MAP.families)))
FAMILY_COST: Final = tuple(family.cost for family in MAP.families)  # SK-T1
SPACES: Final = range(len(MAP.spaces))
PHASES: Final = ("act", "discard", "offer", "second", "over")


def good_name(good: int) -> str:
    return MAP.goods[good - 1]


# Named apart so that to_dict's field list can read it (a compiled class has no __slots__ to read).
_SLOTS: Final = (
    "num_players",
    "money",
    "hands",
    "sold",
    "deck",
    "discards",
    "discarders",
    "random_seed",
    "tiles_held",
    "domain_tiles",
    "bag",
    "removed_tiles",
    "treasury",
    "camels_left",
    "camels",
    "routes",
    "frontiers",
    "met",
    "stack",
    "goods_markers",
    "relation_markers",
    "first_player",
    "current",
    "phase",
    "family",
    "camels_placed",
    "discarded",
    "married",
    "offer_good",
    "offer_waiting",
    "turns",
    "passes",
    "over",
    "log",
    "options",
)


class SamarkandState(State):
    """A position of Samarkand: flat lists of ints, cheap to clone (principle 4)."""

    __slots__ = _SLOTS

    num_players: int
    options: dict[str, Any]  # the resolved options (variants); public, never changed once built: shared
    # Every table and card pile is a tuple, replaced when it changes, so that clones share them all.
    money: tuple[int, ...]  # dirhams per seat (SK-S3)
    hands: tuple[tuple[int, ...], ...]  # goods cards per seat, sorted (hidden, SK-I1)
    sold: tuple[tuple[int, ...], ...]  # sold face up per seat (SK-G1; count toward the hand limit)
    deck: tuple[int, ...]  # face-down goods cards, the top one last (hidden)
    discards: tuple[int, ...]  # the face-down discard pile (hidden), in the order discarded
    discarders: tuple[int, ...]  # who discarded each card of the pile (public: everyone saw them discard)
    random_seed: int  # the state's random stream for reshuffles and the bag (redrawn in sampled worlds)
    tiles_held: tuple[tuple[int, ...], ...]  # per seat, per family: family tiles held (SK-T1)
    domain_tiles: tuple[int, ...]  # per family: tiles still on its domain
    bag: tuple[int, ...]  # 2 players: families of the tiles in the bag (SK-2P1), hidden order
    removed_tiles: tuple[int, ...]  # 2 players: tiles drawn for unmarried families, out of the game (SK-2P3)
    treasury: tuple[int, ...]  # per family (SK-C2)
    camels_left: tuple[int, ...]  # per family, on its domain
    camels: tuple[int, ...]  # per space, a bit per family whose camel stands there (SK-T4: at most 2 bits)
    routes: tuple[tuple[int, ...], ...]  # per family, the spaces its camels stand on (derived from camels)
    # per family, a bit per space where its next camel may go (SK-T3, SK-T4; derived from camels, kept up
    # to date by _place): legal_actions lists it and _after_camel tests it for emptiness on every turn
    frontiers: tuple[int, ...]
    met: tuple[int, ...]  # per family, a bit per family it has had a relationship with (SK-R2)
    stack: tuple[int, ...]  # per family, relationship markers left on its domain (SK-C2)
    goods_markers: tuple[int, ...]  # per seat (SK-G1)
    relation_markers: tuple[int, ...]  # per seat (SK-R2)
    first_player: int
    current: int  # whose turn it is
    phase: str  # act | discard | offer | second | over
    family: int  # the family expanding this turn (-1 before an expansion)
    camels_placed: int  # camels placed this turn
    discarded: int  # cards discarded this turn (SK-T2: at most 2)
    married: bool  # whether the current player married this turn (SK-2P3)
    offer_good: int  # the good on sale (SK-G1), 0 when no offer is open
    offer_waiting: tuple[bool, ...]  # per seat: still to answer the offer
    turns: int  # turns played
    passes: int  # turns in a row that were passes (SK-T6)
    over: bool
    log: EventLog

    # --- the contract -----------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def to_act(self) -> list[int]:
        if self.over:
            return []
        if self.phase == "offer":
            return [seat for seat in range(self.num_players) if self.offer_waiting[seat]]
        return [self.current]

    def in_decision(self, player: int) -> bool:
        """The decisions of a turn (SK-T1..T5): a marriage; the discards after the cards it drew, up to
        `done` (a new decision: those cards are new to the player); the first camel and the second (or
        `done`). The sale offer a camel may open (SK-G1) is each seat's own decision, and so it ends the
        mover's: the second camel after it is a decision of its own (the mover has learnt who sold)."""
        if self.over or player != self.current:
            return False
        if self.phase == "second":
            last = self.log.last
            return last is None or last["type"] not in ("goods_marker", "sold")
        return self.phase == "discard" and self.discarded > 0

    def answers_unseen(self) -> bool:
        """SK-G1, SK-I1: who has answered a sale offer is nobody's business (docs/samarkand.md, "Timing")."""
        return self.phase == "offer"

    def legal_actions(self, player: Any) -> list[SamarkandAction]:
        if type(player) is not int or not 0 <= player < self.num_players:
            self.check_seat(player)
        seat: int = player  # typed: compiled, comparing and indexing by it is then native, not generic
        if self.over:
            return []
        if self.phase == "offer":
            if not self.offer_waiting[seat]:
                return []
            selling = [SELL[self.offer_good]] if self.offer_good in self.hands[seat] else []
            return [*selling, KEEP]
        if seat != self.current:
            return []
        if self.phase == "discard":
            discards = [DISCARD[g] for g in self.hands[seat]] if self.discarded < MAX_DISCARDS else []
            return [*discards, DONE] if self.within_limit(seat) else discards
        if self.phase == "second":
            return [*_moves_to(CAMEL, self.frontiers[self.family]), DONE]
        actions = self._marriages(seat)
        held, camels_left, frontiers = self.tiles_held[seat], self.camels_left, self.frontiers
        for f in FAMILIES:
            if held[f] and camels_left[f]:
                actions += _moves_to(EXPAND[f], frontiers[f])
        return actions or [PASS]  # SK-T6

    def _is_legal(self, player: int, action: object) -> bool:
        """`action in legal_actions(player)`, without building the list: apply() asks on every move."""
        if self.over or not isinstance(action, SamarkandAction) or action not in EVERY_ACTION:
            return False
        verb = action.verb
        if self.phase == "offer":
            if not self.offer_waiting[player]:
                return False
            return action == KEEP or (
                action == SELL.get(self.offer_good) and self.offer_good in self.hands[player]
            )
        if player != self.current:
            return False
        if self.phase == "discard":
            if verb == "discard":
                return self.discarded < MAX_DISCARDS and action.good in self.hands[player]
            return action == DONE and self.within_limit(player)
        if self.phase == "second":
            return action == DONE or (verb == "camel" and self.may_place(self.family, action.space))
        if verb == "marry":
            return self.may_marry(player, action.family)
        if verb == "expand":
            family = action.family
            return bool(self.tiles_held[player][family] and self.camels_left[family]) and self.may_place(
                family, action.space
            )
        return action == PASS and self.legal_actions(player) == [PASS]

    def may_place(self, family: int, space: int) -> bool:
        """SK-T3, SK-T4: `space` is next to a camel of `family`, holds fewer than 2 camels and none of it."""
        return bool(self.frontiers[family] >> space & 1)

    def hand_size(self, player: int) -> int:
        """SK-G1: a sold card still counts toward the hand limit."""
        return len(self.hands[player]) + len(self.sold[player])

    def hand_limit(self) -> int:
        return self.options.get("hand_limit") or HAND_LIMIT[self.num_players]  # SK-S4, or the variant

    def within_limit(self, player: int) -> bool:
        return self.hand_size(player) <= self.hand_limit()

    def may_marry(self, player: int, family: int) -> bool:
        """SK-T1: a tile on the domain, money for the cost, and (3-5 players) not already married into it."""
        return (
            self.domain_tiles[family] > 0
            and self.money[player] >= MAP.families[family].cost
            and (self.num_players == 2 or not self.tiles_held[player][family])  # SK-2P2
        )

    def _marriages(self, player: int) -> list[SamarkandAction]:
        """The `marry` actions `may_marry` allows, every family at once (a call per family cost more than
        the test): a tile on the domain, the money, and (3-5 players) no tile of it held yet."""
        money, held, domain = self.money[player], self.tiles_held[player], self.domain_tiles
        if self.num_players == 2:  # SK-2P2
            return [MARRY[f] for f in FAMILIES if domain[f] and money >= FAMILY_COST[f]]
        return [MARRY[f] for f in FAMILIES if domain[f] and money >= FAMILY_COST[f] and not held[f]]

    def frontier(self, family: int) -> list[int]:
        """SK-T3, SK-T4: spaces next to a camel of `family` that hold fewer than 2 camels, none of it;
        ascending."""
        return spaces_in(self.frontiers[family])

    def _why_illegal(self, player: int, action: SamarkandAction) -> Reason:
        if self.over:
            return Reason("game_over", "the game is over")
        if not _well_formed(action):
            return _not_real(action)
        if self.phase == "offer":
            good = self.offer_good
            name = good_name(good)
            if not self.offer_waiting[player]:
                text = f"you have answered the offer for {name} ({good}); waiting for the others"
                return Reason("offer_answered", text, good=name, number=good)
            if action.verb == "sell":
                text = f"only the holder of the {name} card ({good}) may sell it now"
                return Reason("offer_not_holder", text, "SK-G1", good=name, number=good)
            text = f"answer the offer for {name} ({good}): 'sell {good}' if you hold it, or 'keep'"
            return Reason("offer_answer", text, good=name, number=good)
        if player != self.current:
            turn, who = seat_label(self.current), seat_label(player)
            return Reason(
                "not_your_turn", f"it is {turn}'s turn, not {who}'s", turn_seat=self.current, seat=player
            )
        if self.phase == "discard":
            if action.verb == "discard" and self.discarded >= MAX_DISCARDS:
                return Reason("discards_used", "you may discard at most 2 cards after marrying", "SK-T2")
            if action.verb == "discard":
                name = good_name(action.good)
                text = f"you hold no {name} card ({action.good})"
                return Reason("good_not_held", text, good=name, number=action.good)
            if action == DONE:
                limit = self.hand_limit()
                text = f"your hand is over the limit of {limit}: discard first"
                return Reason("hand_over_limit", text, "SK-T2", limit=limit)
            return Reason("discard_now", "you married and drew: discard up to 2 cards, then 'done'", "SK-T2")
        if self.phase == "second":
            if action.verb == "camel":
                where, family = MAP.spaces[action.space].id, self._family_name()
                text = f"{where} is not next to a {family} camel, or is full"
                return Reason("not_next_to_camel", text, "SK-T3", "SK-T4", space=where, family=family)
            text = "place a second camel ('camel <space>', 1 dirham from the treasury) or 'done'"
            return Reason("second_camel_now", text, "SK-T3")
        return self._why_not_act(player, action)

    def _family_name(self) -> str:
        return MAP.families[self.family].name

    def _why_not_act(self, player: int, action: SamarkandAction) -> Reason:
        if action.verb == "marry":
            family = MAP.families[action.family]
            name = family.name
            if not self.domain_tiles[action.family]:
                return Reason("no_tile_left", f"no {name} tile is left on its domain", "SK-T1", family=name)
            if self.tiles_held[player][action.family] and self.num_players > 2:
                return Reason("tile_held", f"you already hold a {name} tile", "SK-T1", family=name)
            cost, money = family.cost, self.money[player]
            text = f"marrying into {name} costs {cost} and you have {money}"
            return Reason("marriage_cost", text, "SK-T1", family=name, cost=cost, money=money)
        if action.verb == "expand":
            name = MAP.families[action.family].name
            if not self.tiles_held[player][action.family]:
                text = f"you hold no {name} tile: marry into the family first"
                return Reason("no_tile", text, "SK-T3", family=name)
            if not self.camels_left[action.family]:
                return Reason("no_camels_left", f"{name} has no camels left", "SK-T3", family=name)
            space = MAP.spaces[action.space].id
            text = f"{space} is not next to a {name} camel, or is full"
            return Reason("not_next_to_camel", text, "SK-T3", "SK-T4", space=space, family=name)
        if action == PASS:
            return Reason(
                "pass_not_allowed", "you may only pass when you can neither marry nor expand", "SK-T6"
            )
        return Reason(
            "choose_action", "choose an action: marry into a family, or expand a family whose tile you hold"
        )

    # --- applying -----------------------------------------------------------------------------------

    def _apply(self, player: int, action: SamarkandAction) -> None:
        verb = action.verb
        if verb == "marry":
            self._marry(player, action.family)
        elif verb == "discard":
            self._discard(player, action.good)
        elif verb == "expand":
            self.family = action.family
            self._place(action.space)
        elif verb == "camel":
            self.treasury = add_at(self.treasury, self.family, -1)  # SK-T5: paid before the camel is placed
            self._place(action.space)
        elif verb == "sell":
            self._sell(player, action.good)
        elif verb == "keep":
            self.offer_waiting = replace_at(self.offer_waiting, player, False)
            # (`in`, not any(): compiled, a builtin looked up and called generically; faster pure too)
            if True not in self.offer_waiting:
                self._close_offer()
        elif verb == "pass":
            self.log = self._add("passed", seat=player)
            self._end_turn(passed=True)
        else:  # done: no more discards, or no second camel
            self._end_turn()

    def _add(self, event_type: str, **arguments: object) -> EventLog:
        """Log an event; the first event of each round of turns carries `new_round`."""
        turn = self.turns + 1
        # a round's first turn: is this its first event? (an empty log has no turn)
        if self.turns % self.num_players == 0 and self.log.last_field("turn") != turn:
            arguments["new_round"] = self.turns // self.num_players + 1
        others = arguments.get("others")
        if isinstance(others, dict):  # what the seats outside the audience read: the same turn and round
            others = {**others, "turn": turn}
            if "new_round" in arguments:
                others["new_round"] = arguments["new_round"]
            arguments["others"] = others
        # the same keys in the same order as add(event_type, turn=turn, **arguments), without its generic call
        # nor, until the event is read, a copy of the arguments behind its turn
        return self.log.add_fields(event_type, arguments, ("turn", turn))

    def _marry(self, player: int, family: int) -> None:
        """SK-T1, SK-T2."""
        cost = MAP.families[family].cost
        self.money = add_at(self.money, player, -cost)
        self.treasury = add_at(self.treasury, family, cost)
        self.domain_tiles = add_at(self.domain_tiles, family, -1)
        self.tiles_held = replace_at(self.tiles_held, player, add_at(self.tiles_held[player], family, 1))
        self.married = True
        drawn: list[int] = []
        if self.hand_size(player) < self.hand_limit():
            drawn = self._draw(DRAW_ON_MARRIAGE)
        name = MAP.families[family].name
        if drawn:
            self.hands = replace_at(self.hands, player, tuple(sorted(self.hands[player] + tuple(drawn))))
            # SK-I1: one line, the cards named for their seat and counted for everyone else
            married = {"type": "married", "seat": player, "family": name, "cost": cost, "count": len(drawn)}
            cards = [good_name(g) for g in drawn]
            self.log = self._add(
                "you_married",
                seat=player,
                family=name,
                cost=cost,
                cards=cards,
                audience=[player],
                others=married,
            )
            self.phase = "discard"
            self.discarded = 0
        else:
            self.log = self._add("married", seat=player, family=name, cost=cost, count=0)
            self._end_turn()

    def _draw(self, count: int) -> list[int]:
        """SK-T2: from the deck; an empty deck is refilled from the shuffled discards (if both are empty,
        what exists is drawn)."""
        drawn: list[int] = []
        while len(drawn) < count:
            if not self.deck:
                if not self.discards:
                    break
                deck = list(self.discards)
                self._random().shuffle(deck)
                self.deck, self.discards, self.discarders = tuple(deck), (), ()
                self.log = self._add("reshuffled", count=len(self.deck))
            drawn.append(self.deck[-1])
            self.deck = self.deck[:-1]
        return drawn

    def _random(self) -> random.Random:
        """The state's own random stream: one draw of it, and a new seed for the next (principle 3)."""
        stream = random.Random(self.random_seed)
        self.random_seed = stream.getrandbits(64)
        return stream

    def _discard(self, player: int, good: int) -> None:
        self.hands = replace_at(self.hands, player, without(self.hands[player], good))
        self.discards += (good,)
        self.discarders += (player,)
        self.discarded += 1
        # SK-I1: one event, one line in every log: the card's name for its seat, face down for everyone else
        self.log = self._add(
            "you_discarded",
            seat=player,
            good_name=good_name(good),
            audience=[player],
            others={"type": "discarded", "seat": player},
        )
        if self.discarded == MAX_DISCARDS:  # SK-T2: two discards always leave the hand within the limit
            self._end_turn()

    def _place(self, space: int) -> None:
        """Place one camel of the expanding family and resolve it fully (SK-T5): goods, relationships."""
        family, player = self.family, self.current
        before = self.camels[space]
        self.camels = replace_at(self.camels, space, before | (1 << family))
        self.routes = replace_at(self.routes, family, (*self.routes[family], space))
        self.frontiers = _frontiers_after(self.frontiers, self.camels, family, space)
        self.camels_left = add_at(self.camels_left, family, -1)
        self.camels_placed += 1
        self.log = self._add(
            "camel",
            seat=player,
            family=MAP.families[family].name,
            space=MAP.spaces[space].id,
            count=self.camels_placed,
        )
        good = GOOD_AT[space]
        if good and not before:  # SK-G1: the first camel ever on this goods space
            self.goods_markers = add_at(self.goods_markers, player, 1)
            self.log = self._add("goods_marker", seat=player, good=good, good_name=good_name(good))
            self.phase = "offer"
            self.offer_good = good
            self.offer_waiting = (True,) * self.num_players
            return
        if before and not IS_WATER[space]:  # SK-R1: camels meet on land, never on water
            self._relationship(player, family, before.bit_length() - 1)
        self._after_camel()

    def _relationship(self, player: int, active: int, passive: int) -> None:
        """SK-R2: only the first meeting of two families pays."""
        if self.met[active] & (1 << passive):
            return
        self.met = replace_at(self.met, active, self.met[active] | 1 << passive)
        self.met = replace_at(self.met, passive, self.met[passive] | 1 << active)
        active_seats = [p for p in range(self.num_players) if self.tiles_held[p][active]]
        passive_seats = [p for p in range(self.num_players) if self.tiles_held[p][passive]]
        for seat in active_seats:
            self.money = add_at(self.money, seat, ACTIVE_BONUS)  # SK-2P2: holding both tiles still pays once
        for seat in passive_seats:
            self.money = add_at(self.money, seat, PASSIVE_BONUS)
        markers = 0
        for family in (active, passive):
            if self.stack[family]:  # a family whose stack is empty yields no marker
                self.stack = add_at(self.stack, family, -1)
                markers += 1
        self.relation_markers = add_at(self.relation_markers, player, markers)
        # a family nobody married pays nobody its +1: the sentence then says so instead of an empty list
        self.log = self._add(
            "relationship" if passive_seats else "relationship_unheld",
            seat=player,
            family=MAP.families[active].name,
            other=MAP.families[passive].name,
            active_seats=active_seats,
            passive_seats=passive_seats,
            count=markers,
        )

    def _sell(self, player: int, good: int) -> None:
        """SK-G1: the card goes face up in front of its owner for 3 dirhams."""
        self.hands = replace_at(self.hands, player, without(self.hands[player], good))
        self.sold = replace_at(self.sold, player, (*self.sold[player], good))
        self.money = add_at(self.money, player, SALE_PRICE)
        self.log = self._add("sold", seat=player, good=good, good_name=good_name(good))
        self._close_offer()

    def _close_offer(self) -> None:
        self.offer_good = 0
        self.offer_waiting = (False,) * self.num_players
        self._after_camel()

    def _after_camel(self) -> None:
        """SK-T3: after the first camel a second may follow, paid by the treasury; after it the turn ends."""
        family = self.family
        if (
            self.camels_placed == 1
            and self.treasury[family] > 0
            and self.camels_left[family] > 0
            and self.frontiers[family]
        ):
            self.phase = "second"
        else:
            self._end_turn()

    # --- turns and the end ----------------------------------------------------------------------------

    def _end_turn(self, passed: bool = False) -> None:
        if self.married and self.num_players == 2:
            self._draw_tile_from_bag()
        self.turns += 1
        self.passes = self.passes + 1 if passed else 0
        self.phase, self.family, self.camels_placed, self.discarded, self.married = "act", -1, 0, 0, False
        reason = self._end_reason()
        if reason:
            self._finish(reason)
        else:
            self.current = (self.current + 1) % self.num_players

    def _draw_tile_from_bag(self) -> None:
        """SK-2P3: a tile of a family nobody married leaves the game; otherwise it goes to its domain."""
        if not self.bag:
            return
        index = self._random().randrange(len(self.bag))
        family = self.bag[index]
        self.bag = self.bag[:index] + self.bag[index + 1 :]
        name = MAP.families[family].name
        if any(held[family] for held in self.tiles_held):
            self.domain_tiles = add_at(self.domain_tiles, family, 1)
            self.log = self._add("tile_returned", seat=self.current, family=name)
        else:
            self.removed_tiles += (family,)
            self.log = self._add("tile_removed", seat=self.current, family=name)

    def _end_reason(self) -> str:
        """SK-E1, checked after each turn; SK-T6: a full round of passes changes nothing, ever again."""
        if MARKERS_PER_FAMILY not in self.stack:
            return "every_family_met"
        if 0 in self.stack:
            return "five_relationships"
        if self.passes >= self.num_players:
            return "nobody_can_move"
        return ""

    def _finish(self, reason: str) -> None:
        self.over = True
        self.phase = "over"
        self.log = self._add("game_over", reason=reason, scores=self.scores())

    def goods_card_points(self, player: int, good: int) -> int:
        """SK-E2 for one card: per camel on its space 4 if `player` holds a tile of the camel's family,
        else 1; 0 with no camel."""
        mask = self.camels[MAP.goods_space[good - 1]]
        held = self.tiles_held[player]
        points = (OWN_CAMEL_POINTS if held[f] else OTHER_CAMEL_POINTS for f in FAMILIES if mask & (1 << f))
        return sum(points)

    def score_breakdown(self, player: int) -> dict[str, int]:
        """SK-E2: cards in hand (sold ones score nothing), goods markers, relationship markers, money."""
        cards = sum(self.goods_card_points(player, g) for g in self.hands[player])
        parts = {
            "goods_cards": cards,
            "goods_markers": self.goods_markers[player],
            "relation_markers": self.relation_markers[player],
            "money": self.money[player],
        }
        return {**parts, "total": sum(parts.values())}

    def scores(self) -> list[float]:
        """SK-E2 totals (hands included: the real state knows them; views show them only at the end)."""
        return [float(self.score_breakdown(p)["total"]) for p in range(self.num_players)]

    # --- information --------------------------------------------------------------------------------

    def view(self, player: Any) -> dict[str, JSON]:
        """SK-I1: hands (their sizes public), the deck and the discard pile are hidden; the rest is public.
        Hands are shown to everyone once the game is over (SK-E2: cards are laid face up to score)."""
        if player is not None:
            self.check_seat(player)
        n = self.num_players
        breakdown = [self.score_breakdown(p) for p in range(n)] if self.over else None
        view: dict[str, JSON] = {
            "game": "samarkand",
            "seat": player,
            "players": n,
            "first_player": self.first_player,
            "current": None if self.over else self.current,
            "to_act": self._to_act_seen_by(player),
            "phase": self.phase,
            "turn": self.turns + (0 if self.over else 1),  # the turn being played (the last one once over)
            "turns_played": self.turns,
            "round": self.turns // n + 1,
            "hand_limit": self.hand_limit(),
            "camels": [_families_in(mask) for mask in self.camels],
            "families": [self._family_view(f) for f in FAMILIES],
            "seats": [self._seat_view(p, player) for p in range(n)],
            "hand": None if player is None else self._hand_view(player),
            "deck_size": len(self.deck),
            "discard_size": len(self.discards),
            "bag_size": len(self.bag),
            "removed_tiles": [MAP.families[f].name for f in self.removed_tiles],
            "expanding": None if self.family < 0 else MAP.families[self.family].name,
            "camels_placed": self.camels_placed,
            "discarded": self.discarded,
            "offer": None
            if not self.offer_good
            else {
                "good": self.offer_good,
                "name": good_name(self.offer_good),
                # only one's own answer: whoever else answered "keep" did so in silence (SK-I1)
                "answered": player is not None and not self.offer_waiting[player],
            },
            "over": self.over,
            "scores": [float(part["total"]) for part in breakdown] if breakdown else None,
            "breakdown": breakdown,
            "log": self.log.visible_to(player),
        }
        variants = self.game.variants_in_play(self.options)
        if variants:
            view["variants"] = variants
        return view

    def _to_act_seen_by(self, player: int | None) -> list[int]:
        """During a sale offer every seat may still answer, as far as anyone but that seat knows."""
        if self.phase != "offer":
            return self.to_act()
        return [p for p in range(self.num_players) if p != player or self.offer_waiting[p]]

    def _family_view(self, family: int) -> dict[str, JSON]:
        info = MAP.families[family]
        return {
            "name": info.name,
            "colour": info.colour,
            "cost": info.cost,
            "treasury": self.treasury[family],
            "camels_left": self.camels_left[family],
            "domain_tiles": self.domain_tiles[family],
            "markers_left": self.stack[family],
            "met": [MAP.families[f].name for f in FAMILIES if self.met[family] & (1 << f)],
            "held_by": [p for p in range(self.num_players) for _ in range(self.tiles_held[p][family])],
        }

    def _seat_view(self, seat: int, viewer: int | None) -> dict[str, JSON]:
        return {
            "seat": seat,
            "money": self.money[seat],
            "hand_size": len(self.hands[seat]),
            "sold": list(self.sold[seat]),
            "tiles": [MAP.families[f].name for f in FAMILIES for _ in range(self.tiles_held[seat][f])],
            "goods_markers": self.goods_markers[seat],
            "relation_markers": self.relation_markers[seat],
            "hand": self._hand_view(seat) if self.over or seat == viewer else None,
        }

    def _hand_view(self, seat: int) -> list[dict[str, JSON]]:
        """Each card with its worth now (SK-E2), for the seat that holds it."""
        return [
            {"good": g, "name": good_name(g), "points": self.goods_card_points(seat, g)}
            for g in self.hands[seat]
        ]

    # --- copies, serialisation, sampling ------------------------------------------------------------

    def clone(self) -> SamarkandState:
        new = SamarkandState.__new__(SamarkandState)
        new.num_players = self.num_players
        new.money = self.money
        new.hands = self.hands
        new.sold = self.sold
        new.deck = self.deck
        new.discards = self.discards
        new.discarders = self.discarders
        new.random_seed = self.random_seed
        new.tiles_held = self.tiles_held
        new.domain_tiles = self.domain_tiles
        new.bag = self.bag
        new.removed_tiles = self.removed_tiles
        new.treasury = self.treasury
        new.camels_left = self.camels_left
        new.camels = self.camels  # a tuple: shared
        new.routes = self.routes
        new.frontiers = self.frontiers
        new.met = self.met
        new.stack = self.stack
        new.goods_markers = self.goods_markers
        new.relation_markers = self.relation_markers
        new.first_player = self.first_player
        new.current = self.current
        new.phase = self.phase
        new.family = self.family
        new.camels_placed = self.camels_placed
        new.discarded = self.discarded
        new.married = self.married
        new.offer_good = self.offer_good
        new.offer_waiting = self.offer_waiting
        new.turns = self.turns
        new.passes = self.passes
        new.over = self.over
        new.log = self.log  # immutable, shared
        new.options = self.options  # never changed once the game is built: shared
        return new

    def to_dict(self) -> dict[str, JSON]:
        return {
            "game": "samarkand",
            "version": FORMAT_VERSION,
            "players": self.num_players,
            **{field: _plain(getattr(self, field)) for field in SERIALISED},
            "log": self.log.events(),
            **self._options_dict(),
        }

    def _options_dict(self) -> dict[str, JSON]:
        """The variants in play, under "options"; nothing at the rulebook's rules (the dict stays as it was
        before variants existed)."""
        recorded = self.game.recorded_options(self.options)
        return {"options": recorded} if recorded else {}

    def sample_hidden(self, player: Any, rng: Any) -> SamarkandState:
        """SK-I1: the goods cards `player` has not seen are redealt among the other hands, the deck and the
        other seats' discards, every pile keeping its size; the bag is reshuffled and the random stream
        redrawn, so a world carries nothing of the real deal.

        What `player` knows: their hand, every sold card, and their own discards while they lie in the
        discard pile. (A card seen once and later reshuffled into the deck is treated as unseen: a world may
        put it somewhere it could not be, which tells the bot less, never more.)"""
        self.check_viewer(player, rng)
        world = self.clone()
        world.log = self.log.seen_by(player)
        world.random_seed = rng.getrandbits(64)
        bag = sorted(world.bag)  # hidden sets are sorted first: their real order must not steer a shuffle
        rng.shuffle(bag)
        world.bag = tuple(bag)
        hidden_hands = [] if self.over else [p for p in range(self.num_players) if p != player]
        unseen = [g for p in hidden_hands for g in self.hands[p]] + list(self.deck)
        unseen += [g for g, who in zip(self.discards, self.discarders, strict=True) if who != player]
        unseen.sort()
        rng.shuffle(unseen)
        for p in hidden_hands:
            size = len(self.hands[p])
            world.hands, unseen = replace_at(world.hands, p, tuple(sorted(unseen[:size]))), unseen[size:]
        world.deck, unseen = tuple(unseen[: len(self.deck)]), unseen[len(self.deck) :]
        if self.phase == "offer":  # who else has answered is unseen: in the world nobody else has yet
            world.offer_waiting = tuple(p != player or self.offer_waiting[p] for p in range(self.num_players))
        world.discards = tuple(
            [
                g if who == player else unseen.pop()
                for g, who in zip(self.discards, self.discarders, strict=True)
            ]
        )
        return world


# to_dict's fields: all but the player count, the log (written apart) and what is derived from the others
SERIALISED: Final = tuple(
    f for f in _SLOTS if f not in ("num_players", "log", "routes", "frontiers", "options")
)


def routes_of(camels: tuple[int, ...], families: int) -> tuple[tuple[int, ...], ...]:
    """Per family, the spaces holding one of its camels."""
    return tuple(tuple(s for s, mask in enumerate(camels) if mask & (1 << f)) for f in range(families))


def frontiers_of(camels: tuple[int, ...], routes: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Per family, the bits of the spaces its next camel may go to (SK-T3, SK-T4), worked out afresh."""
    found = []
    for family, route in enumerate(routes):
        bit, spaces = 1 << family, 0
        for space in route:
            for other in ADJACENT[space]:
                mask = camels[other]
                if not mask & bit and not mask & (mask - 1):
                    spaces |= 1 << other
        found.append(spaces)
    return tuple(found)


def _frontiers_after(
    frontiers: tuple[int, ...], camels: tuple[int, ...], family: int, space: int
) -> tuple[int, ...]:
    """`frontiers` after a camel of `family` went to `space` (`camels` already counts it): the space is
    closed to `family`, and to everyone once it holds two camels; its open neighbours join the family's."""
    place = 1 << space
    found = list(frontiers)
    if camels[space] & (camels[space] - 1):  # two camels: full (SK-T4)
        closed = ~place  # made once: the spaces are more than a machine word, each ~ is a new int
        for other in range(len(found)):
            found[other] &= closed
    bit, spaces = 1 << family, found[family] & ~place
    for other in ADJACENT[space]:
        mask = camels[other]
        if not mask & bit and not mask & (mask - 1):
            spaces |= 1 << other
    found[family] = spaces
    return tuple(found)


# _moves_to's answers, per table of moves (by its id: the module's own tables, which live as long as it) and
# bitmask of spaces: a family's frontier stays the same over many turns, and every turn lists it again.
_MOVES_TO: Final[dict[int, dict[int, tuple[SamarkandAction, ...]]]] = {}
_MOVES_REMEMBERED: Final = 1 << 15  # per table; forgotten all at once beyond that (memory stays bounded)


def _moves_to(moves: tuple[SamarkandAction, ...], bits: int) -> tuple[SamarkandAction, ...]:
    """`moves[s]` for every space s whose bit is set, ascending (`spaces_in`), remembered."""
    known = _MOVES_TO.get(id(moves))
    if known is None:
        known = _MOVES_TO[id(moves)] = {}
    found = known.get(bits)
    if found is None:
        if len(known) >= _MOVES_REMEMBERED:
            known.clear()
        found = known[bits] = tuple([moves[s] for s in spaces_in(bits)])
    return found


# spaces_in reads a bitmask of spaces a machine word's worth at a time: the map has more spaces than a word
# holds, and each step on the whole mask made new big ints, where on a word the arithmetic is on small ints
# (native compiled, and cheaper in pure Python too)
_WORD_BITS: Final = 60
_WORD_MASK: Final = (1 << _WORD_BITS) - 1


def spaces_in(bits: int) -> list[int]:
    """The spaces whose bits are set, ascending."""
    spaces = []
    base = 0
    while bits:
        word = bits & _WORD_MASK
        while word:
            low = word & -word
            spaces.append(base + low.bit_length() - 1)
            word ^= low
        bits >>= _WORD_BITS
        base += _WORD_BITS
    return spaces


def _plain(value: object) -> JSON:
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _well_formed(action: SamarkandAction) -> bool:
    """An action whose family, space and good point at real ones (a hand-made tuple may not), and that names
    each its verb needs (-1, no family, would read as the last family)."""
    return (
        -1 <= action.family < len(MAP.families)
        and -1 <= action.space < len(MAP.spaces)
        and 0 <= action.good <= NUM_GOODS
        and _names_what_it_needs(action)
    )


def _names_what_it_needs(action: SamarkandAction) -> bool:
    """A marriage names a family, an expansion a family and a space, a camel a space, a sale or a discard a
    good: a hand-made tuple may leave one out (-1 would read as the last family or space)."""
    verb = action.verb
    return (
        (verb not in ("marry", "expand") or action.family >= 0)
        and (verb not in ("expand", "camel") or action.space >= 0)
        and (verb not in ("sell", "discard") or action.good >= 1)
    )


def _not_real(action: SamarkandAction) -> Reason:
    families, spaces = len(MAP.families) - 1, len(MAP.spaces) - 1
    text = (
        f"no such move: {action.verb!r} with family {action.family}, space {action.space}, good {action.good}"
        f" (families 0-{families}, spaces 0-{spaces}, goods 1-{NUM_GOODS})"
    )
    return Reason("no_such_move", text, verb=action.verb, families=families, spaces=spaces, goods=NUM_GOODS)


def _families_in(mask: int) -> list[int]:
    return [f for f in FAMILIES if mask & (1 << f)]


def setup(state: SamarkandState, rng: random.Random, options: dict[str, Any] | None = None) -> None:
    """SK-S1..S4 and, with 2 players, SK-2P1; `options` may name variants (game.py)."""
    n = state.num_players
    state.options = options or {}
    families = len(MAP.families)
    deck = list(range(1, NUM_GOODS + 1))
    rng.shuffle(deck)
    state.hands = tuple(tuple(sorted(deck.pop() for _ in range(START_HAND))) for _ in range(n))
    state.deck = tuple(deck)
    state.sold = ((),) * n
    state.discards, state.discarders = (), ()
    state.money = (START_MONEY,) * n
    state.tiles_held = ((0,) * families,) * n
    on_domain = 1 if n == 2 else TILES_PER_FAMILY
    state.domain_tiles = (on_domain,) * families
    bag = [f for f in range(families) for _ in range(TILES_PER_FAMILY - on_domain)]
    rng.shuffle(bag)
    state.bag = tuple(bag)
    state.removed_tiles = ()
    state.treasury = (0,) * families
    state.camels_left = (CAMELS_PER_FAMILY - 1,) * families
    camels = [0] * len(MAP.spaces)
    for family in MAP.families:
        camels[family.start] = 1 << family.index
    state.camels = tuple(camels)
    state.routes = routes_of(state.camels, families)
    state.frontiers = frontiers_of(state.camels, state.routes)
    state.met = (0,) * families
    state.stack = (MARKERS_PER_FAMILY,) * families
    state.goods_markers = (0,) * n
    state.relation_markers = (0,) * n
    state.first_player = state.current = rng.randrange(n)  # SK-S3: "the youngest", drawn by the seed
    extra = state.options.get("late_start_money", 0)  # the variant: later in the turn order, more money
    if extra:
        state.money = tuple(START_MONEY + extra * ((p - state.first_player) % n) for p in range(n))
    state.phase, state.family, state.camels_placed, state.discarded, state.married = "act", -1, 0, 0, False
    state.offer_good, state.offer_waiting = 0, (False,) * n
    state.turns = state.passes = 0
    state.over = False
    state.random_seed = rng.getrandbits(64)
    state.log = EventLog()
