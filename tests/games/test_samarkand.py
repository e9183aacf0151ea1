"""Samarkand rules, one test (or more) per clause of ../shared/rules/samarkand.md (the map's clauses SK-C1,
SK-C2, SK-C5 are in test_samarkand_map.py). Positions are built through `to_dict`/`from_dict`."""

from __future__ import annotations

import random
from typing import Any

import pytest

import merchantry
from merchantry.games import samarkand
from merchantry.games.samarkand.components import MAP
from merchantry.games.samarkand.rules import SamarkandState
from merchantry.i18n import log_lines

GAME = samarkand.GAME
FAMILY = {family.name: family.index for family in MAP.families}


def start_of(name: str) -> int:
    return MAP.families[FAMILY[name]].start


def space(space_id: str) -> int:
    return next(s.index for s in MAP.spaces if s.id == space_id)


def sid(index: int) -> str:
    return MAP.spaces[index].id


def land_next_to(index: int, exclude: tuple[int, ...] = ()) -> int:
    """A plain land space next to `index`."""
    return next(n for n in MAP.spaces[index].adjacent if MAP.spaces[n].kind == "land" and n not in exclude)


def water_with_land_neighbour() -> tuple[int, int]:
    water = next(s for s in MAP.spaces if s.kind == "water")
    return water.index, next(n for n in water.adjacent if MAP.spaces[n].kind in ("land", "goods"))


def goods_space(good: int) -> int:
    return MAP.goods_space[good - 1]


def fresh(players: int = 4, seed: int = 0) -> dict[str, Any]:
    return GAME.new_game(players=players, seed=seed).to_dict()


def build(d: dict[str, Any]) -> SamarkandState:
    state = GAME.from_dict(d)
    assert isinstance(state, SamarkandState)
    return state


def put_camel(d: dict[str, Any], name: str, index: int) -> None:
    f = FAMILY[name]
    assert not d["camels"][index] & (1 << f)
    d["camels"][index] |= 1 << f
    d["camels_left"][f] -= 1


def give_tile(d: dict[str, Any], seat: int, name: str) -> None:
    f = FAMILY[name]
    d["domain_tiles"][f] -= 1
    d["tiles_held"][seat][f] += 1


def give_card(d: dict[str, Any], seat: int, good: int) -> None:
    """Move goods card `good` into `seat`'s hand from wherever it is."""
    for hand in d["hands"]:
        if good in hand:
            hand.remove(good)
    if good in d["deck"]:
        d["deck"].remove(good)
    if good in d["discards"]:
        at = d["discards"].index(good)
        del d["discards"][at], d["discarders"][at]
    d["hands"][seat] = sorted([*d["hands"][seat], good])


def set_hand(d: dict[str, Any], seat: int, goods: list[int]) -> None:
    """`seat` holds exactly `goods`; its old cards go to the bottom of the deck."""
    d["deck"] = [g for g in d["hands"][seat] if g not in goods] + d["deck"]
    d["hands"][seat] = []
    for good in goods:
        give_card(d, seat, good)


def turn_to(d: dict[str, Any], seat: int) -> None:
    d["current"] = seat


def legal(state: SamarkandState, seat: int | None = None) -> list[str]:
    return [str(a) for a in state.legal_actions(state.current if seat is None else seat)]


def answer_offer(state: SamarkandState, seller: int | None = None) -> None:
    """Everyone keeps, except `seller` who sells."""
    good = state.offer_good
    for seat in list(state.to_act()):
        if state.offer_good != good:
            break
        state.apply(seat, f"sell {good}" if seat == seller else "keep")


# --- setup ------------------------------------------------------------------------------------------


def test_sk_s1_one_camel_per_family_on_its_start_the_rest_on_its_domain():
    state = GAME.new_game(players=4, seed=3)
    view = state.view(None)
    for family in MAP.families:
        assert view["camels"][family.start] == [family.index]
        row = view["families"][family.index]
        assert row["camels_left"] == 11 and row["domain_tiles"] == 2 and row["markers_left"] == 5
    assert sum(len(c) for c in view["camels"]) == 10


def test_sk_s2_two_cards_each_and_the_rest_face_down():
    state = GAME.new_game(players=5, seed=1)
    view = state.view(0)
    assert [s["hand_size"] for s in view["seats"]] == [2] * 5
    assert view["deck_size"] == 33 - 10 and view["discard_size"] == 0
    assert len(view["hand"]) == 2
    assert all(s["goods_markers"] == 0 for s in view["seats"])


def test_sk_s3_ten_dirhams_a_seeded_first_player_and_clockwise_play():
    firsts = {GAME.new_game(players=4, seed=s).view(None)["first_player"] for s in range(30)}
    assert firsts == {0, 1, 2, 3}
    state = GAME.new_game(players=4, seed=5)
    assert [s["money"] for s in state.view(None)["seats"]] == [10] * 4
    first = state.current
    state.apply(first, "marry byzantium")
    while state.current == first and state.phase == "discard":
        state.apply(first, "done" if "done" in legal(state) else legal(state)[0])
    assert state.current == (first + 1) % 4


@pytest.mark.parametrize(("players", "limit"), [(2, 10), (3, 10), (4, 7), (5, 6)])
def test_sk_s4_hand_limit_by_player_count(players, limit):
    assert GAME.new_game(players=players, seed=0).view(0)["hand_limit"] == limit


# --- a turn -----------------------------------------------------------------------------------------


def test_sk_t1_marrying_pays_the_cost_into_the_treasury_and_takes_a_tile():
    d = fresh()
    turn_to(d, 1)
    state = build(d)
    state.apply(1, "marry persia")  # cost 6
    view = state.view(None)
    assert view["seats"][1]["money"] == 4 and view["seats"][1]["tiles"] == ["Persia"]
    assert view["families"][FAMILY["Persia"]]["treasury"] == 6
    assert view["families"][FAMILY["Persia"]]["domain_tiles"] == 1


def test_sk_t1_no_second_tile_of_a_family_no_debt_no_tile_left():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    give_tile(d, 1, "Egypt")
    give_tile(d, 2, "Egypt")
    d["money"][0] = 5
    state = build(d)
    moves = legal(state)
    assert "marry levant" not in moves  # already married into it
    assert "marry egypt" not in moves  # both tiles taken
    assert "marry persia" not in moves  # costs 6, only 5 in hand
    assert "marry arabia" in moves  # costs 5: down to exactly 0
    for move, reason in [
        ("marry levant", "already hold"),
        ("marry egypt", "no Egypt tile"),
        ("marry persia", "costs 6"),
    ]:
        with pytest.raises(merchantry.IllegalAction, match=reason):
            state.apply(0, move)


