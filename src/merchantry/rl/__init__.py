"""The games for reinforcement learning: PettingZoo (`merchantry.rl.pettingzoo`), Gymnasium
(`merchantry.rl.gymnasium`). An observation is the seat's `view(seat)` as numbers, through each game's
encoding (its folder's `encoding.py`: `observe(view)` defines the numbers, its observer gets the same ones
from the state, faster); the adapters here name no game. Needs the optional extra `merchantry[rl]`."""
