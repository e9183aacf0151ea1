"""Money's rules: the state and its forward model. Clause ids refer to ../shared/rules/money.md.

A round has two steps. In the bidding step (MO-R1) every player still building a bid is in `to_act()` at
once; each adds cards one at a time to a sealed bid and seals it with `bid`. Nobody sees another's bid
until every bid is sealed. In the exchange step (MO-R4..MO-R7) one player acts at a time.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from merchantry.engine import JSON, EventLog, State, seat_label, without
from merchantry.errors import Reason
from merchantry.games.money.actions import (
    ADD,
    ADD_BY_RANK,
    GROUP_NAMES,
    KEEP,
    LEFT,
    REMOVE,
    REMOVE_BY_RANK,
    RIGHT,
    SEAL,
    TAKE_BID,
    TAKE_GROUP,
    MoneyAction,
)
from merchantry.games.money.components import (
    ALL_CODES,
    BLUFF,
    CARD_CODES,
    CARD_CURRENCY,
    CARD_RANK,
    CARD_VALUES,
    CURRENCIES,
    NUM_CARDS,
    display_key,
)
from merchantry.games.money.scoring import HandScore, score_breakdown

# Final (not unpacked from a tuple): compiled, each use is then the number itself, not a look-up of the name
BIDDING: Final = 0
EXCHANGE: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("bidding", "exchange", "over")
HAND_SIZE: Final = 6  # MO-S2: valued cards dealt to each player, besides the bluff card
GROUP_SIZE: Final = 4  # MO-S3 / MO-R8
FORMAT_VERSION: Final = 2  # 2: the game's seed is no longer part of the state
ADD_BLUFF: Final = ADD[BLUFF]
REMOVE_BLUFF: Final = REMOVE[BLUFF]


def codes(cards: Iterable[int]) -> list[str]:
    """Card ids -> codes, sorted for display."""
    # display ranks sort as plain ints, and a rank names its code
    return [ALL_CODES[rank] for rank in sorted([CARD_RANK[c] for c in cards])]


def bid_value(cards: tuple[int, ...] | list[int]) -> int:
    """MO-R3: the value of a bid is the sum of its face values."""
    return sum(CARD_VALUES[c] for c in cards)


# Card ids by code: apply's check asks whether a hand or bid holds a code, answered without a Python loop.
_CARDS_OF_CODE: Final[dict[str, frozenset[int]]] = {
    code: frozenset(c for c in range(NUM_CARDS) if CARD_CODES[c] == code) for code in set(CARD_CODES)
}
_NO_CARDS: Final[frozenset[int]] = frozenset()


# A code's display rank: a bidding move looks its code up once, then works on
# ints (the card ids to choose from, the rank's place in the kept lists).
_RANK_OF_CODE: Final[dict[str, int]] = {code: rank for rank, code in enumerate(ALL_CODES)}


def _holds(cards: tuple[int, ...], listed: tuple[tuple[int, ...], tuple[int, ...], Any], code: str) -> bool:
    """Whether `cards` hold a card of `code`: read off the ranks kept for these very cards when they are
    (`legal_actions` has just listed them, in most calls), else asked of the cards."""
    if listed[0] is cards:
        return _RANK_OF_CODE.get(code, -1) in listed[1]
    return not _CARDS_OF_CODE.get(code, _NO_CARDS).isdisjoint(cards)


# The kept `add` and `remove` lists (MoneyState.listed_adds) carry their display ranks beside the actions: a
# list is updated at the place of a rank, found among plain ints, rather than by
# comparing actions (named tuples of strings) with a key function called for each (compiled, those calls
# into CPython cost as much as in pure Python, and were a third of a bidding move's instructions).


def _listed_with(
    ranks: tuple[int, ...], actions: tuple[MoneyAction, ...], rank: int, by_rank: tuple[MoneyAction, ...]
) -> tuple[tuple[int, ...], tuple[MoneyAction, ...]]:
    """A kept list (in display order) with the action of `rank` in its place, unless it is there already."""
    # The place by a loop over the (few) ranks, not bisect_left: compiled, a native loop over ints, where the
    # call into the bisect module was generic (pure Python, the loop costs a little more than the call)
    place = 0
    for listed in ranks:
        if listed >= rank:
            break
        place += 1
    if place < len(ranks) and ranks[place] == rank:
        return ranks, actions
    return ranks[:place] + (rank,) + ranks[place:], actions[:place] + (by_rank[rank],) + actions[place:]


def _place_of_rank(cards: tuple[int, ...], rank: int, lowest: bool) -> tuple[int, bool]:
    """Where in `cards` the card of `rank` with the lowest (else the highest) serial lies, and whether it
    is the last card of that rank there. One loop: compiled, a native loop over ints (a frozenset's
    intersection, min() and tuple.index were generic calls into CPython, half of a move's instructions)."""
    at = -1
    last = True
    for i in range(len(cards)):
        serial = cards[i]
        if CARD_RANK[serial] == rank:
            if at < 0:
                at = i
            else:
                last = False
                if (serial < cards[at]) == lowest:
                    at = i
    return at, last


def _listed_without(
    ranks: tuple[int, ...], actions: tuple[MoneyAction, ...], rank: int
) -> tuple[tuple[int, ...], tuple[MoneyAction, ...]]:
    """A kept list without the action of `rank` (which it holds)."""
    place = 0  # a loop rather than ranks.index, as in `_listed_with`
    while ranks[place] != rank:
        place += 1
    return ranks[:place] + ranks[place + 1 :], actions[:place] + actions[place + 1 :]


def removed_currency_count(players: int) -> int:
    """MO-S1: 5 players use all 7 currencies, 4 remove one, 3 remove two."""
    return 5 - players


class MoneyState(State):
    """A position of Money. Fields are flat lists of ints so that `clone` is cheap (principle 4)."""

    __slots__ = (
        "num_players",
        "options",
        "deal_seed",
        "match_index",
        "match_results",
        "removed",
        "round",
        "phase",
        "hands",
        "known",
        "bids",
        "bluff_bid",
        "committed",
        "acted",
        "order",
        "current",
        "market",
        "deck",
        "initial_deck",
        "final_round",
        "log",
        "waiting",
        "listed_adds",
        "listed_removes",
    )

    num_players: int
    options: dict[str, Any]  # resolved options; shared between clones, never mutated
    # Seeds the deals of later games of a match: the only random state after the deal, so a sampled world
    # replaces it with a value from its own rng (ENGINE principle 2). The game's seed is not kept at all.
    deal_seed: int
    match_index: int  # which game of the match (MO-E6 option) is being played, from 0
    match_results: tuple[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]], ...]  # (scores, hands) per game
    removed: tuple[str, ...]  # currencies out of this deal (MO-S1), public
    round: int
    phase: int
    # Card containers are tuples, replaced when they change, so that clones share them (issue 12).
    hands: list[tuple[int, ...]]  # valued cards in hand (not in a bid); the bluff card is implicit
    known: list[tuple[int, ...]]  # cards everyone saw enter a hand and not yet seen leave it (MO-I1)
    bids: list[tuple[int, ...]]  # bidding: the sealed or building bid; exchange: the bid on the table
    bluff_bid: list[bool]  # the bluff card is in the bid being built (MO-R2 returns it at the reveal)
    committed: list[bool]  # bid sealed this round
    waiting: tuple[int, ...]  # bidding: the seats whose bid is not sealed yet, in seat order (`to_act`)
    acted: list[bool]  # exchange step: has acted, or sat out (MO-R2)
    order: list[int]  # MO-R4/MO-R5: seats with a bid, highest first
    current: int  # exchange step: who acts now
    market: list[tuple[int, ...]]  # [right group, left group]
    deck: tuple[int, ...]  # face down; the top card is the last element
    initial_deck: int  # deck size after the deal, for progress estimates
    final_round: bool  # MO-E1: the deck ran out at the last refill
    log: EventLog  # public events only
    # Per seat: a hand (a bid), the display ranks of its codes and its `add` (`remove`) actions, both in
    # display order, as last listed. A changed hand is a new tuple, so `is` tells whether they still hold:
    # never out of date, however the hand was changed. Bidding moves update them rather than sort the hand
    # again on every `legal_actions`.
    listed_adds: list[tuple[tuple[int, ...], tuple[int, ...], tuple[MoneyAction, ...]]]
    listed_removes: list[tuple[tuple[int, ...], tuple[int, ...], tuple[MoneyAction, ...]]]

    # --- the contract -----------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def to_act(self) -> list[int]:
        if self.phase == BIDDING:
            return list(self.waiting)
        if self.phase == EXCHANGE:
            return [self.current]
        return []

    def in_decision(self, player: int) -> bool:
        """A sealed bid is one decision: begun with its first card, ended by `bid` (MO-R1)."""
        return (
            self.phase == BIDDING
            and not self.committed[player]
            and (bool(self.bids[player]) or self.bluff_bid[player])
        )

    def net_move(self, player: int, steps: list[MoneyAction]) -> list[MoneyAction]:
        """A sealed bid without its take-backs (MO-R1: a bid is the player's until sealed): each `remove`
        cancels the latest `add` of the same card before it, as `_take_out_of_bid` returns the note added
        last. Kept only when it leads to the same bid and hand (a hand's order aside: a note taken back goes
        to its end), else the steps as played."""
        net: list[MoneyAction] = []
        for step in steps:
            if step.verb == "remove" and MoneyAction("add", step.arg) in net:
                last = len(net) - 1 - net[::-1].index(MoneyAction("add", step.arg))
                del net[last]
            else:
                net.append(step)
        if len(net) == len(steps) or self._position_of(player, net) != self._position_of(player, steps):
            return list(steps)
        return net

    def _position_of(self, player: int, steps: list[MoneyAction]) -> tuple[list[list[int]], dict[str, JSON]]:
        """Where `steps` of `player` lead: each hand as a set of cards, and the rest of the state."""
        state = self.clone()
        for step in steps:
            state.apply(player, step)
        hands = [sorted(hand) for hand in state.hands]
        state.hands = [() for _ in state.hands]
        return hands, state.to_dict()

    def legal_actions(self, player: Any) -> list[MoneyAction]:
        if type(player) is not int or not 0 <= player < self.num_players:
            self.check_seat(player)
        seat: int = player  # typed: compiled, indexing by it is then native, not a generic call
        if self.phase == BIDDING:
            if self.committed[seat]:
                return []
            hand, bid = self.hands[seat], self.bids[seat]
            listed = self.listed_adds[seat]
            actions = list(listed[2] if listed[0] is hand else self._list_adds(seat, hand))
            bluff_in_bid = self.bluff_bid[seat]
            if not bluff_in_bid:
                actions.append(ADD_BLUFF)
            # MO-R1: a bid is the player's until sealed
            listed = self.listed_removes[seat]
            actions += listed[2] if listed[0] is bid else self._list_removes(seat, bid)
            if bluff_in_bid:
                actions.append(REMOVE_BLUFF)
            actions.append(SEAL)
            return actions
        if self.phase == EXCHANGE and seat == self.current:
            # MO-R6: a market group, another bid still on the table, or one's own bid back.
            actions = [TAKE_GROUP[g] for g in (RIGHT, LEFT) if self.market[g]]
            actions += [TAKE_BID[q] for q in self.order if q != seat and not self.acted[q]]
            actions.append(KEEP)
            return actions
        return []

    def _list_adds(self, player: int, hand: tuple[int, ...]) -> tuple[MoneyAction, ...]:
        """The `add` actions of `hand`, kept for the seat: one per code, in display order (each card's
        display rank, deduplicated, sorted as plain ints)."""
        ranks = tuple(sorted({CARD_RANK[c] for c in hand}))
        adds = tuple([ADD_BY_RANK[rank] for rank in ranks])
        self.listed_adds[player] = (hand, ranks, adds)
        return adds

    def _list_removes(self, player: int, bid: tuple[int, ...]) -> tuple[MoneyAction, ...]:
        """The `remove` actions of `bid`, kept for the seat, as `_list_adds`."""
        ranks = tuple(sorted({CARD_RANK[c] for c in bid}))
        removes = tuple([REMOVE_BY_RANK[rank] for rank in ranks])
        self.listed_removes[player] = (bid, ranks, removes)
        return removes

    def _is_legal(self, player: int, action: object) -> bool:
        """`action in legal_actions(player)`, answered without building the list (apply asks every move)."""
        if type(action) is not MoneyAction:
            return action in self.legal_actions(player)
        verb, code = action
        if self.phase == BIDDING:
            if self.committed[player]:
                return False
            if verb == "add":
                if code == BLUFF:
                    return not self.bluff_bid[player]
                return _holds(self.hands[player], self.listed_adds[player], code)
            if verb == "remove":
                if code == BLUFF:
                    return self.bluff_bid[player]
                return _holds(self.bids[player], self.listed_removes[player], code)
            return action == SEAL
        if self.phase != EXCHANGE or player != self.current:
            return False
        if action == KEEP:
            return True
        if action in TAKE_GROUP:
            return bool(self.market[TAKE_GROUP.index(action)])
        if action in TAKE_BID:
            target = TAKE_BID.index(action)
            return target != player and target in self.order and not self.acted[target]
        return False

    def _why_illegal(self, player: int, action: MoneyAction) -> Reason:
        who = seat_label(player)
        if self.phase == OVER:
            return Reason("game_over", "the game is over")
        if self.phase == BIDDING:
            if self.committed[player]:
                waiting = self.to_act()
                others = ", ".join(seat_label(p) for p in waiting)
                text = f"{who} has already sealed a bid this round; waiting for {others}"
                return Reason("already_sealed", text, seat=player, waiting_seats=waiting)
            if action.verb == "add":
                if action.arg == BLUFF:
                    return Reason("bluff_in_bid", f"{who}'s bluff card is already in the bid", seat=player)
                text = f"{who} has no {action.arg} in hand to add to the bid"
                return Reason("card_not_in_hand", text, seat=player, card=action.arg)
            if action.verb == "remove":
                text = f"{who}'s bid holds no {action.arg} to take back"
                return Reason("card_not_in_bid", text, seat=player, card=action.arg)
            text = (
                f"bids are being made: add cards with 'add EUR20' and seal the bid with 'bid', not {action}"
            )
            return Reason("bidding_now", text, move=str(action))
        if player != self.current:
            text = f"it is {seat_label(self.current)}'s turn to exchange, not {who}'s"
            return Reason("not_your_exchange", text, turn_seat=self.current, seat=player)
        if action.verb == "take" and action.arg in GROUP_NAMES:
            return Reason("group_empty", f"the {action.arg} market group is empty", group=action.arg)
        if action.verb == "take":
            target = TAKE_BID.index(action)
            if target == player:
                text = f"{who} cannot take their own bid with 'take'; use 'keep' to take it back"
                return Reason("take_own_bid", text, seat=player)
            if target >= self.num_players:
                return Reason("no_such_seat", f"there is no seat {action.arg} in this game", label=action.arg)
            text = f"{action.arg} has no bid on the table to take (they sat out or have already acted)"
            return Reason("no_bid_to_take", text, target_seat=target)
        text = f"all bids are sealed; {who} must exchange: take right, take left, take a bid, or keep"
        return Reason("exchange_now", text, seat=player)

    def _apply(self, player: int, action: MoneyAction) -> None:
        verb = action.verb
        if verb == "add":
            self._add_to_bid(player, action.arg)
        elif verb == "remove":
            self._take_out_of_bid(player, action.arg)
        elif verb == "bid":
            self.committed[player] = True
            self.waiting = without(self.waiting, player)
            if not self.waiting:
                self._reveal()
        elif action == KEEP:
            self._take_own_bid_back(player)
        elif action in TAKE_GROUP:
            self._take_group(player, TAKE_GROUP.index(action))
        else:
            self._take_bid(player, TAKE_BID.index(action))

    # --- bidding (MO-R1..MO-R5) -------------------------------------------------------------------

    def _add_to_bid(self, player: int, code: str) -> None:
        if code == BLUFF:
            self.bluff_bid[player] = True
            return
        hand, bid = self.hands[player], self.bids[player]
        rank = _RANK_OF_CODE[code]
        # Of several identical notes, the one with the lowest serial (card id) goes in (docs/money.md,
        # decisions); whether it is the hand's last of the rank says what the kept lists lose
        at, last = _place_of_rank(hand, rank, lowest=True)
        card = hand[at]
        new_hand, new_bid = hand[:at] + hand[at + 1 :], bid + (card,)
        self.hands[player], self.bids[player] = new_hand, new_bid
        # the kept lists follow, where they were listed for this hand and bid: the code may leave the
        # hand's list (its last card went) and join the bid's
        listed_hand, ranks, adds = self.listed_adds[player]
        if listed_hand is hand:
            if last:
                ranks, adds = _listed_without(ranks, adds, rank)
            self.listed_adds[player] = (new_hand, ranks, adds)
        listed_bid, ranks, removes = self.listed_removes[player]
        if listed_bid is bid:
            ranks, removes = _listed_with(ranks, removes, rank, REMOVE_BY_RANK)
            self.listed_removes[player] = (new_bid, ranks, removes)

    def _take_out_of_bid(self, player: int, code: str) -> None:
        """Undo an `add` before sealing: of several identical notes the one added last (the highest serial,
        as `_add_to_bid` adds the lowest first) goes back to hand."""
        if code == BLUFF:
            self.bluff_bid[player] = False
            return
        hand, bid = self.hands[player], self.bids[player]
        rank = _RANK_OF_CODE[code]
        at, last = _place_of_rank(bid, rank, lowest=False)  # the highest serial of the rank
        card = bid[at]
        new_hand, new_bid = hand + (card,), bid[:at] + bid[at + 1 :]
        self.hands[player], self.bids[player] = new_hand, new_bid
        listed_bid, ranks, removes = self.listed_removes[player]
        if listed_bid is bid:
            if last:
                ranks, removes = _listed_without(ranks, removes, rank)
            self.listed_removes[player] = (new_bid, ranks, removes)
        listed_hand, ranks, adds = self.listed_adds[player]
        if listed_hand is hand:
            ranks, adds = _listed_with(ranks, adds, rank, ADD_BY_RANK)
            self.listed_adds[player] = (new_hand, ranks, adds)

    def _reveal(self) -> None:
        """MO-R1/MO-R2: all bids turn face up at once; bluff cards go home; empty bids sit out."""
        # the reveal opens the log of a round (round 1's log opens with the deal)
        first = {"new_round": self.round} if self.round > 1 else {}
        self.log = self.log.add("bids_revealed", round=self.round, **first)
        for p in range(self.num_players):
            self.bluff_bid[p] = False  # MO-R2: the bluff card goes back to its owner's hand
            bid = self.bids[p]
            if self.known[p]:  # card ids are unique: the bid's cards are no longer known to be in hand
                self.known[p] = tuple(card for card in self.known[p] if card not in bid)
            if bid:
                self.log = self.log.add("bid", seat=p, cards=codes(bid), value=bid_value(bid))
            else:
                self.acted[p] = True
                self.log = self.log.add("sits_out", seat=p)
        # MO-R4 highest bid first; MO-R5 a tie goes to the bid holding the lowest serial (lowest card id).
        bidders = [p for p in range(self.num_players) if self.bids[p]]
        # (sorted as tuples, no key function: compiled, calling a lambda back from sorted() was generic; bids
        # hold distinct cards, so no two tuples tie before the seat)
        ranked = sorted([(-bid_value(self.bids[p]), min(self.bids[p]), p) for p in bidders])
        self.order = [p for _, _, p in ranked]
        self.phase = EXCHANGE
        if self.order:
            self.log = self.log.add("order", order_seats=list(self.order))
        self._next_in_order()

    # --- exchanging (MO-R6, MO-R7) ----------------------------------------------------------------

    def _receive(self, player: int, cards: tuple[int, ...]) -> None:
        """Cards enter a hand in public view (MO-I1)."""
        self.hands[player] += cards
        self.known[player] += cards

    def _take_group(self, player: int, group: int) -> None:
        taken = self.market[group]
        left_behind = self.bids[player]
        self.market[group] = left_behind  # MO-R6.1: the bid takes the group's place, whatever its size
        self.bids[player] = ()
        self._receive(player, taken)
        self.log = self.log.add(
            "took_group",
            seat=player,
            group=GROUP_NAMES[group],
            taken_cards=codes(taken),
            left_cards=codes(left_behind),
        )
        self._done_acting(player)

    def _take_bid(self, player: int, target: int) -> None:
        taken = self.bids[target]
        self.bids[target] = self.bids[player]  # MO-R6.2: own bid goes in front of the other player
        self.bids[player] = ()
        self._receive(player, taken)
        self.log = self.log.add(
            "took_bid",
            seat=player,
            target_seat=target,
            taken_cards=codes(taken),
            given_cards=codes(self.bids[target]),
        )
        self.acted[player] = True
        self.current = target  # MO-R7: the player whose bid was taken acts next

    def _take_own_bid_back(self, player: int) -> None:
        self.log = self.log.add("took_back", seat=player, cards=codes(self.bids[player]))
        self._receive(player, self.bids[player])  # MO-R6.3
        self.bids[player] = ()
        self._done_acting(player)

    def _done_acting(self, player: int) -> None:
        self.acted[player] = True
        self._next_in_order()

    def _next_in_order(self) -> None:
        """MO-R4: the highest remaining bid acts next; when all have acted the round ends (MO-R8)."""
        for p in self.order:
            if not self.acted[p]:
                self.current = p
                return
        self._end_round()

    # --- end of round, end of game (MO-R8, MO-E1, MO-E2, MO-E6) ------------------------------------

    def _end_round(self) -> None:
        self.current = -1
        if self.final_round or self.round >= self.options["max_rounds"]:
            self._end_deal()
            return
        self._refill()
        self.round += 1
        self._start_bidding()

    def _refill(self) -> None:
        """MO-R8: right group first, then left, each up to 4 cards; a group of 4 or more gets none."""
        added = []
        for group in (RIGHT, LEFT):
            cards = self.market[group]
            count = min(max(0, GROUP_SIZE - len(cards)), len(self.deck))
            if count:  # the top of the deck (its end) first
                self.market[group] = cards + self.deck[: -count - 1 : -1]
                self.deck = self.deck[:-count]
            added.append(count)
        self.log = self.log.add("refilled", right=added[0], left=added[1], count=len(self.deck))
        if not self.deck:
            # MO-E1: the round after the refill that empties (or cannot complete from) the deck is the last.
            self.final_round = True
            self.log = self.log.add("final_round")

    def derive_kept(self) -> None:
        """The fields kept for speed, derived from the others (a new or a rebuilt state): the unsealed seats,
        and the `add` and `remove` lists, listed for no hand yet."""
        self.waiting = tuple(p for p in range(self.num_players) if not self.committed[p])
        self.listed_adds = [((), (), ())] * self.num_players  # an empty hand's list is empty: already right
        self.listed_removes = [((), (), ())] * self.num_players

    def _start_bidding(self) -> None:
        n = self.num_players
        self.phase = BIDDING
        self.bids = [()] * n
        self.bluff_bid = [False] * n
        self.committed = [False] * n
        self.waiting = tuple(range(n))
        self.acted = [False] * n
        self.order = []

    def _end_deal(self) -> None:
        scores = tuple(self.hand_score(p) for p in range(self.num_players))
        self.match_results = (*self.match_results, (scores, tuple(self.hands)))
        # one game is simply over; a match's games are numbered ("Game 2 over"), as its deals are
        kind = "match_deal_scored" if self.options["match_games"] > 1 else "deal_scored"
        self.log = self.log.add(kind, game=self.match_index + 1, scores=list(scores))
        if self.match_index + 1 < self.options["match_games"]:
            self.match_index += 1
            deal(self, random.Random(f"money:{self.deal_seed}:{self.match_index}"))
        else:
            self.phase = OVER

    def hand_score(self, player: int) -> int:
        return self.breakdown(self.hands[player]).total

    def breakdown(self, hand: tuple[int, ...]) -> HandScore:
        """A final hand scored by this game's rules: the rulebook's, or a scoring variant's."""
        return score_breakdown(
            (CARD_CODES[c] for c in hand), self.options["penalty"], self.options["trio_bonus"]
        )

    def scores(self) -> list[float]:
        """Cumulative scores of the finished games of the match; hands in play are secret until the end."""
        totals = [0.0] * self.num_players
        for scores, _ in self.match_results:
            for p, s in enumerate(scores):
                totals[p] += s
        return totals

    # --- information --------------------------------------------------------------------------------

    def hand_size(self, player: int) -> int:
        """Cards a player holds, counting a bid being built and the bluff card (public, MO-I1)."""
        in_bid = len(self.bids[player]) if self.phase == BIDDING else 0
        return len(self.hands[player]) + in_bid + 1

    def view(self, player: Any) -> dict[str, JSON]:
        if player is not None:
            self.check_seat(player)
        seats = [self._seat_view(p, player) for p in range(self.num_players)]
        view: dict[str, JSON] = {
            "game": "money",
            "seat": player,
            "players": self.num_players,
            "phase": PHASE_NAMES[self.phase],
            "round": self.round,
            "max_rounds": self.options["max_rounds"],
            "final_round": self.final_round,
            "match": {"game": self.match_index + 1, "of": self.options["match_games"]},
            "removed_currencies": list(self.removed),
            "deck": len(self.deck),
            "deck_at_deal": self.initial_deck,
            "market": {"right": codes(self.market[RIGHT]), "left": codes(self.market[LEFT])},
            "to_act": self.to_act(),
            "order": list(self.order),
            "current": self.current if self.phase == EXCHANGE else None,
            "seats": seats,
            "scores": self.scores(),
            "results": [self._result_view(scores, hands) for scores, hands in self.match_results],
            "log": self.log.visible_to(player),
        }
        variants = self.game.variants_in_play(self.options)
        if variants:
            view["variants"] = variants
        if player is not None:
            hand = sorted(self.hands[player], key=lambda c: (display_key(CARD_CODES[c]), c))
            # the bluff card is in the hand unless it is in the bid being built (MO-R2): a lesson's page
            # showed it in both once it was bid
            view["hand"] = [CARD_CODES[c] for c in hand] + ([] if self.bluff_bid[player] else [BLUFF])
            view["hand_serials"] = [c + 1 for c in hand]
            if self.phase == BIDDING:
                bid = sorted(self.bids[player], key=lambda c: (display_key(CARD_CODES[c]), c))
                view["my_bid"] = [CARD_CODES[c] for c in bid] + ([BLUFF] if self.bluff_bid[player] else [])
                view["my_bid_serials"] = [c + 1 for c in bid]  # MO-R5: the lowest serial breaks a tie
        return view

    def _seat_view(self, p: int, viewer: int | None) -> dict[str, JSON]:
        seat: dict[str, JSON] = {"seat": p, "hand_size": self.hand_size(p), "known": codes(self.known[p])}
        if self.phase == BIDDING:
            seat["sealed"] = self.committed[p]  # MO-I1: bids stay hidden until the reveal
        elif self.phase == EXCHANGE:
            on_table = self.bids[p]
            seat["bid"] = codes(on_table) if on_table else None
            seat["bid_value"] = bid_value(on_table) if on_table else None
            seat["bid_serial"] = (
                min(on_table) + 1 if on_table else None
            )  # MO-R5: breaks a tie, printed on the note
            seat["acted"] = self.acted[p]
        return seat

    def _result_view(self, scores: tuple[int, ...], hands: tuple[tuple[int, ...], ...]) -> dict[str, JSON]:
        """A finished game: hands are shown at the final scoring, each with its bluff card (every seat holds
        one, MO-I1, and it scores 0), so that the cards shown are the cards counted."""
        breakdown = []
        for hand in hands:
            hs = self.breakdown(hand)
            breakdown.append(
                {
                    "hand": [*codes(list(hand)), BLUFF],
                    "currencies": {
                        c.currency: {"total": c.total, "trios": c.trios, "score": c.score}
                        for c in hs.currencies
                    },
                    "coins": hs.coins,
                    "total": hs.total,
                }
            )
        return {"scores": list(scores), "hands": breakdown}

    # --- copies, serialisation, sampling ------------------------------------------------------------

    def clone(self) -> MoneyState:
        new = MoneyState.__new__(MoneyState)
        new.num_players = self.num_players
        new.options = self.options
        new.deal_seed = self.deal_seed
        new.match_index = self.match_index
        new.match_results = self.match_results
        new.removed = self.removed
        new.round = self.round
        new.phase = self.phase
        new.hands = self.hands[:]  # the tuples inside are shared
        new.known = self.known[:]
        new.bids = self.bids[:]
        new.bluff_bid = self.bluff_bid[:]
        new.committed = self.committed[:]
        new.waiting = self.waiting
        new.acted = self.acted[:]
        new.order = self.order[:]
        new.current = self.current
        new.market = self.market[:]
        new.deck = self.deck
        new.initial_deck = self.initial_deck
        new.final_round = self.final_round
        new.log = self.log  # immutable, shared
        new.listed_adds = self.listed_adds[:]  # the pairs inside are shared
        new.listed_removes = self.listed_removes[:]
        return new

    def to_dict(self) -> dict[str, JSON]:
        return {
            "game": "money",
            "version": FORMAT_VERSION,
            "players": self.num_players,
            "options": self.game.recorded_options(self.options),
            "deal_seed": self.deal_seed,
            "match_index": self.match_index,
            "match_results": [
                {"scores": list(scores), "hands": [list(h) for h in hands]}
                for scores, hands in self.match_results
            ],
            "removed": list(self.removed),
            "round": self.round,
            "phase": PHASE_NAMES[self.phase],
            "hands": [list(h) for h in self.hands],
            "known": [list(k) for k in self.known],
            "bids": [list(b) for b in self.bids],
            "bluff_bid": self.bluff_bid[:],
            "committed": self.committed[:],
            "acted": self.acted[:],
            "order": self.order[:],
            "current": self.current,
            "market": [list(self.market[0]), list(self.market[1])],
            "deck": list(self.deck),
            "initial_deck": self.initial_deck,
            "final_round": self.final_round,
            "log": self.log.events(),
        }

    def sample_hidden(self, player: Any, rng: Any) -> MoneyState:
        """Redeal every card `player` has not seen: the deck and opponents' cards not known in public.

        Cards that entered a hand in public stay there (MO-I1). Opponents' bids that are still sealed are
        unknown: a sealed bid is redrawn at random from the opponent's sampled cards, an unsealed one is
        emptied. Later deals of a match draw from a seed taken from `rng` (ENGINE principle 2).
        """
        self.check_viewer(player, rng)
        world = self.clone()
        world.log = self.log.seen_by(player)
        others = [q for q in range(self.num_players) if q != player]
        pool = list(world.deck)
        unknown_counts = []
        for q in others:
            holding = world.hands[q] + (world.bids[q] if world.phase == BIDDING else ())
            unknown = list((Counter(holding) - Counter(world.known[q])).elements())
            pool += unknown
            unknown_counts.append(len(unknown))
            world.hands[q] = world.known[q]
            if world.phase == BIDDING:
                world.bids[q] = ()
                world.bluff_bid[q] = False
        pool.sort()  # the unseen cards as a set: their real order must not steer the shuffle
        rng.shuffle(pool)
        for q, count in zip(others, unknown_counts, strict=True):
            world.hands[q] += tuple(pool[:count])
            del pool[:count]
        world.deck = tuple(pool)
        if world.phase == BIDDING:
            for q in others:
                if world.committed[q]:
                    world._draw_sealed_bid(q, rng)
        world.deal_seed = rng.getrandbits(63)
        return world

    def reopen_bid(self, player: int) -> None:
        """`player`'s sealed bid back in its hand, unsealed: only in a world sampled for another seat, where
        a search's model of the others (the package's `hidden_model`) bids for it again (MO-R1: a sealed bid
        is unseen, so how it is drawn is the model's choice). Never in play: a sealed bid stays sealed."""
        if self.phase != BIDDING or not self.committed[player]:
            raise ValueError(f"P{player + 1} has no sealed bid to reopen")
        self.hands[player] = self.hands[player] + self.bids[player]
        self.bids[player] = ()
        self.bluff_bid[player] = False
        self.committed[player] = False
        self.waiting = tuple(p for p in range(self.num_players) if not self.committed[p])

    def _draw_sealed_bid(self, player: int, rng: random.Random) -> None:
        hand = list(self.hands[player])
        rng.shuffle(hand)
        size = rng.randint(0, len(hand))
        self.bids[player] = tuple(hand[:size])
        self.hands[player] = tuple(hand[size:])
        self.bluff_bid[player] = rng.random() < 0.5