def test_sk_t2_marrying_below_the_limit_draws_three_then_discards_up_to_two():
    d = fresh(players=4)
    turn_to(d, 0)
    state = build(d)
    before = len(state.hands[0])
    state.apply(0, "marry egypt")
    assert len(state.hands[0]) == before + 3 and state.phase == "discard"
    assert "done" in legal(state)  # 5 cards, limit 7: discarding nothing is allowed
    state.apply(0, f"discard {state.hands[0][0]}")
    state.apply(0, f"discard {state.hands[0][0]}")  # the second discard ends the turn
    assert len(state.hands[0]) == before + 1 and state.current == 1
    assert state.view(None)["discard_size"] == 2
    with pytest.raises(merchantry.IllegalAction):
        state.apply(0, "done")


def test_sk_t2_a_hand_at_the_limit_marries_without_drawing():
    d = fresh(players=5)  # limit 6
    turn_to(d, 0)
    set_hand(d, 0, [1, 2, 3, 4, 5, 6])
    state = build(d)
    state.apply(0, "marry egypt")
    assert state.hands[0] == (1, 2, 3, 4, 5, 6) and state.current == 1


def test_sk_t2_an_empty_deck_is_refilled_from_the_shuffled_discards_and_then_what_exists_is_drawn():
    d = fresh(players=3)
    turn_to(d, 0)
    cards = d["deck"]
    d["deck"], d["discards"], d["discarders"] = cards[:1], cards[1:3], [1, 2]
    d["hands"][2] = sorted(d["hands"][2] + cards[3:])  # everything else out of the way
    state = build(d)
    state.apply(0, "marry egypt")
    assert len(state.hands[0]) == 2 + 3  # one from the deck, two from the reshuffled discards
    assert state.view(None)["deck_size"] == 0 and state.view(None)["discard_size"] == 0
    assert "reshuffled" in [e["type"] for e in state.view(None)["log"]]
    state.apply(0, "done")
    state.apply(1, "marry levant")  # deck and discards both empty: nothing to draw
    assert len(state.hands[1]) == 2 and state.current == 2


def test_sk_t3_expanding_one_camel_is_free_two_cost_the_treasury_a_dirham():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["treasury"][FAMILY["Levant"]] = 4
    state = build(d)
    start = start_of("Levant")
    first = land_next_to(start)
    state.apply(0, f"expand levant {sid(first)}")
    assert state.phase == "second" and state.treasury[FAMILY["Levant"]] == 4
    second = land_next_to(start, exclude=(first,))
    state.apply(0, f"camel {sid(second)}")
    assert state.treasury[FAMILY["Levant"]] == 3 and state.current == 1
    assert state.view(None)["families"][FAMILY["Levant"]]["camels_left"] == 9


def test_sk_t3_an_empty_treasury_allows_only_one_camel():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    state = build(d)
    state.apply(0, f"expand levant {sid(land_next_to(start_of('Levant')))}")
    assert state.current == 1 and state.phase == "act"


def test_sk_t3_a_camel_goes_next_to_its_familys_route_only_and_needs_the_tile():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    state = build(d)
    moves = legal(state)
    targets = {m.split()[2] for m in moves if m.startswith("expand levant")}
    assert targets == {sid(n) for n in MAP.spaces[start_of("Levant")].adjacent}
    assert not any(m.startswith("expand egypt") for m in moves)
    far = next(s.index for s in MAP.spaces if s.index not in MAP.spaces[start_of("Levant")].adjacent)
    with pytest.raises(merchantry.IllegalAction, match="not next to a Levant camel"):
        state.apply(0, f"expand levant {sid(far)}")
    with pytest.raises(merchantry.IllegalAction, match="hold no Egypt tile"):
        state.apply(0, f"expand egypt {sid(land_next_to(start_of('Egypt')))}")


def test_sk_t3_the_second_camel_need_not_touch_the_first():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["treasury"][FAMILY["Levant"]] = 1
    ring = [n for n in MAP.spaces[start_of("Levant")].adjacent if MAP.spaces[n].kind != "start"]
    first, second = next((a, b) for a in ring for b in ring if b != a and b not in MAP.spaces[a].adjacent)
    state = build(d)
    state.apply(0, f"expand levant {sid(first)}")
    state.apply(0, f"camel {sid(second)}")
    assert {first, second} <= {
        s for s, fams in enumerate(state.view(None)["camels"]) if FAMILY["Levant"] in fams
    }


def test_sk_t4_at_most_two_camels_on_a_space_never_two_of_one_family():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    target = land_next_to(start_of("Levant"))
    put_camel(d, "Egypt", target)
    put_camel(d, "Arabia", target)
    state = build(d)
    assert f"expand levant {sid(target)}" not in legal(state)
    assert f"expand levant {sid(start_of('Levant'))}" not in legal(state)
    d2 = fresh()
    d2["camels"][target] = 0b111
    with pytest.raises(merchantry.InvalidRecord, match="at most 2"):
        build(d2)


def test_sk_t5_each_camel_is_resolved_before_the_second_is_placed():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["treasury"][FAMILY["Levant"]] = 2
    good_space = next(s for s in MAP.spaces if s.kind == "goods")
    put_camel(d, "Levant", land_next_to(good_space.index))
    state = build(d)
    state.apply(0, f"expand levant {good_space.id}")
    assert state.phase == "offer" and state.treasury[FAMILY["Levant"]] == 2  # no second camel yet
    answer_offer(state)
    assert state.phase == "second" and state.current == 0
    state.apply(0, f"camel {sid(land_next_to(start_of('Levant')))}")
    assert state.treasury[FAMILY["Levant"]] == 1


def test_sk_t6_a_player_who_can_neither_marry_nor_expand_passes():
    d = fresh()
    turn_to(d, 0)
    d["money"][0] = 2  # every marriage costs 3 or more
    state = build(d)
    assert legal(state) == ["pass"]
    state.apply(0, "pass")
    assert state.current == 1
    d["money"][0] = 3
    with pytest.raises(merchantry.IllegalAction, match="only pass when"):
        build(d).apply(0, "pass")


def everyone_passes_once() -> SamarkandState:
    """A 3-player game in which nobody can pay for anything, after one whole round of passes (SK-T6)."""
    d = fresh(players=3)
    d["money"] = [0, 0, 0]
    state = build(d)
    for _ in range(3):
        state.apply(state.current, "pass")
    return state


