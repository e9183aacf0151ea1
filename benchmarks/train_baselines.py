"""RL baselines to cite: sb3-contrib's MaskablePPO trained on one seat of each game through the Gymnasium
adapter, as it ships (no wrapper of ours), then judged against random, greedy and hard opponents.

    make baselines                                       # installs sb3-contrib and PyTorch (a few GB)
    .venv/bin/python benchmarks/train_baselines.py train grand_bazaar --timesteps 300000 --seed 1
    .venv/bin/python benchmarks/train_baselines.py evaluate grand_bazaar --opponents random --games 300
    .venv/bin/python benchmarks/train_baselines.py table          # the Markdown table of every result

`train` writes the policy to benchmarks/results/rl-baselines/<game>-seed<seed>.zip (sb3's format, without the
optimizer: a few hundred kB) and a JSON line of what it did; training is deterministic on one thread for a
given seed and timesteps, so the policy can be rebuilt instead of shipped. `evaluate` plays `--games` new
games (seeds 10^6 + i, the learner's seat rotated) with the policy choosing its most likely legal action,
and the same games with a uniformly random learner as the reference; it appends a JSON line per run to
benchmarks/results/rl-baselines/results.jsonl. The learner trains on the final margin over the best other
seat (`reward="margin"`) and is judged by its wins (a shared win counts).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import merchantry.rl.gymnasium as merchantry_gym
from merchantry.arena.statistics import wilson

OUT = Path(__file__).parent / "results" / "rl-baselines"
PLAYERS = 3


def make_env(game: str, seat: int, opponents: str, reward: str):
    def build() -> gymnasium.Env:
        return gymnasium.make(
            merchantry_gym.env_id(game), players=PLAYERS, seat=seat, opponents=opponents, reward=reward
        )

    return build


def policy_path(game: str, seed: int) -> Path:
    return OUT / f"{game}-seed{seed}.zip"


class WallClock(BaseCallback):  # type: ignore[misc]
    """Stops training after the first update past `minutes` of wall-clock time (the timesteps done are
    recorded, so `--timesteps` with that number rebuilds the same policy without a clock)."""

    def __init__(self, minutes: float | None):
        super().__init__()
        self.deadline = None if minutes is None else time.time() + 60 * minutes
        self.late = False

    def _on_rollout_end(self) -> None:
        self.late = self.deadline is not None and time.time() > self.deadline

    def _on_step(self) -> bool:
        return not self.late


def updates_done(model: MaskablePPO, envs: int, n_steps: int) -> int:
    """The timesteps of the rollouts that were learnt from (a stop by the clock takes one step more)."""
    per_rollout = envs * n_steps
    return int(model.num_timesteps) // per_rollout * per_rollout


def train(args: argparse.Namespace) -> None:
    torch.set_num_threads(1)
    OUT.mkdir(parents=True, exist_ok=True)
    # one environment per seat, so that the policy learns every seat
    envs = DummyVecEnv([make_env(args.game, seat, args.opponents, "margin") for seat in range(PLAYERS)])
    envs.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=args.n_steps,
        batch_size=256,
        n_epochs=5,
        learning_rate=3e-4,
        ent_coef=0.01,
        gamma=1.0,  # a game's reward is its end: no reason to prefer a short game
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.process_time()
    model.learn(total_timesteps=args.timesteps, callback=WallClock(args.minutes))
    seconds = time.process_time() - start
    model.save(policy_path(args.game, args.seed), exclude=["env", "replay_buffer"])
    record = {
        "kind": "train",
        "game": args.game,
        "players": PLAYERS,
        "seed": args.seed,
        "timesteps": updates_done(model, envs.num_envs, args.n_steps),
        "opponents": args.opponents,
        "cpu_seconds": round(seconds, 1),
        "policy_bytes": policy_path(args.game, args.seed).stat().st_size,
    }
    print(json.dumps(record))
    with (OUT / "results.jsonl").open("a") as out:
        out.write(json.dumps(record) + "\n")


def play(game: str, seat: int, opponents: str, seed: int, choose) -> bool:
    env = gymnasium.make(merchantry_gym.env_id(game), players=PLAYERS, seat=seat, opponents=opponents)
    observation, info = env.reset(seed=seed)
    reward, done = 0.0, False
    while not done:
        action = choose(observation, info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return reward > 0


def evaluate(args: argparse.Namespace) -> None:
    torch.set_num_threads(1)
    model = MaskablePPO.load(policy_path(args.game, args.seed), device="cpu")
    rng = np.random.default_rng(args.seed)

    def learned(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=not args.sample)
        return int(action)

    def uniform(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    start = time.time()
    wins = {"ppo": 0, "random": 0}
    for i in range(args.games):
        seed, seat = 10**6 + i, i % PLAYERS
        wins["ppo"] += play(args.game, seat, args.opponents, seed, learned)
        if not args.skip_reference:
            wins["random"] += play(args.game, seat, args.opponents, seed, uniform)
    record = {
        "kind": "evaluate",
        "game": args.game,
        "players": PLAYERS,
        "seed": args.seed,
        "opponents": args.opponents,
        "games": args.games,
        "policy": "sampled" if args.sample else "most likely",
        "ppo_wins": wins["ppo"],
        "ppo_interval": [round(x, 4) for x in wilson(wins["ppo"], args.games)],
        "random_wins": None if args.skip_reference else wins["random"],
        "random_interval": None
        if args.skip_reference
        else [round(x, 4) for x in wilson(wins["random"], args.games)],
        "seconds": round(time.time() - start, 1),
    }
    print(json.dumps(record))
    with (OUT / "results.jsonl").open("a") as out:
        out.write(json.dumps(record) + "\n")


def table(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in (OUT / "results.jsonl").read_text().splitlines() if line]
    trained = {(r["game"], r["seed"]): r for r in rows if r["kind"] == "train"}
    latest = {
        (r["game"], r["seed"], r["opponents"], r.get("policy", "most likely")): r
        for r in rows
        if r["kind"] == "evaluate"
    }
    header = (
        "game | trained (steps, CPU min) | opponents | PPO acts | games | PPO wins | 95% interval | random"
    )
    print(f"| {header} |")
    print("|---|---|---|---|---|---|---|---|")
    strength = ["random", "greedy", "medium", "hard"]

    def order(key: tuple[str, int, str, str]) -> tuple[str, int, str, int]:
        game, seed, opponents, policy = key
        return game, seed, policy, strength.index(opponents) if opponents in strength else len(strength)

    for (game, seed, opponents, _), r in sorted(latest.items(), key=lambda item: order(item[0])):
        t = trained.get((game, seed))
        how = f"{t['timesteps']:,}, {t['cpu_seconds'] / 60:.1f}" if t else "?"
        low, high = r["ppo_interval"]
        reference = "–"
        if r["random_wins"] is not None:
            low_r, high_r = r["random_interval"]
            reference = f"{r['random_wins'] / r['games']:.1%} ({low_r:.1%}–{high_r:.1%})"
        print(
            f"| {game} | {how} | {PLAYERS - 1} × {opponents} | {r.get('policy', 'most likely')} | "
            f"{r['games']} | "
            f"{r['ppo_wins'] / r['games']:.1%} | {low:.1%}–{high:.1%} | {reference} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    learn = commands.add_parser("train")
    learn.add_argument("game")
    learn.add_argument("--timesteps", type=int, default=200_000)
    learn.add_argument("--seed", type=int, default=1)
    learn.add_argument("--opponents", default="random")
    learn.add_argument("--n-steps", type=int, default=512, help="steps per environment per update")
    learn.add_argument("--minutes", type=float, help="stop after the first update past this wall time")
    judge = commands.add_parser("evaluate")
    judge.add_argument("game")
    judge.add_argument("--seed", type=int, default=1)
    judge.add_argument("--opponents", default="random")
    judge.add_argument("--games", type=int, default=300)
    judge.add_argument("--skip-reference", action="store_true", help="do not play the random learner too")
    judge.add_argument("--sample", action="store_true", help="sample the policy's actions (not its best)")
    commands.add_parser("table")
    args = parser.parse_args()
    {"train": train, "evaluate": evaluate, "table": table}[args.command](args)


if __name__ == "__main__":
    main()
