"""Samarkand: Routes to Riches (Peters & Wu), 2-5 players: in progress (issue 10).

So far: the project's own map as data (`data/map.json`, made by `map_generator.py`), loaded and checked by
`components.py`. The rules, bots and drawings follow; the game is not registered until they exist.
"""