def test_sk_t6_a_full_round_of_passes_ends_the_game():
    state = everyone_passes_once()
    assert state.is_over() and state.view(None)["log"][-1]["reason"] == "nobody_can_move"


# --- goods spaces -----------------------------------------------------------------------------------


def _goods_setup(holder: int, good: int = 12) -> SamarkandState:
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    give_card(d, holder, good)
    put_camel(d, "Levant", land_next_to(goods_space(good)))
    return build(d)


def test_sk_g1_the_first_camel_takes_the_marker_and_the_holder_may_sell_out_of_turn():
    state = _goods_setup(holder=2)
    state.apply(0, f"expand levant {sid(goods_space(12))}")
    assert state.goods_markers[0] == 1
    assert state.to_act() == [0, 1, 2, 3]  # everyone answers: the wait does not reveal the holder
    assert legal(state, 2) == ["sell 12", "keep"] and legal(state, 1) == ["keep"]
    with pytest.raises(merchantry.IllegalAction, match="only the holder"):
        state.apply(1, "sell 12")
    state.apply(1, "keep")
    money = state.money[2]
    state.apply(2, "sell 12")
    assert state.money[2] == money + 3 and state.view(None)["seats"][2]["sold"] == [12]
    assert 12 not in state.hands[2] and state.hand_size(2) == len(state.hands[2]) + 1  # still counts
    assert state.phase == "act" and state.current == 1  # the offer closed, no treasury: turn over
    assert state.score_breakdown(2)["goods_cards"] == 0  # sold cards score nothing


def test_sk_g1_the_active_player_may_sell_their_own_card():
    state = _goods_setup(holder=0)
    state.apply(0, f"expand levant {sid(goods_space(12))}")
    state.apply(0, "sell 12")
    assert state.sold[0] == (12,) and state.money[0] == 13 and state.phase == "act"


def test_sk_g1_an_offer_is_asked_even_when_nobody_holds_the_card():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["hands"] = [[h for h in hand if h != 12] for hand in d["hands"]]
    if 12 not in d["deck"]:
        d["deck"].append(12)
    put_camel(d, "Levant", land_next_to(goods_space(12)))
    state = build(d)
    state.apply(0, f"expand levant {sid(goods_space(12))}")
    assert state.to_act() == [0, 1, 2, 3] and all(legal(state, p) == ["keep"] for p in range(4))


def test_sk_g1_a_later_camel_gives_no_marker_and_no_sale():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    give_card(d, 1, 12)
    put_camel(d, "Egypt", goods_space(12))
    put_camel(d, "Levant", land_next_to(goods_space(12)))
    state = build(d)
    state.apply(0, f"expand levant {sid(goods_space(12))}")
    assert state.goods_markers[0] == 0 and state.phase == "act" and state.current == 1


# --- relationships ----------------------------------------------------------------------------------


def _meeting(on_water: bool = False, levant_held: bool = True, **extra: Any) -> tuple[SamarkandState, int]:
    """Seat 0 (Byzantium) is about to put a camel next to a Levant camel's space; seat 1 holds Levant."""
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Byzantium")
    if levant_held:
        give_tile(d, 1, "Levant")
    meet, beside = water_with_land_neighbour() if on_water else (land_next_to(start_of("Byzantium")), None)
    if on_water:
        put_camel(d, "Byzantium", beside)
    put_camel(d, "Levant", meet)
    for key, value in extra.items():
        d[key] = value
    return build(d), meet


def test_sk_r1_camels_of_two_families_on_land_make_a_relationship():
    state, meet = _meeting()
    state.apply(0, f"expand byzantium {sid(meet)}")
    view = state.view(None)
    assert view["families"][FAMILY["Byzantium"]]["met"] == ["Levant"]
    assert view["families"][FAMILY["Levant"]]["met"] == ["Byzantium"]


def test_sk_r1_on_water_camels_pass_side_by_side():
    state, meet = _meeting(on_water=True)
    money = state.money[:]
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert state.view(None)["families"][FAMILY["Levant"]]["met"] == []
    assert state.money == money and state.relation_markers == (0, 0, 0, 0)


def test_sk_r2_only_the_first_meeting_pays_and_gives_markers():
    state, meet = _meeting()
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert state.money[:2] == (13, 11) and state.relation_markers[0] == 2
    d = state.to_dict()
    d["current"] = 0
    again = land_next_to(meet, exclude=(start_of("Byzantium"),))
    put_camel(d, "Levant", again)
    state = build(d)
    state.apply(0, f"expand byzantium {sid(again)}")
    assert state.money[:2] == (13, 11) and state.relation_markers[0] == 2


def test_sk_r2_a_holder_of_both_families_receives_both_bonuses():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Byzantium")
    give_tile(d, 2, "Byzantium")
    give_tile(d, 2, "Levant")
    meet = land_next_to(start_of("Byzantium"))
    put_camel(d, "Levant", meet)
    state = build(d)
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert state.money == (13, 10, 14, 10)


def test_sk_r2_an_empty_stack_gives_no_marker_but_still_pays():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Byzantium")
    give_tile(d, 1, "Levant")
    meet = land_next_to(start_of("Byzantium"))
    put_camel(d, "Levant", meet)
    d["stack"][FAMILY["Levant"]] = 0
    state = build(d)
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert state.relation_markers[0] == 1 and state.money[:2] == (13, 11)


# --- the end ----------------------------------------------------------------------------------------


def test_sk_e1_the_game_ends_when_every_family_has_met():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Byzantium")
    give_tile(d, 1, "Levant")
    d["stack"] = [4] * 10
    d["stack"][FAMILY["Byzantium"]] = d["stack"][FAMILY["Levant"]] = 5
    meet = land_next_to(start_of("Byzantium"))
    put_camel(d, "Levant", meet)
    state = build(d)
    assert not state.is_over()
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert (
        state.is_over()
        and state.to_act() == []
        and state.view(None)["log"][-1]["reason"] == "every_family_met"
    )


def test_sk_e1_the_game_ends_when_a_family_has_had_five_relationships():
    state, meet = _meeting(stack=[5, 5, 5, 5, 5, 5, 1, 5, 5, 5])
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert state.is_over() and state.view(None)["log"][-1]["reason"] == "five_relationships"