def deal(state: MoneyState, rng: random.Random) -> None:
    """MO-S1..MO-S3: choose the currencies, shuffle, deal 6 cards to each player and 4 to each group."""
    n = state.num_players
    named = state.options["removed_currencies"]
    if named:
        removed = tuple(sorted(named.split(",")))
    else:
        removed = tuple(sorted(rng.sample(CURRENCIES, removed_currency_count(n))))
    cards = [c for c in range(NUM_CARDS) if CARD_CURRENCY[c] not in removed]
    rng.shuffle(cards)
    state.removed = removed
    state.hands = [tuple(cards[HAND_SIZE * p : HAND_SIZE * (p + 1)]) for p in range(n)]
    state.known = [()] * n
    del cards[: HAND_SIZE * n]
    state.market = [
        tuple(cards.pop() for _ in range(GROUP_SIZE)),
        tuple(cards.pop() for _ in range(GROUP_SIZE)),
    ]
    state.deck = tuple(cards)
    state.initial_deck = len(cards)
    state.round = 1
    state.final_round = False
    state.current = -1
    state._start_bidding()
    kind = "match_deal" if state.options["match_games"] > 1 else "deal"
    game = state.match_index + 1
    state.log = state.log.add(kind, game=game, removed=list(removed), count=len(removed), new_round=1)
