"""Issue 32, the thirteenth newcomer pass: what it found broken in the analysis and the hints, pinned."""

from __future__ import annotations

from merchantry import games
from merchantry.bots.analysis import FollowedHints, Hint, mark, percent, position_key, shown_mark


def test_a_mark_follows_the_whole_percents_shown():
    """ "51% → 41%" was marked an inaccuracy (its unrounded loss 9.95 points) beside a rule that says 10 or
    more is a mistake, and a key moment saying "about 10 points": the mark is judged on what is shown."""
    best, after = 0.514, 0.4145
    assert (percent(best), percent(after)) == (51, 41)
    assert mark(best - after) == "inaccuracy"  # the unrounded loss, as it was judged
    assert shown_mark(best, after) == "mistake"
    assert shown_mark(0.5149, 0.4149) == "mistake" and shown_mark(0.5149, 0.4251) == "inaccuracy"
    assert shown_mark(0.30, 0.35) is None  # the move played measured higher
    assert percent(0.125) == 13 and percent(0.135) == 14  # halves up, as the page's Math.round


def test_followed_hints_give_the_rest_of_the_move_after_its_first_steps_whatever_others_did():
    """A hinted move followed step by step is hinted on to its end with its chance, also where another seat
    sealed meanwhile (the fourteenth pass: a Money bid's rest was searched again after the bots sealed, and
    read another chance than the analysis'); a step off the hint, or another asker, gets none."""
    game = games.get("money")
    state = game.new_game(players=3, seed=5)
    seat = 0
    cards = [str(a) for a in state.legal_actions(seat) if str(a).startswith("add ")]
    plan = [cards[0], "bid"]
    advice = Hint(seat, plan[0], plan, 0.4, 0.3, 0.5, [0.4, 0.3, 0.3], [], position_key(state, seat))
    followed = FollowedHints(most=2)
    followed.remember("table-a", advice, moves_so_far=3)
    earlier = [(1, "add x"), (2, "add y"), (1, "bid")]  # the game's moves before the hint
    assert followed.next_of("table-a", state, seat, earlier) is None  # nothing of it played yet
    after = state.clone()
    after.apply(seat, cards[0])
    other = next(str(a) for a in after.legal_actions(2) if str(a).startswith("add "))
    after.apply(2, other)
    after.apply(2, "bid")  # P3 seals meanwhile: what P1 knows changes, its move goes on
    moves = [*earlier, (0, cards[0]), (2, other), (2, "bid")]
    rest = followed.next_of("table-a", after, seat, moves)
    assert rest is not None and rest.plan == ["bid"] and rest.best == "bid"
    assert (rest.chance, rest.low, rest.high) == (0.4, 0.3, 0.5)
    assert rest.position == position_key(after, seat)
    off = state.clone()
    off.apply(seat, cards[1])
    assert followed.next_of("table-a", off, seat, [*earlier, (0, cards[1])]) is None  # off the hinted move
    assert followed.next_of("table-b", after, seat, moves) is None  # another asker's
    followed.remember("table-b", advice, 3)
    followed.remember("table-c", advice, 3)
    assert followed.next_of("table-a", after, seat, moves) is None, (
        "the oldest asker is forgotten past `most`"
    )
    done = after.clone()
    done.apply(seat, "bid")
    assert followed.next_of("table-c", done, seat, [*moves, (0, "bid")]) is None  # the move is over