def test_sk_e1_the_end_waits_for_the_turn_to_finish():
    state, meet = _meeting(stack=[5, 5, 5, 5, 5, 5, 1, 5, 5, 5], treasury=[2] + [0] * 9)
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert not state.is_over() and state.phase == "second"  # the second camel still comes
    state.apply(0, "done")
    assert state.is_over()


def test_sk_e2_scoring_cards_markers_and_money():
    d = fresh()
    give_tile(d, 0, "Levant")
    set_hand(d, 0, [2, 5, 9])
    put_camel(d, "Levant", goods_space(2))
    put_camel(d, "Egypt", goods_space(2))
    put_camel(d, "Egypt", goods_space(5))
    d["goods_markers"][0], d["relation_markers"][0], d["money"][0] = 2, 3, 7
    state = build(d)
    assert state.score_breakdown(0) == {
        "goods_cards": 4 + 1 + 1 + 0,
        "goods_markers": 2,
        "relation_markers": 3,
        "money": 7,
        "total": 6 + 2 + 3 + 7,
    }
    assert samarkand.goods_card_points(state, 0, 2) == 5 and samarkand.goods_card_points(state, 0, 9) == 0


def test_sk_e2_tied_players_all_win():
    d = fresh(players=3)
    d["money"] = [0, 0, 0]
    for seat in range(3):
        set_hand(d, seat, [])
    state = build(d)
    for _ in range(3):
        state.apply(state.current, "pass")
    assert state.winners() == [0, 1, 2]


# --- two players ------------------------------------------------------------------------------------


def test_sk_2p1_two_players_one_tile_per_domain_the_rest_in_the_bag():
    view = GAME.new_game(players=2, seed=0).view(None)
    assert all(f["domain_tiles"] == 1 for f in view["families"]) and view["bag_size"] == 10
    assert view["hand_limit"] == 10


def test_sk_2p2_a_player_may_marry_a_family_again_but_is_paid_the_base_amount():
    d = fresh(players=2)
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["bag"].remove(FAMILY["Levant"])
    d["domain_tiles"][FAMILY["Levant"]] += 1
    state = build(d)
    assert "marry levant" in legal(state)
    d["bag"].remove(FAMILY["Byzantium"])
    d["domain_tiles"][FAMILY["Byzantium"]] += 1
    d["tiles_held"][0][FAMILY["Levant"]] = 2
    d["domain_tiles"][FAMILY["Levant"]] = 0
    give_tile(d, 0, "Byzantium")
    meet = land_next_to(start_of("Levant"))
    put_camel(d, "Byzantium", meet)
    state = build(d)
    state.apply(0, f"expand levant {sid(meet)}")
    assert state.money[0] == 10 + 3 + 1  # 3 once for Levant (both tiles), 1 for Byzantium
    give = state.to_dict()
    set_hand(give, 0, [7])
    put_camel(give, "Levant", goods_space(7))
    assert build(give).score_breakdown(0)["goods_cards"] == 4


def test_sk_2p3_after_a_marriage_a_tile_leaves_the_bag():
    outcomes = set()
    for seed in range(20):
        d = fresh(players=2, seed=seed)
        turn_to(d, 0)
        state = build(d)
        state.apply(0, "marry egypt")
        state.apply(0, "done")
        view = state.view(None)
        assert view["bag_size"] == 9
        drawn = next(e for e in view["log"] if e["type"] in ("tile_removed", "tile_returned"))
        family = FAMILY[drawn["family"]]
        if drawn["type"] == "tile_returned":
            assert drawn["family"] == "Egypt" and view["families"][family]["domain_tiles"] == 1
        else:
            assert drawn["family"] != "Egypt" and view["removed_tiles"] == [drawn["family"]]
        outcomes.add(drawn["type"])
    assert outcomes == {"tile_removed", "tile_returned"}


# --- worked examples --------------------------------------------------------------------------------


def test_sk_x1_five_cards_at_limit_seven_draw_three_and_must_discard_one():
    d = fresh(players=4)
    turn_to(d, 0)
    set_hand(d, 0, [1, 2, 3, 4, 5])
    state = build(d)
    state.apply(0, "marry egypt")
    assert len(state.hands[0]) == 8 and "done" not in legal(state)
    state.apply(0, "discard 1")
    assert "done" in legal(state)
    state.apply(0, "discard 2")  # two discards: 6 cards, under the limit
    assert len(state.hands[0]) == 6
    d = state.to_dict()
    d["current"] = 0
    state = build(d)
    state.apply(0, "marry levant")
    assert len(state.hands[0]) == 9  # below the limit, so the next marriage draws again


def test_sk_x2_barbara_pays_a_dirham_for_two_camels_one_on_land_one_on_water():
    d = fresh()
    turn_to(d, 1)
    give_tile(d, 1, "Levant")
    d["treasury"][FAMILY["Levant"]] = 4
    water, land = water_with_land_neighbour()
    put_camel(d, "Levant", land)
    state = build(d)
    beside = land_next_to(start_of("Levant"))
    state.apply(1, f"expand levant {sid(beside)}")
    state.apply(1, f"camel {sid(water)}")
    assert state.treasury[FAMILY["Levant"]] == 3 and FAMILY["Levant"] in state.view(None)["camels"][water]


def test_sk_x3_alberto_meets_the_red_camels_first():
    d = fresh()
    alberto, julia = 0, 2
    turn_to(d, alberto)
    give_tile(d, alberto, "Byzantium")
    give_tile(d, julia, "Levant")
    meet = land_next_to(start_of("Byzantium"))
    put_camel(d, "Levant", meet)
    state = build(d)
    state.apply(alberto, f"expand byzantium {sid(meet)}")
    assert state.money[alberto] == 13 and state.money[julia] == 11
    assert state.relation_markers[alberto] == 2
    assert state.stack[FAMILY["Byzantium"]] == 4 and state.stack[FAMILY["Levant"]] == 4


def test_sk_x4_barbara_linen_red_and_yellow_camels_is_five_points():
    d = fresh()
    barbara = 1
    give_tile(d, barbara, "Levant")
    linen = MAP.goods.index("linen") + 1
    give_card(d, barbara, linen)
    put_camel(d, "Levant", goods_space(linen))
    put_camel(d, "Sogdiana", goods_space(linen))  # yellow
    assert samarkand.goods_card_points(build(d), barbara, linen) == 5


# --- information ------------------------------------------------------------------------------------


