"""Samarkand's map (SK-C1, SK-C2, SK-C3, SK-C5): the project's own board as data, checked on load."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from merchantry.games.samarkand import map_generator
from merchantry.games.samarkand.components import DIAMOND, MAP, MapError, load_map

SHIPPED = resources.files("merchantry.games.samarkand").joinpath("data", "map.json").read_text()


def test_sk_c1_spaces_of_four_kinds_with_33_goods_and_10_starts():
    kinds = [space.kind for space in MAP.spaces]
    assert kinds.count("start") == 10 and kinds.count("goods") == 33
    assert 0 < kinds.count("water") < kinds.count("land")  # a handful of water, many plain land spaces
    assert sorted(s.good for s in MAP.spaces if s.good) == list(range(1, 34))


def test_sk_c2_ten_families_five_domains_on_each_edge():
    assert len(MAP.families) == 10
    assert sorted(f.edge for f in MAP.families) == ["bottom"] * 5 + ["top"] * 5
    for family in MAP.families:
        start = MAP.spaces[family.start]
        assert start.kind == "start" and start.family == family.index
        top, bottom = min(s.y for s in MAP.spaces), max(s.y for s in MAP.spaces)
        edge_y = top if family.edge == "top" else bottom
        assert abs(start.y - edge_y) <= 0.5, f"{family.name}'s city lies by its domain"


def test_sk_c5_the_map_is_labelled_as_the_projects_own_and_good_22_is_diamond():
    assert "not the printed board" in MAP.title
    assert MAP.goods[DIAMOND - 1] == "diamond"
    names = {f.name for f in MAP.families}
    assert {"Levant", "Byzantium", "Arabia", "Persia"} <= names  # the regions the rulebook names
    assert next(f for f in MAP.families if f.name == "Levant").colour == "red"


def test_sk_c5_cities_spread_west_to_east_and_central_families_cost_more():
    for edge in ("top", "bottom"):
        row = sorted((f for f in MAP.families if f.edge == edge), key=lambda f: MAP.spaces[f.start].x)
        assert [row[0].name, row[-1].name] in (["Byzantium", "China"], ["Egypt", "India"])
        costs = [f.cost for f in row]
        assert all(3 <= c <= 6 for c in costs)
        assert max(costs[1:-1]) > max(costs[0], costs[-1]), "the middle is dearer than the ends"


def test_sk_c5_the_shipped_map_is_what_its_generator_makes():
    assert json.loads(SHIPPED) == json.loads(json.dumps(map_generator.build()))


def broken(change) -> str:
    data = json.loads(SHIPPED)
    change(data)
    return json.dumps(data)


def drop_good(data):
    space = next(s for s in data["spaces"] if s.get("good") == 7)
    space["kind"], space["good"] = "land", None


def duplicate_good(data):
    space = next(s for s in data["spaces"] if s.get("good") == 7)
    space["good"] = 8


def one_way(data):
    data["spaces"][20]["adjacent"].pop()


def cut_off(data):
    lonely = data["spaces"][40]
    for other in data["spaces"]:
        if lonely["id"] in other["adjacent"]:
            other["adjacent"].remove(lonely["id"])
    lonely["adjacent"] = []


def nine_families(data):
    gone = data["families"].pop()
    city = next(s for s in data["spaces"] if s.get("family") == gone["name"])
    city["kind"] = "land"
    del city["family"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (drop_good, "goods 1..33, each exactly once"),
        (duplicate_good, "goods 1..33, each exactly once"),
        (one_way, "but not the other way round"),
        (cut_off, "not connected"),
        (nine_families, "10 families"),
        (lambda d: d["families"][0].update(cost=9), "3 to 6 dirhams"),
        (lambda d: d["families"][0].update(edge="bottom"), "five family domains"),
        (lambda d: d["spaces"][0].update(kind="swamp"), "kind must be one of"),
        (lambda d: d["spaces"][0]["adjacent"].append("nowhere"), "no space 'nowhere'"),
        (lambda d: d.pop("spaces"), "not a Samarkand map"),
    ],
)
def test_a_broken_map_file_is_refused_with_a_clear_reason(change, reason):
    with pytest.raises(MapError, match=reason):
        load_map(broken(change))
    with pytest.raises(MapError, match="not a Samarkand map"):
        load_map("{not json")


# --- found by mutation testing (docs/testing.md) ------------------------------------------------------


def test_sk_c5_a_map_is_read_from_text_from_the_file_a_variable_names_or_the_shipped_file(
    tmp_path, monkeypatch
):
    from merchantry.games.samarkand.components import MAP_VARIABLE

    monkeypatch.delenv(MAP_VARIABLE, raising=False)
    assert load_map() == MAP and load_map(SHIPPED) == MAP  # every field as the shipped map has it
    assert MAP.goods_space[DIAMOND - 1] == next(s.index for s in MAP.spaces if s.good == DIAMOND)
    other = tmp_path / "other.json"
    other.write_text(broken(lambda d: d.update(title="a transcription")), encoding="utf-8")
    monkeypatch.setenv(MAP_VARIABLE, str(other))
    assert load_map().title == "a transcription"
    assert load_map(SHIPPED) == MAP  # text given: the variable is not read
    monkeypatch.setenv(MAP_VARIABLE, str(tmp_path / "missing.json"))
    with pytest.raises(
        MapError, match=rf"^cannot read the map {tmp_path / 'missing.json'} named by {MAP_VARIABLE}: "
    ):
        load_map()
    with pytest.raises(MapError, match="^not a Samarkand map: JSONDecodeError "):
        load_map("{not json")


def isolate_first_city(data):
    city = data["families"][0]["start"]
    for other in data["spaces"]:
        if city in other["adjacent"]:
            other["adjacent"].remove(city)
    next(s for s in data["spaces"] if s["id"] == city)["adjacent"] = []


def extra_start(data):
    next(s for s in data["spaces"] if s["kind"] == "land")["kind"] = "start"


def first_start_on_land(data):
    data["families"][0]["start"] = next(s["id"] for s in data["spaces"] if s["kind"] == "land")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d["spaces"][1].update(id=d["spaces"][0]["id"]), "two spaces share an id"),
        (
            lambda d: d["spaces"][0].update(kind="swamp"),
            "space {s0}: kind must be one of land, goods, water, start, not 'swamp'",
        ),
        (lambda d: d["spaces"][0].update(family="Nobody"), "space {s0}: no family 'Nobody'"),
        (
            lambda d: d["families"][0].update(edge="bottom"),
            "five family domains lie on the top edge and five on the bottom edge",
        ),
        (lambda d: d["families"][0].update(cost=7), "marriage costs are 3 to 6 dirhams"),
        (first_start_on_land, "{f0}'s start must be a start space marked with that family"),
        (extra_start, "a map has exactly 10 start spaces"),
        (
            lambda d: d["families"][0].update(start=d["families"][1]["start"]),
            "{f0}'s start must be a start space marked with that family",
        ),
        (
            lambda d: d["spaces"][0]["adjacent"].append(d["spaces"][0]["id"]),
            "space {s0} lists itself or a neighbour twice",
        ),
        (
            lambda d: d["spaces"][0]["adjacent"].append(d["spaces"][0]["adjacent"][0]),
            "space {s0} lists itself or a neighbour twice",
        ),
        (cut_off, "the map is not connected: {s40} cannot be reached from the start cities"),
        (isolate_first_city, "the map is not connected: {other} cannot be reached from the start cities"),
    ],
)
def test_sk_c5_a_broken_map_is_refused_with_exactly_what_is_wrong(change, reason):
    data = json.loads(SHIPPED)
    city = data["families"][0]["start"]
    names = {
        "s0": data["spaces"][0]["id"],
        "s40": data["spaces"][40]["id"],
        "f0": data["families"][0]["name"],
        "other": next(s["id"] for s in data["spaces"] if s["id"] != city),  # the first space cut off from it
    }
    with pytest.raises(MapError) as refused:
        load_map(broken(change))
    assert str(refused.value) == reason.format(**names)


def test_sk_c5_the_generator_prints_the_map_it_builds_at_any_size(capsys):
    map_generator.main([])
    assert capsys.readouterr().out == json.dumps(map_generator.build(), indent=1) + "\n"
    columns, rows = map_generator.COLUMNS, map_generator.ROWS + 1
    map_generator.main([str(columns), str(rows)])
    printed = capsys.readouterr().out
    assert printed == json.dumps(map_generator.build(columns, rows), indent=1) + "\n"
    board = load_map(printed)  # a tuning size is a valid map too, its neighbours within its own rows
    assert len(board.spaces) == columns * rows
    cities = [s for s in board.spaces if s.kind == "start"]
    assert not any(board.spaces[n].kind == "goods" for city in cities for n in city.adjacent)
