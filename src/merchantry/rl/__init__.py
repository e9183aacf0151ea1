"""The games for reinforcement learning: PettingZoo (`merchantry.rl.pettingzoo`), Gymnasium
(`merchantry.rl.gymnasium`). Observations come from `view(seat)` only, through each game's encoding (its
folder's `encoding.py`); the adapters here name no game. Needs the optional extra `merchantry[rl]`."""
