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


def test_followed_hints_give_the_rest_of_the_move_at_each_of_its_positions_and_nothing_elsewhere():
    state = games.get("money").new_game(players=3, seed=5)
    seat = 0
    card = next(str(a) for a in state.legal_actions(seat) if str(a).startswith("add "))
    plan = [card, "bid"]
    advice = Hint(seat, plan[0], plan, 0.4, 0.3, 0.5, [0.4, 0.3, 0.3], [], position_key(state, seat))
    followed = FollowedHints(most=2)
    followed.remember("table-a", advice, state)
    assert followed.next_of("table-a", state, seat) is None  # the hint itself is the page's to keep
    after = state.clone()
    after.apply(seat, card)
    rest = followed.next_of("table-a", after, seat)
    assert rest is not None and rest.plan == ["bid"] and rest.best == "bid" and rest.chance == 0.4
    assert rest.position == position_key(after, seat)
    other = state.clone()
    other.apply(
        seat, next(str(a) for a in state.legal_actions(seat) if str(a).startswith("add ") and str(a) != card)
    )
    assert followed.next_of("table-a", other, seat) is None  # off the hinted move
    assert followed.next_of("table-b", after, seat) is None  # another asker's
    followed.remember("table-b", advice, state)
    followed.remember("table-c", advice, state)
    assert followed.next_of("table-a", after, seat) is None, "the oldest asker is forgotten past `most`"
