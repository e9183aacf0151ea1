"""The engine contract (ENGINE.md), checked over every registered game, every player count and many seeds.

A new game gets all of these by being registered in merchantry.games.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import re
import tracemalloc

import pytest

import merchantry
from merchantry import games, records
from merchantry.bots.worlds import sampled_world
from merchantry.engine import State
from tests.conformance.walks import game_setups, random_walk

# 200 seeds per game and player count; the second run of `make test`, on the compiled build, takes fewer
# (MERCHANTRY_CONFORMANCE_SEEDS): the compiled modules run the same source, so a difference between the
# builds shows on any seed, and the pure run has already walked all 200
SEEDS = range(int(os.environ.get("MERCHANTRY_CONFORMANCE_SEEDS", "200")))
# the checks that probe every 7th position with many calls (every action tried, worlds sampled and played
# on) walk the first half of the seeds: they were a third of the suite's time, and the cheap walks still
# cover all 200
PROBED_SEEDS = SEEDS[: max(1, len(SEEDS) // 2)]
SETUPS = game_setups(len(SEEDS))
CHECK_EVERY = 7  # the costlier checks run on every 7th position of a walk (and the first and last)


def ids(setup: tuple[str, int]) -> str:
    return f"{setup[0]}-{setup[1]}p"


def everyone(state: State) -> list[int | None]:
    return [*range(state.num_players), None]


def snapshot(state: State) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def full_state(state: State) -> dict:
    """The whole state as plain data, for equality checks in hot loops (no JSON text: cheaper)."""
    return state.to_dict()


@pytest.fixture(params=SETUPS, ids=ids)
def setup(request):
    return request.param


def test_random_games_terminate_with_scores_and_winners(setup):
    name, players = setup
    game = games.get(name)
    for seed in SEEDS:
        state = game.new_game(players=players, seed=seed)
        assert state.num_players == players
        for _seat, _action in random_walk(state, random.Random(seed)):
            assert state.to_act(), "a game that is not over has someone to act"
            assert all(state.legal_actions(p) for p in state.to_act())
        assert state.is_over() and state.to_act() == []
        scores = state.scores()
        assert len(scores) == players and all(isinstance(s, int | float) for s in scores)
        winners = state.winners()
        assert winners and all(scores[w] == max(scores) for w in winners)


def test_every_legal_action_applies_and_illegal_ones_raise_and_change_nothing(setup):
    name, players = setup
    game = games.get(name)
    seen_actions: dict[str, object] = {}
    for seed in PROBED_SEEDS:
        state = game.new_game(players=players, seed=seed)
        for step, (seat, _action) in enumerate(random_walk(state, random.Random(seed))):
            legal_by_seat = {p: state.legal_actions(p) for p in range(players)}
            for actions in legal_by_seat.values():
                seen_actions.update((str(a), a) for a in actions)
            if step % CHECK_EVERY:
                continue
            before = full_state(state)
            for p, actions in legal_by_seat.items():
                for action in actions:
                    trial = state.clone()
                    trial.apply(p, action)
                    # text notation round-trips and means the same action
                    assert game.parse_action(state, p, str(action)) == action
                illegal = [a for text, a in seen_actions.items() if a not in actions]
                for action in random.Random(step).sample(illegal, min(4, len(illegal))):
                    with pytest.raises(merchantry.IllegalAction) as refused:
                        state.apply(p, action)
                    assert str(refused.value), "a refusal says why"
                    assert full_state(state) == before
            with pytest.raises(merchantry.IllegalAction):
                state.apply(seat, "this is not a move")
            with pytest.raises(merchantry.IllegalAction):
                state.apply(players, state.legal_actions(seat)[0])
            assert full_state(state) == before


ODD_NUMBERS = (-2, -1, 10**6)  # -1 and -2 index from the end in Python; 10**6 points past every table
HAND_MADE_SEEDS = range(20)


def hand_made(action: object) -> list[object]:
    """Copies of a tuple action with one whole-number field replaced by a number a table may not hold."""
    fields = getattr(action, "_fields", ())
    return [
        action._replace(**{field: odd})  # type: ignore[attr-defined]
        for field in fields
        if type(getattr(action, field)) is int
        for odd in ODD_NUMBERS
    ]


def test_hand_made_actions_are_legal_exactly_when_listed_and_refused_with_a_sentence(setup):
    name, players = setup
    game = games.get(name)
    for seed in HAND_MADE_SEEDS:
        state = game.new_game(players=players, seed=seed)
        for step, (seat, _action) in enumerate(random_walk(state, random.Random(seed))):
            if step % CHECK_EVERY:
                continue
            before = full_state(state)
            legal = state.legal_actions(seat)
            for action in {odd for a in legal for odd in hand_made(a)}:
                if action in legal:
                    continue
                assert not state._is_legal(seat, action), f"{action!r} is not listed but passes the check"
                with pytest.raises(merchantry.IllegalAction) as refused:
                    state.apply(seat, action)
                assert str(refused.value)
            assert full_state(state) == before


def test_a_copy_of_a_legal_action_applies_as_the_action_does(setup):
    """An action rebuilt from a record or sent to another process is equal to the legal one, not the same
    object: it must apply alike (Money's `keep` was compared by identity, and a pickled one crashed)."""
    name, players = setup
    game = games.get(name)
    for seed in HAND_MADE_SEEDS:
        state = game.new_game(players=players, seed=seed)
        for step, (seat, _action) in enumerate(random_walk(state, random.Random(seed))):
            if step % CHECK_EVERY:
                continue
            for action in state.legal_actions(seat):
                as_sent, as_listed = state.clone(), state.clone()
                as_sent.apply(seat, pickle.loads(pickle.dumps(action)))
                as_listed.apply(seat, action)
                assert full_state(as_sent) == full_state(as_listed), action


def test_clone_is_independent_of_the_original(setup):
    name, players = setup
    game = games.get(name)
    for seed in SEEDS[:50]:
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        moved_copy = None
        for step, (seat, _action) in enumerate(random_walk(state, rng)):
            if moved_copy is not None:  # the original has moved on since: the copy must not have
                copy, expected = moved_copy
                assert full_state(copy) == expected
                moved_copy = None
            if step % CHECK_EVERY:
                continue
            before = full_state(state)
            copy = state.clone()
            assert full_state(copy) == before
            copy.apply(seat, rng.choice(copy.legal_actions(seat)))
            assert full_state(state) == before, "moving the copy changed the original"
            moved_copy = (copy, full_state(copy))


def test_to_dict_round_trips_and_records_replay_to_the_same_state(setup):
    name, players = setup
    game = games.get(name)
    for seed in SEEDS:
        session = records.Session(name, players, seed=seed)
        rng = random.Random(seed)
        stop = rng.randrange(1, 400)
        for step, (seat, action) in enumerate(random_walk(session.state.clone(), rng)):
            session.apply(seat, action)
            if step in (stop, stop * 3):
                _check_round_trips(game, session)
        _check_round_trips(game, session)


def _check_round_trips(game, session: records.Session) -> None:
    state = session.state
    data = state.to_dict()
    text = json.dumps(data)  # JSON-ready
    again = game.from_dict(json.loads(text))
    assert again.to_dict() == data
    assert [again.view(p) for p in everyone(state)] == [state.view(p) for p in everyone(state)]
    record = json.loads(json.dumps(session.record()))
    assert records.replay(record).to_dict() == data


def test_views_are_json_ready_and_show_each_seat_its_own_legal_moves(setup):
    name, players = setup
    game = games.get(name)
    for seed in SEEDS[:100]:
        state = game.new_game(players=players, seed=seed)
        for step, _move in enumerate(random_walk(state, random.Random(seed))):
            if step % (3 * CHECK_EVERY):
                continue
            for viewer in everyone(state):
                view = state.view(viewer)
                assert json.loads(json.dumps(view)) == view
        final = [state.view(p) for p in everyone(state)]
        assert json.loads(json.dumps(final)) == final


def test_sample_hidden_keeps_the_view_and_varies_what_is_unseen(setup):
    name, players = setup
    game = games.get(name)
    for seed in PROBED_SEEDS:
        state = game.new_game(players=players, seed=seed)
        # at the start every seat has something it cannot see, and sampling really varies it
        for viewer in everyone(state):
            worlds = [state.sample_hidden(viewer, random.Random(k)) for k in range(6)]
            assert len({snapshot(w) for w in worlds} | {snapshot(state)}) > 2
        rng = random.Random(seed)
        for step, _move in enumerate(random_walk(state, random.Random(seed))):
            if step % CHECK_EVERY:
                continue
            before = full_state(state)
            for viewer in everyone(state):
                world = state.sample_hidden(viewer, rng)
                assert world.view(viewer) == state.view(viewer)
                if seed % 5 == 0:  # costlier checks on every 5th game
                    assert world.view(None) == state.view(None), "a world agrees with all that is public"
                    # the game's own consistency checks: every card seen in public is where it was seen
                    game.from_dict(world.to_dict())
                if viewer is not None:
                    assert world.legal_actions(viewer) == state.legal_actions(viewer)
                if viewer is not None:  # (who else is still to answer may be unseen: answers_unseen)
                    assert (viewer in world.to_act()) == (viewer in state.to_act())
                if viewer == step % (players + 1):
                    _play_out(world, rng)  # a sampled world is a full, playable state
            assert full_state(state) == before, "sampling leaves the real state alone"


def _play_out(world: State, rng: random.Random) -> None:
    for _ in random_walk(world, rng):
        if rng.random() < 0.05:
            return


def test_sampled_worlds_draw_from_the_given_rng_only(setup):
    name, players = setup
    game = games.get(name)
    for seed in SEEDS[:50]:
        state = game.new_game(players=players, seed=seed)
        a = state.sample_hidden(0, random.Random(99))
        b = state.sample_hidden(0, random.Random(99))
        assert snapshot(a) == snapshot(b), "the same rng gives the same world"
        other = game.new_game(players=players, seed=seed + 1000)
        c = other.sample_hidden(0, random.Random(99))
        # what the seat cannot see is drawn from the rng, not from the game's own seed: two deals the seat
        # cannot tell apart give the same world, and deals it can tell apart different ones
        assert (snapshot(a) == snapshot(c)) == (other.view(0) == state.view(0))


def test_a_world_holds_only_the_log_its_seat_has_seen(setup):
    """ENGINE principle 2: a world sampled for a seat carries no other seat's private event, in its log as
    in anything else: its whole log is the seat's own view of the log, and stays so as the world plays on."""
    name, players = setup
    game = games.get(name)
    for seed in SEEDS[:40]:
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for step, _move in enumerate(random_walk(state, random.Random(seed))):
            if step % CHECK_EVERY:
                continue
            for viewer in everyone(state):
                world = state.sample_hidden(viewer, rng)
                seen = state.view(viewer)["log"]
                assert world.to_dict()["log"] == seen
                assert world.view(None)["log"] == state.view(None)["log"]
                again = world.sample_hidden(viewer, rng)  # a world of a world: the same log again
                assert again.to_dict()["log"] == seen
                if step % (3 * CHECK_EVERY) == 0 and not world.is_over():
                    for _ in zip(range(3), random_walk(world, rng), strict=False):
                        pass
                    assert world.to_dict()["log"][: len(seen)] == seen


def _same_world_from_the_same_stream(state: State, twin: State, viewer: int | None, key: int) -> None:
    """`state` and `twin` look the same to `viewer`: the worlds drawn from the same stream are the same in
    every field, leave the stream at the same place, and play on alike."""
    stream, twin_stream = random.Random(key), random.Random(key)
    world, twin_world = state.sample_hidden(viewer, stream), twin.sample_hidden(viewer, twin_stream)
    assert full_state(world) == full_state(twin_world), "the world depends on what its seat cannot see"
    assert stream.getstate() == twin_stream.getstate(), "the stream's use depends on what is unseen"
    for playing in (world, twin_world):
        for _ in zip(range(40), random_walk(playing, random.Random(key)), strict=False):
            pass
    assert full_state(world) == full_state(twin_world), "the worlds play on apart"
    if viewer is not None:  # the searches' worlds too: the game's model of the others reads the world only
        stream, twin_stream = random.Random(key), random.Random(key)
        world, twin_world = sampled_world(state, viewer, stream), sampled_world(twin, viewer, twin_stream)
        assert full_state(world) == full_state(twin_world), "the model's world depends on what is unseen"
        assert stream.getstate() == twin_stream.getstate(), "the model's use of the stream depends on it"


def test_a_world_is_a_function_of_what_its_seat_knows(setup):
    """ENGINE principle 2, by construction: two real states a seat cannot tell apart (the same view, the
    hidden cards placed otherwise) give the same world from the same random stream, so neither a world nor
    a bot's move in it can tell anything about the hidden cards."""
    name, players = setup
    game = games.get(name)
    differed = 0
    for seed in SEEDS[:40]:
        state = game.new_game(players=players, seed=seed)
        for step, _move in enumerate(random_walk(state, random.Random(seed))):
            if step % CHECK_EVERY:
                continue
            for viewer in everyone(state):
                # a state the viewer cannot tell from the real one: its hidden part drawn anew
                twin = state.sample_hidden(viewer, random.Random(f"{seed}:{step}:{viewer}"))
                assert twin.view(viewer) == state.view(viewer)
                differed += full_state(twin) != full_state(state)
                _same_world_from_the_same_stream(state, twin, viewer, key=seed * 1000 + step)
    assert differed, "the twins differed from the real states in what is hidden"


def test_a_decision_in_progress_is_its_seats_to_finish_and_known_to_it(setup):
    """ENGINE principle 5: while a seat is partway through a decision it is to act and has moves, and it
    knows so itself: every world sampled for it agrees. A decision spans nothing its seat learns: the
    whole move can be played in a world sampled for the seat before its first step (a bot decides it there,
    an analysis judges it there)."""
    name, players = setup
    game = games.get(name)
    began = 0
    for seed in SEEDS[:60]:
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        worlds: dict[int, State] = {}  # seat -> a world sampled before the first step of its decision
        for step, (seat, action) in enumerate(random_walk(state, random.Random(seed))):
            for p in range(players):
                if state.in_decision(p):
                    assert p in state.to_act() and state.legal_actions(p)
            if step % CHECK_EVERY == 0:
                world = state.sample_hidden(seat, rng)
                assert world.in_decision(seat) == state.in_decision(seat)
            if not state.in_decision(seat):
                worlds[seat] = state.sample_hidden(seat, rng)
            began += state.in_decision(seat)
            assert action in worlds[seat].legal_actions(seat), "the decision spans what its seat learnt"
            worlds[seat].apply(seat, action)
        assert not any(state.in_decision(p) for p in range(players)), "no decision outlives the game"
    assert began, "some moves take several steps"


DISTINCTIVE_SEED = 2**127 + 0x5EED_C0FFEE_1234_5678  # a 128-bit seed, as live tables get


def integers_in(value: object) -> set[int]:
    """Every integer anywhere in a JSON value, and every run of digits in its strings."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str):
        return {int(digits) for digits in re.findall(r"\d+", value)}
    if isinstance(value, dict):
        return set().union(*(integers_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(integers_in(v) for v in value)) if value else set()
    return set()


def test_sampled_worlds_carry_no_trace_of_the_real_seed(setup):
    """ENGINE principle 2: nothing in a sampled world rebuilds the real deal, whoever it was drawn for."""
    name, players = setup
    game = games.get(name)
    real_start = game.new_game(players=players, seed=DISTINCTIVE_SEED).to_dict()
    state = game.new_game(players=players, seed=DISTINCTIVE_SEED)
    rng = random.Random(5)
    dumps = []
    for step, _move in enumerate(random_walk(state, random.Random(1))):
        if step % 25 == 0:
            dumps += [state.sample_hidden(viewer, rng).to_dict() for viewer in everyone(state)]
        if step > 150:
            break
    candidates: set[int] = set()
    for dump in dumps:
        text = json.dumps(dump)
        assert str(DISTINCTIVE_SEED) not in text and hex(DISTINCTIVE_SEED)[2:] not in text
        candidates |= integers_in(dump)
    for number in sorted(candidates):
        rebuilt = game.new_game(players=players, seed=number).to_dict()
        assert rebuilt != real_start, f"the integer {number} in a sampled world rebuilds the real deal"


def test_the_same_seed_gives_the_same_game(setup):
    name, players = setup
    game = games.get(name)
    for seed in SEEDS[:50]:
        runs = []
        for _ in range(2):
            state = game.new_game(players=players, seed=seed)
            moves = [str(a) for _, a in random_walk(state, random.Random(seed))]
            runs.append((moves, snapshot(state)))
        assert runs[0] == runs[1]
    starts = {snapshot(game.new_game(players=players, seed=s)) for s in range(10)}
    assert len(starts) == 10, "different seeds give different games"


def test_unknown_names_and_bad_records_give_one_line_errors():
    with pytest.raises(merchantry.UnknownGame, match="games are: .*money"):
        games.get("monopoly")
    for bad in (
        [],
        {"game": "money"},
        {"game": "money", "players": "four", "seed": 1, "options": {}, "moves": []},
        {"game": "money", "players": 4, "seed": 1, "options": {}, "moves": [[0, "fly"]]},
        {"game": "money", "players": 4, "seed": 1, "options": {"colour": 1}, "moves": []},
        {"game": "money", "players": 9, "seed": 1, "options": {}, "moves": []},
    ):
        with pytest.raises(merchantry.InvalidRecord) as error:
            records.replay(bad)
        assert "\n" not in str(error.value)
    with pytest.raises(merchantry.UnknownGame):
        records.replay({"game": "chess", "players": 2, "seed": 1, "options": {}, "moves": []})


def test_malformed_state_dicts_are_refused_with_one_line(setup):
    name, players = setup
    game = games.get(name)
    good = game.new_game(players=players, seed=3).to_dict()
    broken = [
        {**good, "game": "other"},
        {**good, "version": 999},
        {**good, "players": 99},
        {key: value for key, value in good.items() if key != "deck"},
        {**good, "deck": good["deck"][1:]},  # a card has gone missing
        {**good, "deck": "not a list"},
        "not a dict",
    ]
    for data in broken:
        with pytest.raises(merchantry.InvalidRecord) as refused:
            game.from_dict(data)
        assert "\n" not in str(refused.value)


@pytest.mark.parametrize("name", games.names())
def test_deepcopy_is_clone_and_independent(name):
    import copy

    game = games.get(name)
    state = game.new_game(players=game.min_players, seed=4)
    for _, _action in zip(range(25), random_walk(state, random.Random(4)), strict=False):
        pass
    copied = copy.deepcopy(state)
    assert type(copied) is type(state) and copied.to_dict() == state.to_dict()
    if not copied.is_over():
        seat = copied.to_act()[0]
        copied.apply(seat, copied.legal_actions(seat)[0])
        assert copied.to_dict() != state.to_dict()


def clone_bytes(state: State, copies: int = 50) -> float:
    """Memory one more live clone of `state` costs (tracemalloc), averaged over `copies` kept alive."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [state.clone() for _ in range(copies)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(kept) == copies
    return (after - before) / copies


@pytest.mark.parametrize("name", games.names())
def test_a_cloned_state_does_not_grow_with_its_log(name):
    """Issue 12: the log is shared between clones, never copied or kept as text, so a clone late in a game
    costs about what one early in the game costs, however many events the log holds."""
    game = games.get(name)
    state = game.new_game(players=game.min_players, seed=3)
    rng = random.Random(3)
    walk = random_walk(state, rng)
    for _ in range(5):
        next(walk)
    early, early_events = clone_bytes(state), len(state.to_dict()["log"])
    for _ in walk:
        pass
    late, late_events = clone_bytes(state), len(state.to_dict()["log"])
    assert late_events > 10 * max(1, early_events)
    assert late < 1.5 * early + 256, f"a clone costs {early:.0f} bytes early and {late:.0f} at the end"


def seat_faces(events: list[dict], seat: int | None) -> list[dict]:
    """The events `seat` may read: each with an audience only if the seat is in it, else the event it
    carries for the others, if any (docs/engine.md, "The log")."""
    return [
        e if "audience" not in e or seat in e["audience"] else e["others"]
        for e in events
        if "audience" not in e or seat in e["audience"] or "others" in e
    ]


@pytest.mark.parametrize("name", games.names())
def test_each_view_shows_its_seats_events_read_only_whatever_the_clones(name):
    """Views share the log's own events, remembered per seat as the log grows: each seat's log must
    stay exactly the events it may see (by "audience" and "others") on every branch of clones, and no
    reader can change the log through a view."""
    game = games.get(name)
    for seed in range(3):
        state = game.new_game(players=game.max_players, seed=seed)
        rng = random.Random(seed)
        branches = [state]
        for step, _ in enumerate(random_walk(state, rng)):
            if step % 11 == 0:
                branches.append(state.clone())  # a branch that shares the log so far, then goes its own way
                branch = branches[-1]
                for _ in range(rng.randrange(1, 6)):
                    if branch.is_over():
                        break
                    seat = branch.to_act()[0]
                    branch.apply(seat, rng.choice(branch.legal_actions(seat)))
            for checked in (state, rng.choice(branches)) if step % 5 == 0 else ():
                events = checked.to_dict()["log"]
                for seat in everyone(checked):
                    seen = checked.view(seat)["log"]
                    assert seen == seat_faces(events, seat)
    view = state.view(0)
    entry = view["log"][-1]
    with pytest.raises(TypeError, match="read-only"):
        entry["type"] = "forged"
    with pytest.raises(TypeError, match="read-only"):
        entry.update(seat=3)
    view["log"].clear()  # the view's own list: the log keeps its events
    assert state.view(0)["log"][-1] == entry
    assert json.loads(json.dumps(entry)) == dict(entry) == pickle.loads(pickle.dumps(entry))