def test_sk_i1_hands_are_hidden_their_sizes_public():
    state = GAME.new_game(players=3, seed=4)
    spectators, mine = state.view(None), state.view(1)
    assert spectators["hand"] is None and all(s["hand"] is None for s in spectators["seats"])
    assert [c["good"] for c in mine["hand"]] == list(state.hands[1])
    assert mine["seats"][0]["hand"] is None and mine["seats"][0]["hand_size"] == 2


def test_sk_i1_a_sampled_world_keeps_what_the_seat_knows_and_redeals_the_rest():
    d = fresh(players=3, seed=2)
    turn_to(d, 0)
    state = build(d)
    state.apply(0, "marry egypt")
    mine = state.hands[0][:2]
    state.apply(0, f"discard {mine[0]}")
    state.apply(0, f"discard {mine[1]}")
    worlds = [state.sample_hidden(0, random.Random(i)) for i in range(40)]
    for world in worlds:
        assert world.view(0) == state.view(0)
        assert sorted(world.discards) == sorted(mine)  # its own discards, still in the pile
    assert len({tuple(w.hands[1]) for w in worlds}) > 5  # the other hands are redealt
    assert any(w.deck != state.deck for w in worlds)


def test_sk_i1_final_hands_are_shown_to_everyone():
    d = fresh(players=3)
    d["money"] = [0, 0, 0]
    state = build(d)
    for _ in range(3):
        state.apply(state.current, "pass")
    view = state.view(None)
    assert [[c["good"] for c in s["hand"]] for s in view["seats"]] == [list(hand) for hand in state.hands]
    assert view["breakdown"][0]["total"] == view["scores"][0]


# --- notation and records ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("marry atlantis", "no family"),
        ("expand levant c99r1", "no space"),
        ("sell 34", "1..33"),
        ("fly", "not a Samarkand move"),
    ],
)
def test_bad_notation_is_refused_with_the_reason(text, reason):
    state = GAME.new_game(players=3, seed=0)
    with pytest.raises(merchantry.IllegalAction, match=reason):
        state.apply(state.current, text)


def test_a_broken_state_is_refused_with_a_clear_reason():
    d = fresh()
    d["hands"][0].append(d["deck"].pop(0))
    d["hands"][1].append(d["hands"][0][-1])
    with pytest.raises(merchantry.InvalidRecord, match="33 goods cards"):
        build(d)
    d = fresh()
    d["camels_left"][0] = 12
    with pytest.raises(merchantry.InvalidRecord, match="camels do not add up"):
        build(d)


# each language's words for "meet for the first time", "3 dirhams" and "1 dirham" (one player paid each: no
# "each", which is for several): a first meeting is said in plain words, never as "P1 +3, P2 +1"
PLAIN_MEETING = {
    "en": ("meet for the first time", "3 dirhams", "1 dirham"),
    "de": ("begegnen sich zum ersten Mal", "3 Dirham", "1 Dirham"),
    "fr": ("se rencontrent pour la première fois", "3 dirhams", "1 dirham"),
    "pt": ("encontram-se pela primeira vez", "3 dirhams", "1 dirham"),
}


def meeting_line(state, language):
    return next(line for line in log_lines(state.view(None), language) if PLAIN_MEETING[language][0] in line)


@pytest.mark.parametrize("language", ["en", "de", "fr", "pt"])
def test_sk_r2_a_first_meeting_reads_in_plain_words(language):
    state, meet = _meeting()
    state.apply(0, f"expand byzantium {sid(meet)}")
    line = meeting_line(state, language)
    met, active, passive = PLAIN_MEETING[language]
    assert active in line and passive in line, line
    assert "+3" not in line and "+1" not in line, line  # no shorthand a newcomer must decode
    # who is paid what, each after the family they married into: P1 into Byzantium, P2 into Levant
    assert line.index("P1") < line.index(active) < line.index("P2") < line.index(passive), line
    assert "2" in line.split(passive, 1)[1], line  # and the markers taken


@pytest.mark.parametrize("language", ["en", "de", "fr", "pt"])
def test_sk_r2_a_first_meeting_with_a_family_nobody_married_names_nobody_for_its_bonus(language):
    state, meet = _meeting(levant_held=False)
    state.apply(0, f"expand byzantium {sid(meet)}")
    line = meeting_line(state, language)
    met, active, passive = PLAIN_MEETING[language]
    assert active in line and passive not in line, line  # nobody holds Levant: nobody is paid its dirham
    assert "Levant" in line.split(active, 1)[1], line  # the sentence says who was not paid
    assert ", ;" not in line and ",  " not in line and ": ," not in line, line


def test_sk_c3_thirty_three_goods_cards_and_markers():
    state = GAME.new_game(players=4, seed=8)
    view = state.view(None)
    cards = sum(s["hand_size"] for s in view["seats"]) + view["deck_size"] + view["discard_size"]
    assert cards == 33
    assert sorted([g for hand in state.hands for g in hand] + list(state.deck)) == list(range(1, 34))
    goods_spaces = [s for s in MAP.spaces if s.kind == "goods"]
    assert sorted(s.good for s in goods_spaces) == list(range(1, 34))  # one marker on each


def test_sk_c4_the_supply_never_runs_out():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Byzantium")
    d["money"] = [1000, 1000, 1000, 1000]  # whatever is in play, the bank still pays
    meet = land_next_to(start_of("Byzantium"))
    put_camel(d, "Levant", meet)
    state = build(d)
    state.apply(0, f"expand byzantium {sid(meet)}")
    assert state.money[0] == 1003


# --- found by mutation testing (docs/testing.md) ------------------------------------------------------


def test_sk_t3_no_second_camel_when_the_family_has_none_left():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["treasury"][FAMILY["Levant"]] = 3  # the treasury would pay for a second camel
    target = land_next_to(start_of("Levant"))
    elsewhere = [
        s.index for s in MAP.spaces if s.kind == "land" and not d["camels"][s.index] and s.index != target
    ]
    for index in elsewhere[:10]:  # only one camel is left on the domain
        put_camel(d, "Levant", index)
    assert d["camels_left"][FAMILY["Levant"]] == 1
    state = build(d)
    state.apply(0, f"expand levant {sid(target)}")
    assert state.view(None)["families"][FAMILY["Levant"]]["camels_left"] == 0
    assert state.phase == "act" and state.current == 1  # the turn is over: no `camel` step
    assert state.treasury[FAMILY["Levant"]] == 3
    d = state.to_dict()
    d["current"] = 0
    state = build(d)
    assert not any(m.startswith("expand levant") for m in legal(state))
    with pytest.raises(merchantry.IllegalAction, match=r"^Levant has no camels left \(SK-T3\)$"):
        state.apply(0, f"expand levant {sid(land_next_to(target))}")


