"""Byzanz's rules: the state and its forward model. Clause ids refer to ../shared/rules/byzanz.md.

A round is one auction per player (BZ-A1..BZ-A9), then the market (BZ-M1..BZ-M3). Selling a set is a
free action any player may take at any time (BZ-V1..BZ-V3). A player over the hand limit must discard or
sell before anything else happens (BZ-H1). After the last round everyone may sell once more (BZ-E1).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, compress
from typing import Any, Final

from merchantry.engine import JSON, EventLog, State, add_at, replace_at, seat_label
from merchantry.errors import Reason
from merchantry.games.byzanz.actions import (
    ADD,
    BID,
    DISCARD,
    DONE,
    PASS,
    TAKE,
    TO_MARKET,
    ByzanzAction,
    sell,
    set_order,
)
from merchantry.games.byzanz.components import (
    CODE_TYPE,
    CODE_VALUE,
    CODES,
    COPIES,
    HAND_LIMIT,
    MERCHANT,
    MERCHANT_PROFIT,
    NUM_CODES,
    SETUP,
    STARTING_HAND,
    TYPES,
    VALUES,
    full_deck,
    profit_points,
    set_profit,
)

# Final (not unpacked from a range): compiled, each use is then the number itself, not a look-up of the name
AUCTION: Final = 0
LOT_CHOICE: Final = 1
MARKET: Final = 2
FINAL: Final = 3
OVER: Final = 4
# what a seat on turn may do in each phase, besides selling (any time) and discarding (over the hand limit)
VERBS_OF_PHASE: Final = {AUCTION: ("add", "bid", "pass"), LOT_CHOICE: ("market",), MARKET: ("take",)}
PHASE_NAMES: Final = ("auction", "lot_choice", "market", "final_selling", "over")
# What to do once a player who went over the hand limit is back to 7 cards (BZ-H1).
RESUME_NOTHING, RESUME_NEXT_AUCTION, RESUME_MARKET = range(3)
FORMAT_VERSION: Final = 2  # 2: no seed in the state; 'maybe' knowledge after discards


# Each code's place in set order (actions.set_order), so that sorting cards sorts plain ints.
_SET_RANK: Final = tuple(sorted(range(NUM_CODES), key=set_order).index(c) for c in range(NUM_CODES))


# The code of each set rank: card_names sorts the ranks as plain ints (a code's rank names it) instead of
# sorting codes by a key function (compiled, calling the key and looking up its bound method were generic)
_CODE_OF_SET_RANK: Final = tuple(sorted(range(NUM_CODES), key=set_order))


def card_names(codes: list[int] | tuple[int, ...]) -> list[str]:
    """Card ids -> names in set order, for views and log events."""
    return [CODES[_CODE_OF_SET_RANK[rank]] for rank in sorted([_SET_RANK[c] for c in codes])]


def expand(counts: list[int] | tuple[int, ...]) -> list[int]:
    """Per-code counts -> a list of codes."""
    return [code for code, n in enumerate(counts) if n for _ in range(n)]


def count(codes: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """A list of codes -> counts per code."""
    counts = [0] * NUM_CODES
    for code in codes:
        counts[code] += 1
    return tuple(counts)


_PER_TYPE: Final = len(VALUES)
if _PER_TYPE != 4:  # sellable_sets adds a type's four counts term by term
    raise RuntimeError("byzanz: sellable_sets expects four values a goods type")
_TYPE_STARTS: Final = tuple(range(0, MERCHANT, _PER_TYPE))
# Each market pick's codes, a run of codes (a type's codes are consecutive, components.py), by type, and
# the picks in the order they are listed: goods types in order, merchants last (BZ-M1).
_CODES_OF_TYPE: Final = {
    **{start // _PER_TYPE: range(start, start + _PER_TYPE) for start in _TYPE_STARTS},
    -1: range(MERCHANT, MERCHANT + 1),
}
# (as ints: compiled, reading a range's start and stop is a generic attribute look-up), each with the
# counts of an empty run: a pick is offered when the market's run differs from it (compiled, a slice and a
# comparison, where any() of the slice was a builtin looked up and called generically; faster pure too)
_PICKS: Final = tuple(
    (TAKE[t], _CODES_OF_TYPE[t].start, _CODES_OF_TYPE[t].stop, (0,) * len(_CODES_OF_TYPE[t]))
    for t in (*range(len(TYPES)), -1)
)


def sellable_sets(hand: tuple[int, ...]) -> tuple[ByzanzAction, ...]:
    """BZ-V1/BZ-V2: every distinct set of three the hand can sell (goods of one type, merchants as jokers),
    sorted by their cards. Each type's sets depend on a few counts only, so they come from a small cache;
    a type with fewer than three cards, jokers included, has none, and most hands are asked only that (no
    cache on the whole hand: hashing its 25 counts cost more than the answer)."""
    merchants = hand[MERCHANT]
    jokers = 2 if merchants > 2 else merchants
    found: tuple[ByzanzAction, ...] = ()
    for start in _TYPE_STARTS:
        # added term by term, not as sum() of a slice: compiled, these are a few machine instructions, where
        # sum() and the slice were calls into CPython (a third of this function); as fast in pure Python
        held = hand[start] + hand[start + 1] + hand[start + 2] + hand[start + 3]
        if held and held + jokers >= 3:
            found += _sets_of_one_type(start, hand[start : start + _PER_TYPE], jokers)
    if merchants >= 3:
        found += (MERCHANT_SET,)
    return found


@cache
def _sets_of_one_type(start: int, counts: tuple[int, ...], jokers: int) -> tuple[ByzanzAction, ...]:
    """The sets of the goods type whose codes begin at `start`, sorted: codes of one type sort below
    other types' codes and the merchant's, so concatenating the types keeps the whole list sorted."""
    goods = [start + i for i, n in enumerate(counts) for _ in range(min(n, 3))]
    pool = goods + [MERCHANT] * jokers
    found = {combo for combo in combinations(pool, 3) if combo[0] != MERCHANT}
    return tuple(sell(combo) for combo in sorted(found))


MERCHANT_SET: Final = sell((MERCHANT,) * 3)
# The `add` of every goods code, in code order: `compress` against a hand lists those held (no merchant).
_ADD_GOODS: Final = ADD[:MERCHANT]


@cache
def _profit_of(codes: tuple[int, ...]) -> int:
    """`set_profit` of a set the rules offered, remembered: there are few sets, and each is sold often."""
    return set_profit(list(codes))


class ByzanzState(State):
    """A position of Byzanz. Hands, the market and knowledge are counts per card code (principle 4)."""

    __slots__ = (
        "num_players",
        "offers",
        "rounds",
        "deck",
        "removed",
        "hands",
        "known",
        "maybe",
        "bids",
        "confirmed",
        "in_auction",
        "high",
        "high_bidder",
        "first_passer",
        "bid_turn",
        "lot",
        "market",
        "offer_stack",
        "offer_held",
        "round",
        "dealer",
        "round_opener",
        "chooser",
        "market_order",
        "market_pos",
        "final_pos",
        "profits",
        "discards",
        "boxed",
        "limit_player",
        "resume",
        "next_opener",
        "phase",
        "log",
        "options",
    )

    num_players: int
    options: dict[str, Any]  # the resolved options (variants); public, never changed once built: shared
    offers: tuple[int, ...]  # offer cards in play (BZ-S2), ascending
    rounds: int
    # Every table is a tuple, replaced when it changes, so that clones share them (issue 12).
    deck: tuple[int, ...]  # face down, top card last (BZ-I2)
    removed: tuple[int, ...]  # removed unseen at setup (BZ-S2, BZ-I2)
    hands: list[tuple[int, ...]]  # counts per code
    known: list[tuple[int, ...]]  # counts per code every player is sure are in that hand (BZ-I1)
    # Cards that entered a hand in public before a face-down discard: each (epoch, code) is in that hand or
    # among its discards from index `epoch` on (a discard cannot hold a card that arrived after it). BZ-I1.
    maybe: list[tuple[tuple[int, int], ...]]
    bids: list[tuple[int, ...]]  # cards face up in front of each player in this auction
    confirmed: tuple[int, ...]  # value of each player's last confirmed bid
    in_auction: tuple[bool, ...]
    high: int
    high_bidder: int
    first_passer: int  # BZ-A8
    bid_turn: int
    lot: tuple[int, ...]
    market: tuple[int, ...]  # counts per code
    offer_stack: tuple[int, ...]  # ascending; the top (highest) is last
    offer_held: tuple[int, ...]  # offer card taken this round, 0 for none
    round: int
    dealer: int
    round_opener: int
    chooser: int  # who puts a lot card into the market (BZ-A7, BZ-A9)
    market_order: tuple[int, ...]  # BZ-M1: seats by ascending offer card
    market_pos: int
    final_pos: int  # BZ-E1: index into the final selling order
    profits: list[tuple[int, ...]]  # profit cards per player (BZ-V1)
    discards: list[tuple[int, ...]]  # face-down discards per player (BZ-H1)
    boxed: tuple[int, ...]  # counts of cards that left the game in public view
    limit_player: int  # over the hand limit, -1 for nobody (BZ-H1)
    resume: int
    next_opener: int  # the last auction's winner, for BZ-A3
    phase: int
    log: EventLog

    # --- who acts and what they may do --------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        if self.limit_player >= 0:
            return [self.limit_player]
        if self.phase == AUCTION:
            return [self.bid_turn]
        if self.phase == LOT_CHOICE:
            return [self.chooser]
        if self.phase == MARKET:
            return [self.market_order[self.market_pos]]
        return [self.final_order()[self.final_pos]]

    def in_decision(self, player: int) -> bool:
        """One decision each, once begun: a bid (cards added, then `bid`; BZ-A4), getting down to the hand
        limit (BZ-H1), the last sales up to `done` (BZ-E1). A sale at any other time is a decision of its
        own. (The last two have begun when the player's own discard or sale is the newest event.)"""
        if self.phase == OVER:
            return False
        if self.limit_player >= 0:
            # ("discarded" too: a world sampled for another seat holds the public half of a discard only)
            kinds = ("discarded", "discarded_card", "sold")
            return self.limit_player == player and self._last_step_was(player, kinds)
        if self.phase == AUCTION:
            return player == self.bid_turn and self.bid_value(player) != self.confirmed[player]
        return self.phase == FINAL and player == self._actor() and self._last_step_was(player, ("sold",))

    def in_turn(self, player: int) -> bool:
        """`in_decision`, and after the player's own sale on their turn while the turn's move (a bid or a
        pass, a lot card, a take) is still to come: the hint and the analysis take such sales with that move,
        one whole turn ("sell wine3 wine1 merchant, take olive"). Likewise getting down to the hand limit
        after the player's own lot card or take (BZ-H1) finishes that move: "take olive, sell merchant
        merchant merchant" is the move "sell merchant merchant merchant, take olive" made in the other order
        (the analysis judged the take alone, its play-outs getting down to the limit otherwise, a 20-point
        blunder for a move as good as the one it preferred: nc19). A lot won by everyone passing (BZ-A8) is
        no move of the player's: getting down after it is a decision of its own. Sales and discards are
        decisions of their own for the bots (`in_decision`), whose play this leaves as it was."""
        if self.in_decision(player):
            return True
        if self.limit_player == player:
            return self.phase in (LOT_CHOICE, MARKET) and self._last_step_was(player, ("over_limit",))
        return (
            self.limit_player < 0
            and self.phase in (AUCTION, LOT_CHOICE, MARKET)
            and player == self._actor()
            and self._last_step_was(player, ("sold",))
        )

    def _last_step_was(self, player: int, kinds: tuple[str, ...]) -> bool:
        last = self.log.last
        return last is not None and last["type"] in kinds and last.get("seat") == player

    def legal_actions(self, player: Any) -> list[ByzanzAction]:
        if type(player) is not int or not 0 <= player < self.num_players:
            self.check_seat(player)
        seat: int = player  # typed: compiled, comparing and indexing by it is then native, not generic
        if self.phase == OVER:
            return []
        hand = self.hands[seat]
        actions: list[ByzanzAction] = []
        if self.limit_player == seat:
            actions = list(compress(DISCARD, hand))  # one per code held, in code order
        elif self.limit_player < 0 and seat == self._actor():
            actions = self._turn_actions(seat)
        actions += sellable_sets(hand)  # BZ-V3: a free action for anyone, at any time
        return actions

    def _actor(self) -> int:
        """The one seat to_act() names while nobody is over the hand limit and the game runs."""
        phase = self.phase
        if phase == AUCTION:
            return self.bid_turn
        if phase == LOT_CHOICE:
            return self.chooser
        if phase == MARKET:
            return self.market_order[self.market_pos]
        return self.final_order()[self.final_pos]

    def _is_legal(self, player: int, action: object) -> bool:
        """`action in legal_actions(player)`, answered without building the list (apply asks every move)."""
        if self.phase == OVER or type(action) is not ByzanzAction:
            return action in self.legal_actions(player)
        hand = self.hands[player]
        verb = action.verb
        if verb == "sell":
            return action in sellable_sets(hand)
        if self.limit_player >= 0:
            return (
                self.limit_player == player and verb == "discard" and _is_card_action(action, DISCARD, hand)
            )
        if player != self._actor():
            return False
        phase = self.phase
        if phase == AUCTION:
            if verb == "add":
                return _is_card_action(action, ADD, hand) and action.codes[0] != MERCHANT
            if verb == "bid":
                return action == BID and self.bid_value(player) > self.high
            return action == PASS
        if phase == LOT_CHOICE:
            codes = action.codes
            return len(codes) == 1 and codes[0] in self.lot and action == TO_MARKET[codes[0]]
        if phase == MARKET:
            return action in self._turn_actions(player)
        return action == DONE

    def _turn_actions(self, player: int) -> list[ByzanzAction]:
        if self.phase == AUCTION:
            hand = self.hands[player]
            actions = list(compress(_ADD_GOODS, hand))  # BZ-A4: merchants cannot be bid
            if self.bid_value(player) > self.high:
                actions.append(BID)
            actions.append(PASS)
            return actions
        if self.phase == LOT_CHOICE:
            return [TO_MARKET[c] for c in sorted(set(self.lot))]
        if self.phase == MARKET:
            market = self.market
            return [take for take, start, stop, empty in _PICKS if market[start:stop] != empty]
        return [DONE]

    def bid_value(self, player: int) -> int:
        """BZ-A4: only values count."""
        value = 0  # a loop: the bid is a few cards, and a generator costs more than adding them
        for code in self.bids[player]:
            value += CODE_VALUE[code]
        return value

    def _why_illegal(self, player: int, action: ByzanzAction) -> Reason:
        who = seat_label(player)
        if self.phase == OVER:
            return Reason("game_over", "the game is over")
        if action.verb == "sell":
            text = f"{who} does not hold {action.arg} to sell"
            return Reason("set_not_held", text, seat=player, cards=action.arg.split())
        if self.limit_player >= 0:
            limit = self.hand_limit()
            if player != self.limit_player:
                text = f"{seat_label(self.limit_player)} must first get down to {limit} cards"
                return Reason("others_over_limit", text, "BZ-H1", limit_seat=self.limit_player, limit=limit)
            if action.verb == "discard":
                text = f"{who} has no {action.arg} to discard"
                return Reason("no_card_to_discard", text, seat=player, card=action.arg)
            text = f"{who} has more than {limit} cards: discard or sell first"
            return Reason("over_limit", text, "BZ-H1", seat=player, limit=limit)
        if player not in self.to_act():
            turn = self.to_act()[0]
            return Reason(
                "not_your_turn", f"it is {seat_label(turn)}'s turn, not {who}'s", turn_seat=turn, seat=player
            )
        if action.verb not in VERBS_OF_PHASE.get(self.phase, (action.verb,)):
            return self._not_now(action.verb)
        if action.verb == "add":
            if action.codes[0] == MERCHANT:
                return Reason("merchant_bid", "merchants cannot be bid", "BZ-A4")
            return Reason(
                "card_not_in_hand", f"{who} has no {action.arg} in hand", seat=player, card=action.arg
            )
        if action.verb == "bid":
            high, bid = self.high, self.bid_value(player)
            text = f"a bid must beat {high}: add cards first (your bid is {bid})"
            return Reason("bid_too_low", text, high=high, bid=bid)
        if action.verb == "market":
            return Reason("not_in_lot", f"the lot has no {action.arg}", card=action.arg)
        if action.verb == "take":
            return Reason("not_in_market", f"the market has no {action.arg}", type=action.arg)
        return self._not_now(action.verb)

    def _not_now(self, verb: str) -> Reason:
        """A move of another phase than this one: what this phase's moves are."""
        if self.phase == AUCTION:
            return Reason("not_now_auction", f"now is not the time for {verb}: add, bid or pass", verb=verb)
        if self.phase == LOT_CHOICE:
            return Reason("not_now_lot", f"now is not the time for {verb}: market a lot card", verb=verb)
        if self.phase == MARKET:
            return Reason("not_now_market", f"now is not the time for {verb}: take a type", verb=verb)
        return Reason("not_now_final", f"now is not the time for {verb}: sell, or done", verb=verb)

    # --- applying actions ---------------------------------------------------------------------------

    def _apply(self, player: int, action: ByzanzAction) -> None:
        verb = action.verb
        if verb == "sell":
            self._sell(player, action.codes)
        elif verb == "discard":
            self._discard(player, action.codes[0])
        elif verb == "add":
            self._leave_hand(player, action.codes[0])
            self.bids[player] = (*self.bids[player], action.codes[0])
        elif verb == "bid":
            self._confirm_bid(player)
        elif verb == "pass":
            self._pass(player)
        elif verb == "market":
            self._lot_card_to_market(player, action.codes[0])
        elif verb == "take":
            self._take_from_market(player, action.codes[0])
        else:
            self._done_selling(player)

    def _leave_hand(self, player: int, code: int) -> None:
        """A card leaves a hand in public view (sold or bid). Of the cards the others know about, the one
        that may have left is the newest: a sure card first, else the latest-arrived "maybe" card. That
        keeps exactly the worlds in which the card that left was any of them (BZ-I1)."""
        self.hands[player] = add_at(self.hands[player], code, -1)
        known = self.known[player]
        if known[code]:
            self.known[player] = add_at(known, code, -1)
            return
        maybe = self.maybe[player]
        for index in range(len(maybe) - 1, -1, -1):
            if maybe[index][1] == code:
                self.maybe[player] = maybe[:index] + maybe[index + 1 :]
                return

    def _receive(self, player: int, codes: list[int]) -> None:
        """Cards enter a hand in public view (a lot, a market pick, a bid taken back): BZ-I1."""
        if not codes:
            return
        hand, known = list(self.hands[player]), list(self.known[player])
        for code in codes:
            hand[code] += 1
            known[code] += 1
        self.hands[player], self.known[player] = tuple(hand), tuple(known)

    # --- selling and the hand limit (BZ-V1..V3, BZ-H1) -------------------------------------------------

    def _sell(self, player: int, codes: tuple[int, ...]) -> None:
        profit = _profit_of(codes)
        for code in codes:
            self._leave_hand(player, code)
        rest = list(codes)
        rest.remove(profit)
        for code in rest:
            self.boxed = add_at(self.boxed, code, 1)  # BZ-V1: the other two leave the game
        self.profits[player] = (*self.profits[player], profit)
        self.log = self.log.add(
            "sold", seat=player, cards=card_names(codes), profit=CODES[profit], points=self.points(profit)
        )
        self._check_limit_resolved(player)

    def _discard(self, player: int, code: int) -> None:
        self.hands[player] = add_at(self.hands[player], code, -1)
        # BZ-H1/BZ-I1: the discard is face down, so every card the others were sure of is now "in the hand
        # or among this player's discards from this one on" (epoch = the index this discard takes).
        epoch = len(self.discards[player])
        known = self.known[player]
        newly_unsure = tuple((epoch, c) for c in range(NUM_CODES) for _ in range(known[c]))
        self.maybe[player] = self.maybe[player] + newly_unsure
        self.known[player] = _NO_CARDS
        self.discards[player] = (*self.discards[player], code)
        # BZ-I1: one event, one line in every log: the card for its player, "a card face down" for the others
        self.log = self.log.add(
            "discarded_card",
            seat=player,
            card=CODES[code],
            audience=[player],
            others={"type": "discarded", "seat": player},
        )
        self._check_limit_resolved(player)

    def hand_size(self, player: int) -> int:
        return sum(self.hands[player])

    def hand_limit(self) -> int:
        """BZ-H1's 7, or the variant's."""
        limit: int = self.options.get("hand_limit") or HAND_LIMIT
        return limit

    def points(self, code: int) -> int:
        """BZ-E2: what a profit card scores (a merchant's 5, or the variant's)."""
        if code == MERCHANT:
            merchant: int = self.options.get("merchant_profit", MERCHANT_PROFIT)
            return merchant
        return profit_points(code)

    def _after_gain(self, player: int, resume: int) -> None:
        """BZ-H1: over 7 cards, the player must discard or sell before the game goes on."""
        limit = self.hand_limit()
        if self.hand_size(player) > limit:
            self.limit_player = player
            self.resume = resume
            self.log = self.log.add("over_limit", seat=player, count=self.hand_size(player), limit=limit)
        else:
            self._continue(resume)

    def _check_limit_resolved(self, player: int) -> None:
        if player == self.limit_player and self.hand_size(player) <= self.hand_limit():
            self.limit_player = -1
            self._continue(self.resume)

    def _continue(self, resume: int) -> None:
        if resume == RESUME_NEXT_AUCTION:
            self._next_auction()
        elif resume == RESUME_MARKET:
            self._next_market_pick()

    # --- auctions (BZ-A1..BZ-A9) ----------------------------------------------------------------------

    def _next_clockwise(self, after: int, eligible: tuple[bool, ...]) -> int:
        for step in range(1, self.num_players + 1):
            seat = (after + step) % self.num_players
            if eligible[seat]:
                return seat
        return -1

    def _start_auction(self, opener: int) -> None:
        """BZ-A2: the lot is as many cards as the top offer card shows."""
        size = self.offer_stack[-1]
        self.lot = self.deck[: -size - 1 : -1]  # drawn from the top, the end of the deck
        self.deck = self.deck[:-size]
        eligible = tuple(held == 0 for held in self.offer_held)
        if sum(eligible) == 1:
            self._last_auction(opener)
            return
        self.phase = AUCTION
        self.in_auction = eligible
        self.bids = [()] * self.num_players
        self.confirmed = (0,) * self.num_players
        self.high, self.high_bidder, self.first_passer = 0, -1, -1
        self.bid_turn = opener
        self.log = self.log.add("auction", offer=size, lot_cards=card_names(self.lot), seat=opener)

    def _last_auction(self, player: int) -> None:
        """BZ-A9: one eligible player, no bidding."""
        self.log = self.log.add("last_auction", seat=player, lot_cards=card_names(self.lot))
        if len(self.lot) == 1:  # 5-6 players: the single card goes to the market
            self.market = add_at(self.market, self.lot[0], 1)
            self.lot = ()
            self._take_offer(player)
            self._next_auction()
        else:  # 3-4 players: two cards, one to the market, one to the hand
            self.phase = LOT_CHOICE
            self.chooser = player

    def _confirm_bid(self, player: int) -> None:
        self.high = self.bid_value(player)
        self.confirmed = replace_at(self.confirmed, player, self.high)
        self.high_bidder = player
        self.log = self.log.add("bid", seat=player, value=self.high, cards=card_names(self.bids[player]))
        following = self._next_clockwise(player, self.in_auction)
        if following == player:  # BZ-A6: everyone else has passed
            self._win_with_bid(player)
        else:
            self.bid_turn = following

    def _pass(self, player: int) -> None:
        """BZ-A5: the bid goes back to hand and the player is out of this auction."""
        returned = list(self.bids[player])
        self.bids[player] = ()
        self._receive(player, returned)
        self.in_auction = replace_at(self.in_auction, player, False)
        if self.first_passer < 0:
            self.first_passer = player
        self.log = self.log.add("pass", seat=player)
        remaining = [q for q in range(self.num_players) if self.in_auction[q]]
        if not remaining:
            self._win_all_passed(self.first_passer)  # BZ-A8
        elif remaining == [self.high_bidder]:
            self._win_with_bid(self.high_bidder)  # BZ-A6
        else:
            self.bid_turn = self._next_clockwise(player, self.in_auction)

    def _win_with_bid(self, winner: int) -> None:
        """BZ-A7: the bid goes next to the market; the winner then puts one lot card into it."""
        for code in self.bids[winner]:
            self.market = add_at(self.market, code, 1)
        bid = card_names(self.bids[winner])  # counted: "wine3 goes" or "wine3, wood2 go" in the log
        self.log = self.log.add("won_lot", seat=winner, value=self.high, cards=bid, count=len(bid))
        self.bids[winner] = ()
        self.phase = LOT_CHOICE
        self.chooser = winner

    def _lot_card_to_market(self, player: int, code: int) -> None:
        rest = list(self.lot)
        rest.remove(code)
        self.lot = ()
        self.market = add_at(self.market, code, 1)
        self._receive(player, rest)
        self.log = self.log.add("lot_card_to_market", seat=player, card=CODES[code], cards=card_names(rest))
        self._take_offer(player)
        self._after_gain(player, RESUME_NEXT_AUCTION)

    def _win_all_passed(self, winner: int) -> None:
        """BZ-A8: the first to pass takes the whole lot and puts nothing into the market."""
        lot, self.lot = list(self.lot), ()
        self._receive(winner, lot)
        self.log = self.log.add("all_passed", seat=winner, cards=card_names(lot))
        self._take_offer(winner)
        self._after_gain(winner, RESUME_NEXT_AUCTION)

    def _take_offer(self, player: int) -> None:
        self.offer_held = replace_at(self.offer_held, player, self.offer_stack[-1])
        self.offer_stack = self.offer_stack[:-1]
        self.next_opener = player

    def _next_auction(self) -> None:
        """BZ-A3: the next player clockwise from the last winner without an offer card opens."""
        if not self.offer_stack:
            self._start_market()
            return
        eligible = tuple(held == 0 for held in self.offer_held)
        self._start_auction(self._next_clockwise(self.next_opener, eligible))

    # --- the market (BZ-M1..BZ-M3) --------------------------------------------------------------------

    def _start_market(self) -> None:
        self.phase = MARKET
        self.market_order = tuple(sorted(range(self.num_players), key=lambda p: self.offer_held[p]))
        self.market_pos = 0
        self.log = self.log.add("market", cards=card_names(expand(self.market)))
        if not any(self.market):
            self._end_round()

    def _take_from_market(self, player: int, goods_type: int) -> None:
        codes, market = _CODES_OF_TYPE[goods_type], self.market
        taken = [c for c in codes for _ in range(market[c])]
        self.market = market[: codes.start] + (0,) * len(codes) + market[codes.stop :]
        self._receive(player, taken)
        self.log = self.log.add("market_pick", seat=player, cards=card_names(taken))
        self.market_pos += 1
        self._after_gain(player, RESUME_MARKET)

    def _next_market_pick(self) -> None:
        if self.market_pos >= self.num_players or not any(self.market):
            self._end_round()

    def _end_round(self) -> None:
        """BZ-M2: leftovers leave the game and the offer cards are stacked again; BZ-M3: next round or end."""
        leftovers = expand(self.market)
        if leftovers:
            self.log = self.log.add("leftovers_removed", cards=card_names(leftovers), count=len(leftovers))
        self.boxed = tuple(boxed + market for boxed, market in zip(self.boxed, self.market, strict=True))
        self.market = _NO_CARDS
        lowest = min(range(self.num_players), key=lambda p: self.offer_held[p])
        self.offer_stack = self.offers
        self.offer_held = (0,) * self.num_players
        if self.deck:
            self.round += 1
            self._start_round(lowest)  # BZ-A3: the lowest offer card of the last round opens
        else:
            self.phase = FINAL  # BZ-E1
            self.final_pos = 0
            self.log = self.log.add("final_selling")

    def _start_round(self, opener: int) -> None:
        self.round_opener = opener
        self.log = self.log.add("round", round=self.round, rounds=self.rounds, new_round=self.round)
        self._start_auction(opener)

    # --- the end (BZ-E1..BZ-E3) -----------------------------------------------------------------------

    def final_order(self) -> list[int]:
        """BZ-E1: seat order from the player who opened the last round."""
        return [(self.round_opener + i) % self.num_players for i in range(self.num_players)]

    def _done_selling(self, player: int) -> None:
        self.log = self.log.add("done_selling", seat=player)
        self.final_pos += 1
        if self.final_pos == self.num_players:
            self.phase = OVER
            self.log = self.log.add("game_over", scores=self.scores())

    def scores(self) -> list[float]:
        """BZ-E2: the sum of profit cards; public, since every sold set was shown (BZ-I1)."""
        return [float(sum(map(self.points, profits))) for profits in self.profits]

    def winners(self) -> list[int]:
        """BZ-E2 highest score; BZ-E3 a tie goes to the most cards in hand, then it is shared."""
        if not self.is_over():
            return []
        ranking = [(score, self.hand_size(p)) for p, score in enumerate(self.scores())]
        best = max(ranking)
        return [p for p, key in enumerate(ranking) if key == best]

    # --- information --------------------------------------------------------------------------------

    def view(self, player: Any) -> dict[str, JSON]:
        if player is not None:
            self.check_seat(player)
        scores = self.scores()
        view: dict[str, JSON] = {
            "game": "byzanz",
            "seat": player,
            "players": self.num_players,
            "phase": PHASE_NAMES[self.phase],
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "first_player": (self.dealer + 1) % self.num_players,  # BZ-S3: left of the dealer opens round 1
            "round_opener": self.round_opener,
            "deck": len(self.deck),
            "offers": list(self.offers),
            "offer_stack": list(self.offer_stack),
            "offers_to_come": self.offers_to_come(),
            "merchant_profit": self.points(MERCHANT),  # BZ-E2: a merchant kept as profit (or the variant's)
            "hand_limit": self.hand_limit(),  # BZ-H1
            "lot": card_names(self.lot),
            "market": card_names(expand(self.market)),
            "to_act": self.to_act(),
            "hand_limit_player": self.limit_player if self.limit_player >= 0 else None,
            "auction": self._auction_view(),
            "chooser": self.chooser if self.phase == LOT_CHOICE else None,
            "market_order": list(self.market_order) if self.phase == MARKET else None,
            "seats": [
                {
                    "seat": p,
                    "hand_size": self.hand_size(p),
                    "known": card_names(expand(self.known[p])),
                    "known_or_discarded": card_names([c for _, c in self.maybe[p]]),
                    "bid": card_names(self.bids[p]),  # in the log's order (its "bid" events), not as added
                    "offer": self.offer_held[p] or None,
                    "profits": [CODES[c] for c in self.profits[p]],
                    "score": scores[p],
                    "discarded": len(self.discards[p]),
                }
                for p in range(self.num_players)
            ],
            "scores": scores,
            "winners": self.winners(),
            "log": self.log.visible_to(player),
        }
        if self.phase == OVER:  # BZ-E3 counts the cards in hand: shown at the end, to check the tie-break
            for seat in view["seats"]:
                seat["hand"] = self._hand_codes(seat["seat"])
        variants = self.game.variants_in_play(self.options)
        if variants:
            view["variants"] = variants
        if player is not None:
            view["hand"] = self._hand_codes(player)
            view["my_discards"] = [CODES[c] for c in self.discards[player]]
        return view

    def offers_to_come(self) -> list[int]:
        """The offer cards still to be auctioned this round, highest (next) first: not the one on the block
        while its lot is out (BZ-A2), and none once the last round's market is over (BZ-E1)."""
        if self.phase in (FINAL, OVER):
            return []
        on_block = self.phase in (AUCTION, LOT_CHOICE) and bool(self.lot)
        stack = self.offer_stack[:-1] if on_block else self.offer_stack
        return list(reversed(stack))

    def _hand_codes(self, player: int) -> list[JSON]:
        return [CODES[c] for c in sorted(expand(self.hands[player]), key=_hand_order)]

    def _auction_view(self) -> dict[str, JSON] | None:
        if self.phase != AUCTION:
            return None
        return {
            "turn": self.bid_turn,
            "high": self.high,
            "high_bidder": self.high_bidder if self.high_bidder >= 0 else None,
            "first_passer": self.first_passer if self.first_passer >= 0 else None,
            "in": [p for p in range(self.num_players) if self.in_auction[p]],
        }

    # --- copies, serialisation, sampling ------------------------------------------------------------

    def clone(self) -> ByzanzState:
        new = ByzanzState.__new__(ByzanzState)
        new.num_players = self.num_players
        new.offers = self.offers
        new.rounds = self.rounds
        new.high = self.high
        new.high_bidder = self.high_bidder
        new.first_passer = self.first_passer
        new.bid_turn = self.bid_turn
        new.round = self.round
        new.dealer = self.dealer
        new.round_opener = self.round_opener
        new.chooser = self.chooser
        new.market_pos = self.market_pos
        new.final_pos = self.final_pos
        new.limit_player = self.limit_player
        new.resume = self.resume
        new.next_opener = self.next_opener
        new.phase = self.phase
        new.log = self.log  # immutable, shared
        new.options = self.options  # never changed once the game is built: shared
        new.deck = self.deck  # tuples: shared
        new.removed = self.removed
        new.confirmed = self.confirmed
        new.in_auction = self.in_auction
        new.lot = self.lot
        new.market = self.market
        new.offer_stack = self.offer_stack
        new.offer_held = self.offer_held
        new.market_order = self.market_order
        new.boxed = self.boxed
        new.hands = self.hands[:]  # the tuples inside are shared
        new.known = self.known[:]
        new.maybe = self.maybe[:]  # tuples of pairs: immutable
        new.bids = self.bids[:]  # the inner tuples are immutable
        new.profits = self.profits[:]
        new.discards = self.discards[:]
        return new

    def to_dict(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"game": "byzanz", "version": FORMAT_VERSION, "players": self.num_players}
        for slot in _SCALARS:
            if slot not in ("num_players", "log"):
                data[slot] = list(self.offers) if slot == "offers" else getattr(self, slot)
        data["phase"] = PHASE_NAMES[self.phase]
        for slot in _FLAT_LISTS:
            data[slot] = list(getattr(self, slot))
        for slot in _NESTED_LISTS:
            data[slot] = [list(inner) for inner in getattr(self, slot)]
        data["maybe"] = [[list(pair) for pair in cards] for cards in self.maybe]
        data["log"] = self.log.events()
        recorded = self.game.recorded_options(self.options)
        if recorded:  # the variants in play; nothing at the rulebook's rules (the dict stays as it was)
            data["options"] = recorded
        return data

    def sample_hidden(self, player: Any, rng: Any) -> ByzanzState:
        """BZ-I1/BZ-I2: redeal the deck, the removed cards, and what the others' hands and face-down
        discards hold beyond what is public. Cards known to be in a hand stay there; a card known to be
        "in the hand or discarded" goes to one of the two, never into a discard made before it arrived.
        Once the game is over every hand is shown (BZ-E3): only the deck, the removed cards and the
        face-down discards are redealt."""
        self.check_viewer(player, rng)
        if self.phase == OVER:
            return self._sample_discards(player, rng)
        world = self.clone()
        world.log = self.log.seen_by(player)
        others = [q for q in range(self.num_players) if q != player]
        pool = [*world.deck, *world.removed]
        for q in others:
            pool += self._unpinned_cards(q)
        pool.sort()  # the unseen cards as a set: their real order must not steer the shuffle
        rng.shuffle(pool)
        world.deck, pool = tuple(pool[: len(world.deck)]), pool[len(world.deck) :]
        world.removed, pool = tuple(pool[: len(world.removed)]), pool[len(world.removed) :]
        for q in others:
            held = self.hand_size(q)
            slots = _place_unsure_cards(self.maybe[q], len(self.discards[q]), held - sum(self.known[q]), rng)
            hand = list(self.known[q])
            for code in [c for (_, c), slot in zip(self.maybe[q], slots, strict=True) if slot < 0]:
                hand[code] += 1
            drawn = held - sum(hand)
            for code in pool[:drawn]:
                hand[code] += 1
            world.hands[q] = tuple(hand)
            pool = pool[drawn:]
            discards = [-1] * len(self.discards[q])
            for (_, code), slot in zip(self.maybe[q], slots, strict=True):
                if slot >= 0:
                    discards[slot] = code
            for index in range(len(discards)):
                if discards[index] < 0:
                    discards[index], pool = pool[0], pool[1:]
            world.discards[q] = tuple(discards)
        return world

    def _sample_discards(self, player: int | None, rng: random.Random) -> ByzanzState:
        """A world of a finished game: the hands as shown, the others' face-down discards, the deck and the
        removed cards redealt. Of each seat's cards "in the hand or discarded", the newest ones of a kind
        are taken to be the ones in the hand (they could go into the fewest discards); the rest are put
        into discards made after they arrived."""
        world = self.clone()
        world.log = self.log.seen_by(player)
        others = [q for q in range(self.num_players) if q != player]
        unsure = {q: self._unsure_after_reveal(q) for q in others}
        pool = [*world.deck, *world.removed]
        for q in others:
            counts = [0] * NUM_CODES
            for code in self.discards[q]:
                counts[code] += 1
            for _, code in unsure[q]:
                counts[code] -= 1
            pool += expand(counts)
        pool.sort()  # the unseen cards as a set: their real order must not steer the shuffle
        rng.shuffle(pool)
        world.deck, pool = tuple(pool[: len(world.deck)]), pool[len(world.deck) :]
        world.removed, pool = tuple(pool[: len(world.removed)]), pool[len(world.removed) :]
        for q in others:
            slots = _place_unsure_cards(unsure[q], len(self.discards[q]), 0, rng)
            discards = [-1] * len(self.discards[q])
            for (_, code), slot in zip(unsure[q], slots, strict=True):
                discards[slot] = code
            for index in range(len(discards)):
                if discards[index] < 0:
                    discards[index], pool = pool[0], pool[1:]
            world.discards[q] = tuple(discards)
        return world

    def _unsure_after_reveal(self, q: int) -> tuple[tuple[int, int], ...]:
        """q's cards "in the hand or discarded" that the shown hand cannot hold: of each kind, the hand's
        cards beyond those known to be there take the newest such cards, the rest were discarded."""
        room = [self.hands[q][c] - self.known[q][c] for c in range(NUM_CODES)]
        kept: list[tuple[int, int]] = []
        for epoch, code in reversed(self.maybe[q]):
            if room[code] > 0:
                room[code] -= 1
            else:
                kept.append((epoch, code))
        return tuple(reversed(kept))

    def _unpinned_cards(self, q: int) -> list[int]:
        """The cards of q's hand and discards that nobody but q can place: all of them, less the cards
        known to be in the hand and those known to be in the hand or discarded."""
        counts = [self.hands[q][c] - self.known[q][c] for c in range(NUM_CODES)]
        for code in self.discards[q]:
            counts[code] += 1
        for _, code in self.maybe[q]:
            counts[code] -= 1
        return expand(counts)


def _place_unsure_cards(
    unsure: tuple[tuple[int, int], ...], discards: int, hidden_in_hand: int, rng: random.Random
) -> list[int]:
    """For each (epoch, code) card "in the hand or discarded", a discard slot (>= epoch) or -1 for the hand,
    drawn at random among the placements public knowledge allows: at most `hidden_in_hand` of them in the
    hand, at most one per slot. Slots are filled from the last, where most cards may go."""
    placed = [-1] * len(unsure)
    if not unsure:
        return placed
    free_hidden = discards + hidden_in_hand - len(unsure)  # cards of the hand and discards not in `unsure`
    for slot in range(discards - 1, -1, -1):
        open_cards = [i for i, (epoch, _) in enumerate(unsure) if placed[i] < 0 and epoch <= slot]
        options = [(i, 1) for i in open_cards] + [(-1, free_hidden)]
        feasible = [
            (i, w) for i, w in options if w and _still_placeable(unsure, placed, i, slot, hidden_in_hand)
        ]
        choice = rng.choices([i for i, _ in feasible], weights=[w for _, w in feasible])[0]
        if choice >= 0:
            placed[choice] = slot
        else:
            free_hidden -= 1
    return placed


def _still_placeable(
    unsure: tuple[tuple[int, int], ...], placed: list[int], choice: int, slot: int, hidden_in_hand: int
) -> bool:
    """After putting card `choice` (or an unseen card, -1) into discard `slot`, can the slots below it still
    take enough of the open cards that the rest fit into the hand?"""
    open_epochs = sorted(
        (epoch for i, (epoch, _) in enumerate(unsure) if placed[i] < 0 and i != choice), reverse=True
    )
    for lower in range(slot - 1, -1, -1):  # greedy, which places the most: the newest card each slot may hold
        for k, epoch in enumerate(open_epochs):
            if epoch <= lower:
                del open_epochs[k]
                break
    return len(open_epochs) <= hidden_in_hand


_NO_CARDS: Final = (0,) * NUM_CODES


def _is_card_action(action: ByzanzAction, table: tuple[ByzanzAction, ...], hand: tuple[int, ...]) -> bool:
    """Whether `action` is the table's action for one card the hand holds."""
    codes = action.codes
    return len(codes) == 1 and 0 <= codes[0] < NUM_CODES and hand[codes[0]] > 0 and action == table[codes[0]]


def _hand_order(code: int) -> tuple[int, int]:
    return (CODE_TYPE[code] if code != MERCHANT else len(TYPES), -CODE_VALUE[code])


_SCALARS: Final = (
    "num_players",
    "offers",
    "rounds",
    "high",
    "high_bidder",
    "first_passer",
    "bid_turn",
    "round",
    "dealer",
    "round_opener",
    "chooser",
    "market_pos",
    "final_pos",
    "limit_player",
    "resume",
    "next_opener",
    "phase",
    "log",
)
_FLAT_LISTS: Final = (
    "deck",
    "removed",
    "confirmed",
    "in_auction",
    "lot",
    "market",
    "offer_stack",
    "offer_held",
    "market_order",
    "boxed",
)
_NESTED_LISTS: Final = ("hands", "known", "bids", "profits", "discards")


def setup(state: ByzanzState, rng: random.Random, options: dict[str, Any] | None = None) -> None:
    """BZ-S1..BZ-S3: shuffle, deal 4 each, remove cards unseen, stack the offer cards, choose a dealer;
    `options` may name variants (game.py)."""
    n = state.num_players
    state.options = options or {}
    table = SETUP[n]
    deck = full_deck()
    rng.shuffle(deck)
    state.hands = [count(deck[STARTING_HAND * p : STARTING_HAND * (p + 1)]) for p in range(n)]
    del deck[: STARTING_HAND * n]
    state.removed = tuple(deck[: table["removed"]])
    state.deck = tuple(deck[table["removed"] :])
    state.offers = tuple(sorted(table["offers"]))
    state.rounds = table["rounds"]
    assert len(state.deck) == state.rounds * sum(state.offers), "BZ-S2 deck arithmetic"
    state.known = [_NO_CARDS] * n
    state.maybe = [()] * n
    state.bids = [()] * n
    state.confirmed = (0,) * n
    state.in_auction = (False,) * n
    state.high, state.high_bidder, state.first_passer, state.bid_turn = 0, -1, -1, -1
    state.lot = ()
    state.market = _NO_CARDS
    state.offer_stack = state.offers
    state.offer_held = (0,) * n
    state.round = 1
    state.dealer = rng.randrange(n)
    state.chooser = -1
    state.market_order = ()
    state.market_pos = 0
    state.final_pos = 0
    state.profits = [()] * n
    state.discards = [()] * n
    state.boxed = _NO_CARDS
    state.limit_player = -1
    state.resume = RESUME_NOTHING
    state.next_opener = -1
    state.log = EventLog()
    state._start_round((state.dealer + 1) % n)  # BZ-S3: left of the dealer opens round 1


def check_cards(state: ByzanzState) -> bool:
    """Every card of the game is in exactly one place."""
    places = [
        *state.hands,
        count(state.deck),
        count(state.removed),
        count(state.lot),
        state.market,
        state.boxed,
        *(count(b) for b in state.bids),
        *(count(d) for d in state.discards),
        *(count(p) for p in state.profits),
    ]
    totals = [sum(place[c] for place in places) for c in range(NUM_CODES)]
    return totals == list(COPIES) and all(v >= 0 for place in places for v in place)


def knowledge_error(state: ByzanzState) -> str | None:
    """Why the public knowledge of some hand does not fit where the cards are (None if it fits): sure cards
    must be in the hand, and each "maybe" card in the hand or a discard made after it arrived (BZ-I1)."""
    for q in range(state.num_players):
        hand, known, discards = state.hands[q], state.known[q], state.discards[q]
        if any(known[c] > hand[c] for c in range(NUM_CODES)):
            return f"seat {q} is known to hold a card it does not have"
        epochs = [epoch for epoch, _ in state.maybe[q]]
        if epochs != sorted(epochs) or any(not 0 <= e < len(discards) for e in epochs):
            return f"seat {q}'s unsure cards must be ordered by arrival, each before some discard"
        for code in {c for _, c in state.maybe[q]}:
            for threshold in range(len(discards)):
                unsure = sum(1 for e, c in state.maybe[q] if c == code and e >= threshold)
                room = hand[code] - known[code] + discards[threshold:].count(code)
                if unsure > room:
                    return f"seat {q} is known to hold or have discarded a {CODES[code]} that is not there"
    return None


def in_final_selling(state: State) -> bool:
    """Whether the game is in its final selling (BZ-E1), where every player sells what sets they can."""
    return isinstance(state, ByzanzState) and state.phase == FINAL