def test_sk_e1_nine_families_met_of_ten_do_not_end_the_game():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Byzantium")
    give_tile(d, 1, "Levant")
    d["stack"] = [4] * 10  # every family has met another but Egypt
    d["stack"][FAMILY["Egypt"]] = 5
    meet = land_next_to(start_of("Byzantium"))
    put_camel(d, "Levant", meet)
    state = build(d)
    state.apply(0, f"expand byzantium {sid(meet)}")  # a new pair meets: 9 families have met, not 10
    assert state.view(None)["families"][FAMILY["Byzantium"]]["met"] == ["Levant"]
    assert not state.is_over() and state.current == 1
    assert state.view(None)["families"][FAMILY["Egypt"]]["markers_left"] == 5


def test_sk_t6_a_turn_that_is_not_a_pass_starts_the_count_of_passes_again():
    d = fresh(players=3)
    turn_to(d, 0)
    d["money"] = [10, 0, 0]  # seats 2 and 3 can do nothing but pass
    state = build(d)
    state.apply(0, "marry egypt")
    state.apply(0, "done")
    state.apply(1, "pass")
    state.apply(2, "pass")
    assert not state.is_over() and state.current == 0  # two passes in a row, not a whole round
    assert [e["seat"] for e in state.view(None)["log"] if e["type"] == "passed"] == [1, 2]


def test_sk_t6_a_finished_game_refuses_every_move():
    state = everyone_passes_once()
    assert state.is_over() and state.legal_actions(state.current) == []
    d = state.to_dict()
    d["money"] = [10, 10, 10]  # money would allow a marriage, but the game is over
    state = build(d)
    for seat in range(3):
        with pytest.raises(merchantry.IllegalAction, match="^the game is over$"):
            state.apply(seat, "marry egypt")


def test_sk_2p3_only_a_marriage_draws_a_tile_from_the_bag():
    d = fresh(players=2, seed=1)
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    state = build(d)
    state.apply(0, f"expand levant {sid(land_next_to(start_of('Levant')))}")  # the first turn: no marriage
    assert state.view(None)["bag_size"] == 10 and state.current == 1
    assert not any(e["type"] in ("tile_removed", "tile_returned") for e in state.view(None)["log"])


def test_sk_t4_a_camel_cannot_be_put_on_a_full_space_or_beside_its_own():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    full, own = land_next_to(start_of("Levant")), None
    put_camel(d, "Egypt", full)
    put_camel(d, "Arabia", full)
    own = land_next_to(start_of("Levant"), exclude=(full,))
    put_camel(d, "Levant", own)
    state = build(d)
    before = state.to_dict()
    for target in (full, own, start_of("Levant")):
        with pytest.raises(
            merchantry.IllegalAction, match=rf"^{sid(target)} is not next to a Levant camel, or is full"
        ):
            state.apply(0, f"expand levant {sid(target)}")
    assert state.to_dict() == before


def test_sk_t3_hand_made_actions_naming_no_real_family_or_space_are_refused():
    from merchantry.games.samarkand.actions import SamarkandAction

    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Persia")  # index -2 in Python's reckoning
    india = FAMILY["India"]
    give_tile(d, 0, "India")
    assert (
        MAP.families[india].start in MAP.spaces[len(MAP.spaces) - 2].adjacent
    )  # space -2 is India's neighbour
    state = build(d)
    before = state.to_dict()
    for action in (
        SamarkandAction("expand", family=-2, space=land_next_to(start_of("Persia"))),
        SamarkandAction("expand", family=india, space=-2),
    ):
        with pytest.raises(merchantry.IllegalAction):
            state.apply(0, action)
    assert state.to_dict() == before


def test_sk_t2_refusals_while_discarding_say_what_to_do():
    d = fresh(players=4)
    turn_to(d, 0)
    set_hand(d, 0, [1, 2, 3, 4, 5])
    state = build(d)
    state.apply(0, "marry egypt")  # 8 cards, limit 7
    name = MAP.goods[30 - 1]
    assert 30 not in state.hands[0]
    cases = [
        ("discard 30", rf"^you hold no {name} card \(30\)$"),
        ("done", r"^your hand is over the limit of 7: discard first \(SK-T2\)$"),
        ("marry levant", r"^you married and drew: discard up to 2 cards, then 'done' \(SK-T2\)$"),
        ("pass", r"^you married and drew: discard up to 2 cards, then 'done' \(SK-T2\)$"),
    ]
    before = state.to_dict()
    for move, reason in cases:
        with pytest.raises(merchantry.IllegalAction, match=reason):
            state.apply(0, move)
    with pytest.raises(merchantry.IllegalAction, match=r"^it is P1's turn, not P2's$"):
        state.apply(1, "marry levant")
    assert state.to_dict() == before


def test_sk_t3_refusals_before_the_second_camel_say_what_to_do():
    d = fresh()
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["treasury"][FAMILY["Levant"]] = 4
    state = build(d)
    state.apply(0, f"expand levant {sid(land_next_to(start_of('Levant')))}")
    assert state.phase == "second"
    far = next(s.index for s in MAP.spaces if not state.may_place(FAMILY["Levant"], s.index))
    cases = [
        (f"camel {sid(far)}", rf"^{sid(far)} is not next to a Levant camel, or is full \(SK-T3, SK-T4\)$"),
        (
            "marry egypt",
            r"^place a second camel \('camel <space>', 1 dirham from the treasury\) or 'done' \(SK-T3\)$",
        ),
    ]
    before = state.to_dict()
    for move, reason in cases:
        with pytest.raises(merchantry.IllegalAction, match=reason):
            state.apply(0, move)
    assert state.to_dict() == before


def test_sk_t1_refusals_of_a_turn_say_why():
    d = fresh(players=3)
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    state = build(d)
    cases = [
        ("marry levant", r"^you already hold a Levant tile \(SK-T1\)$"),
        ("done", r"^choose an action: marry into a family, or expand a family whose tile you hold$"),
        ("pass", r"^you may only pass when you can neither marry nor expand \(SK-T6\)$"),
    ]
    far = next(s.index for s in MAP.spaces if s.index not in MAP.spaces[start_of("Levant")].adjacent)
    cases.append((f"expand levant {sid(far)}", rf"^{sid(far)} is not next to a Levant camel, or is full"))
    for move, reason in cases:
        with pytest.raises(merchantry.IllegalAction, match=reason):
            state.apply(0, move)
    d = fresh(players=2)  # two players may marry a family again (SK-2P2): only the cost stands in the way
    turn_to(d, 0)
    give_tile(d, 0, "Levant")
    d["bag"].remove(FAMILY["Levant"])
    d["domain_tiles"][FAMILY["Levant"]] += 1
    d["money"][0] = 3
    with pytest.raises(
        merchantry.IllegalAction, match=r"^marrying into Levant costs 4 and you have 3 \(SK-T1\)$"
    ):
        build(d).apply(0, "marry levant")


def test_sk_g1_refusals_during_an_offer_say_why():
    state = _goods_setup(holder=2)
    state.apply(0, f"expand levant {sid(goods_space(12))}")
    name = MAP.goods[11]
    with pytest.raises(
        merchantry.IllegalAction,
        match=rf"^answer the offer for {name} \(12\): 'sell 12' if you hold it, or 'keep'$",
    ):
        state.apply(1, "marry egypt")
    state.apply(1, "keep")
    for move in ("keep", "sell 12"):
        with pytest.raises(
            merchantry.IllegalAction,
            match=rf"^you have answered the offer for {name} \(12\); waiting for the others$",
        ):
            state.apply(1, move)
    assert state.to_act() == [0, 2, 3]


def test_sk_i1_the_log_numbers_turns_and_rounds_and_keeps_private_events_private():
    d = fresh(players=3)
    turn_to(d, 0)
    set_hand(d, 0, [1, 2])
    d["deck"] = [g for g in d["deck"] if g not in (3, 4, 5)] + [5, 4, 3]  # 3 is on top
    state = build(d)
    state.apply(0, "marry egypt")  # draws 3, 4, 5
    state.apply(0, "discard 4")
    state.apply(0, "done")
    state.apply(1, "marry levant")
    state.apply(1, "done")
    state.apply(2, "marry china")
    state.apply(2, "done")
    state.apply(0, "marry byzantium")
    own = state.view(0)["log"]
    drew = [e for e in own if e["type"] == "you_married"]  # one line: the marriage and the cards drawn
    assert {k: drew[0][k] for k in ("turn", "seat", "cards", "audience")} == {
        "turn": 1,
        "seat": 0,
        "cards": [MAP.goods[g - 1] for g in (3, 4, 5)],  # the top of the deck first
        "audience": [0],
    }
    mine = next(e for e in own if e["type"] == "you_discarded")
    assert (mine["seat"], mine["good_name"], mine["turn"]) == (0, MAP.goods[3], 1)
    public = state.view(None)["log"]
    assert not any(e["type"] in ("you_married", "you_discarded") or "cards" in e for e in public)
    assert all(
        e["type"] not in ("you_married", "you_discarded") or e["seat"] == 1 for e in state.view(1)["log"]
    )
    summary = [(e["type"], e["turn"], e.get("new_round")) for e in public]
    assert summary[:3] == [("married", 1, 1), ("discarded", 1, None), ("married", 2, None)]
    assert ("married", 4, 2) in summary  # the first event of the second round opens it
    assert all(type(e.get("new_round", 0)) is int for e in public)  # round numbers, as JSON shows them
    assert [e["turn"] for e in own if e["type"] in ("married", "you_married")] == [1, 2, 3, 4]
    assert [(e["type"], e.get("new_round")) for e in own if e["turn"] == 1] == [
        ("you_married", 1),  # "P1 marries into Egypt ... and draws tea, myrrh and olives", not two lines
        ("you_discarded", None),  # one line for one's own discard: the others read it face down
    ]


def test_sk_i1_a_discard_is_one_line_naming_the_card_to_its_seat_and_face_down_to_everyone_else():
    d = fresh(players=3)
    turn_to(d, 0)
    set_hand(d, 0, [1, 2])
    d["deck"] = [g for g in d["deck"] if g not in (3, 4, 5)] + [5, 4, 3]  # draws 3, 4, 5
    state = build(d)
    state.apply(0, "marry egypt")
    state.apply(0, "discard 4")
    state.apply(0, "discard 5")
    card, other_card = MAP.goods[3], MAP.goods[4]

    def discard_lines(viewer: int | None) -> list[str]:
        return [line for line in log_lines(state.view(viewer)) if " discards " in line]

    assert discard_lines(0) == [f"P1 discards {card}", f"P1 discards {other_card}"]
    for viewer in (1, 2, None):
        lines = log_lines(state.view(viewer))
        assert discard_lines(viewer) == ["P1 discards a card face down"] * 2
        assert not any(card in line or other_card in line for line in lines)
    # one event per discard, in the full log as in every view (the others read the face it carries)
    assert [e["type"] for e in state.to_dict()["log"]].count("you_discarded") == 2
    assert "discarded" not in [e["type"] for e in state.to_dict()["log"]]
    again = build(state.to_dict())  # a record's log keeps both faces
    assert all(again.view(p)["log"] == state.view(p)["log"] for p in (0, 1, None))


def test_sk_i1_who_has_answered_a_sale_offer_is_seen_only_by_that_seat():
    state = _goods_setup(holder=2)
    assert state.view(1)["to_act"] == [0]  # outside an offer, the view's to_act is the state's
    state.apply(0, f"expand levant {sid(goods_space(12))}")
    state.apply(1, "keep")
    assert state.to_act() == [0, 2, 3]
    mine, other, spectator = state.view(1), state.view(2), state.view(None)
    assert mine["to_act"] == [0, 2, 3] and mine["offer"]["answered"] is True
    assert other["to_act"] == [0, 1, 2, 3] and other["offer"]["answered"] is False
    assert spectator["to_act"] == [0, 1, 2, 3] and spectator["offer"]["answered"] is False


# --- space names, goods by name, the terminal -------------------------------------------------------


def test_spaces_are_named_by_column_letter_and_row_number_read_off_the_map():
    assert sid(space("D5")) == "D5" and MAP.spaces[space("D5")].x == 3  # column D is the 4th from the west
    assert {s.id for s in MAP.spaces if s.kind == "start"} >= {"A1", "A7", "K1", "K7"}  # the four corners
    for s in MAP.spaces:
        move = samarkand.actions.CAMEL[s.index]
        assert str(move) == f"camel {s.id}"
        assert samarkand.actions.parse(str(move)) == move  # written and read back
        assert samarkand.actions.parse(f"camel {s.id.lower()}") == move


def test_records_written_with_the_former_space_names_still_load():
    session = merchantry.records.Session("samarkand", 2, seed=5)
    rng = random.Random(5)
    greedy = merchantry.bots.get("greedy", "samarkand")
    while session.state.view(None)["turns_played"] < 12:
        seat = session.state.to_act()[0]
        session.apply(seat, merchantry.bots.play_turn(session.state, seat, greedy, rng))
    record = session.record()
    former = {s.id: s.aliases[0] for s in MAP.spaces}
    old_moves = [
        [seat, " ".join(former.get(word, word) for word in text.split())] for seat, text in record["moves"]
    ]
    assert any("c" in text and "r" in text.split()[-1] for _, text in old_moves if text.startswith("expand"))
    replayed = merchantry.records.replay({**record, "moves": old_moves})
    assert replayed.to_dict() == session.state.to_dict()


def test_the_log_names_spaces_as_the_map_does():
    state = GAME.new_game(players=2, seed=5)
    for text in ["marry khwarezm", "discard 32", "discard 13", "marry byzantium", "discard 2", "discard 8"]:
        state.apply(state.current, text)
    state.apply(state.current, "marry levant")
    state.apply(state.current, "done")
    state.apply(state.current, "marry egypt")
    state.apply(state.current, "done")
    state.apply(state.current, "expand khwarezm E1")
    lines = log_lines(state.view(0))
    assert any(line.endswith("camel of Khwarezm on E1") for line in lines)


@pytest.mark.parametrize(
    ("verb", "word", "good"), [("discard", "cinnamon", 9), ("discard", "Salt", 11), ("sell", "silk", 1)]
)
def test_a_good_is_named_by_its_number_or_its_name_as_help_says(verb, word, good):
    by_name = samarkand.actions.parse(f"{verb} {word}")
    assert by_name == samarkand.actions.parse(f"{verb} {good}") and str(by_name) == f"{verb} {good}"
    assert MAP.goods[good - 1] == word.lower()


def test_every_move_the_terminal_help_shows_is_one_the_parser_reads():
    import re

    from merchantry.games.samarkand.terminal import HELP

    shown = re.findall(r"'([a-z][a-z0-9<> ]*)'", HELP)
    shown = re.findall(r"(?<![A-Za-z])'([a-z][a-z0-9<> ]*)'", HELP)
    filled = {"<family>": "levant", "<good>": "cinnamon", "<space>": "D5"}
    for text in shown:
        move = " ".join(filled.get(word, word) for word in text.split())
        samarkand.actions.parse(move)  # raises IllegalAction for a move help shows but the parser refuses


def test_an_unknown_good_is_refused_saying_what_a_good_is():
    with pytest.raises(merchantry.IllegalAction, match="a good is its number 1..33 or its name"):
        samarkand.actions.parse("discard unicorns")


def test_the_terminal_map_fits_80_columns_and_every_space_can_be_found_by_its_name():
    """At 80 columns the odd columns' row numbers wrapped onto lines of their own (the map was 81-83 wide):
    drawn wider than it is, no line of it is over 80, nor could be with every space's cell full."""
    from rich.console import Console

    from merchantry.games.samarkand.terminal import CELL, MARGIN, map_text

    view = GAME.new_game(players=3, seed=1).view(0)
    console = Console(width=120, record=True, color_system=None)
    console.print(map_text(view))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert MARGIN + (1 + max(int(s.x) for s in MAP.spaces)) * CELL <= 80  # the widest a cell may be
    header = lines[0]
    for s in MAP.spaces:
        column, row = int(s.x), int(s.y)
        x = MARGIN + column * CELL
        letters = s.id.rstrip("0123456789")
        assert header[x : x + len(letters)] == letters  # its column's letter above it
        line = lines[1 + 2 * row + column % 2]
        number = line.split()[0] if column % 2 == 0 else line.split()[-1]
        assert number == str(row + 1), s.id  # its row's number at the left (even) or right (odd column)
        assert line[x : x + CELL].strip()  # and something drawn in its place


def test_the_terminal_worth_is_the_score_if_the_game_ended_now_and_hides_other_hands():
    from merchantry.games.samarkand.terminal import worth

    session = merchantry.records.Session("samarkand", 3, seed=2)
    rng = random.Random(2)
    greedy = merchantry.bots.get("greedy", "samarkand")
    state = session.state
    while not state.is_over():
        view = state.view(0)
        for row in view["seats"]:
            if row["seat"] == 0:
                assert worth(row) == str(state.score_breakdown(0)["total"])
            else:
                hidden = state.score_breakdown(row["seat"])
                public = hidden["goods_markers"] + hidden["relation_markers"] + hidden["money"]
                assert worth(row).startswith(str(public)) and ("hidden" in worth(row)) == bool(
                    row["hand_size"]
                )
        seat = state.to_act()[0]
        session.apply(seat, merchantry.bots.play_turn(state, seat, greedy, rng))
    final = state.view(0)
    assert [worth(row) for row in final["seats"]] == [f"{score:g}" for score in state.scores()]


def test_sk_t1_a_hand_made_marriage_that_also_names_a_space_is_refused_as_it_is_never_offered():
    from merchantry.games.samarkand.actions import SamarkandAction

    state = merchantry.games.get("samarkand").new_game(players=3, seed=5)
    seat = state.to_act()[0]
    marriage = next(a for a in state.legal_actions(seat) if a.verb == "marry")
    odd = SamarkandAction("marry", family=marriage.family, space=0)
    before = state.to_dict()
    assert odd not in state.legal_actions(seat) and not state._is_legal(seat, odd)
    with pytest.raises(merchantry.IllegalAction):
        state.apply(seat, odd)
    assert state.to_dict() == before
    state.apply(seat, marriage)  # the marriage as offered stays legal


# each language's word for the sale offer, as the offer's panel names it
OFFER_WORD = {"en": "offer", "de": "angebot", "fr": "offre", "pt": "oferta"}


@pytest.mark.parametrize("language", ["en", "de", "fr", "pt"])
def test_sk_g1_a_hinted_answer_to_a_sale_offer_says_it_answers_the_offer(language):
    """The hint (and the analysis) say an answer in words: "sell card 9" alone did not say that it answered
    the sale offer, nor what a sale brings; "keep the card" did not say that it refused it."""
    from merchantry.i18n import Translator

    words = Translator("samarkand", language)
    sell, keep = words.move("sell 9"), words.move("keep")
    assert OFFER_WORD[language] in sell.lower() and "9" in sell and "3" in sell, sell
    assert OFFER_WORD[language] in keep.lower(), keep
