"""Train a small agent on one game, on the CPU, in a few minutes: a linear softmax policy over the legal
actions (illegal ones masked out), learned by REINFORCE with a baseline (policy gradient), written here with
numpy alone. It plays one seat of Grand Bazaar through the Gymnasium adapter against `random` bots, and
learns from its final margin over the other seats (a denser signal than win or loss).

    .venv/bin/python examples/train_masked_policy.py [--minutes 3] [--plot docs/images/rl-learning-curve.png]

Every `--every` episodes the greedy policy (the most likely legal action) plays `--eval` evaluation games
on fresh seeds; the curve of its win rate, with the win rate of a random agent in the same seat as the
baseline, is written as a plot.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium
import numpy as np

import merchantry.rl.gymnasium as merchantry_gym
from merchantry.arena.statistics import wilson

GAME, PLAYERS = "grand_bazaar", 3


class LinearPolicy:
    """Logits = observation . W + b, masked to the legal actions; trained with Adam."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator, rate: float = 0.01):
        self.weights = np.zeros((features + 1, actions))
        self.rng, self.rate = rng, rate
        self.moment, self.velocity, self.steps = np.zeros_like(self.weights), np.zeros_like(self.weights), 0

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.append(observation, 1.0) @ self.weights
        logits = np.where(mask, logits, -np.inf)
        logits -= logits[mask].max()
        weights = np.exp(logits)
        return weights / weights.sum()

    def act(self, observation: np.ndarray, mask: np.ndarray, explore: bool) -> int:
        p = self.probabilities(observation, mask)
        return int(self.rng.choice(len(p), p=p)) if explore else int(np.argmax(p))

    def learn(self, episode: list[tuple[np.ndarray, np.ndarray, int]], advantage: float) -> None:
        """One REINFORCE step: raise the log-probability of the episode's actions by `advantage`."""
        gradient = np.zeros_like(self.weights)
        for observation, mask, action in episode:
            x = np.append(observation, 1.0)
            p = self.probabilities(observation, mask)
            p[action] -= 1.0  # d log p(action) / d logits = onehot - p, with the sign turned for descent
            gradient += np.outer(x, p) * advantage
        self.steps += 1
        self.moment = 0.9 * self.moment + 0.1 * gradient
        self.velocity = 0.999 * self.velocity + 0.001 * gradient**2
        corrected = self.moment / (1 - 0.9**self.steps)
        scale = np.sqrt(self.velocity / (1 - 0.999**self.steps)) + 1e-8
        self.weights -= self.rate * corrected / scale


def margin(env: gymnasium.Env) -> float:
    """The learner's final score against the others' mean, in units of 20 grands: a denser training signal
    than the environment's +1/-1 (the agent is still judged by its wins)."""
    scores = env.unwrapped.state.scores()
    seat = env.unwrapped.seat
    others = [s for i, s in enumerate(scores) if i != seat]
    return (scores[seat] - sum(others) / len(others)) / 20


def play(env: gymnasium.Env, policy: LinearPolicy | None, seed: int, explore: bool, rng: np.random.Generator):
    """One game; returns (reward, the learner's (observation, mask, action) steps)."""
    observation, info = env.reset(seed=seed)
    steps, done, reward = [], False, 0.0
    while not done:
        mask = info["action_mask"]
        action = policy.act(observation, mask, explore) if policy else int(rng.choice(np.flatnonzero(mask)))
        steps.append((observation, mask, action))
        observation, reward, done, _, info = env.step(action)
    return reward, steps


def win_rate(env: gymnasium.Env, policy: LinearPolicy | None, games: int, first_seed: int) -> float:
    rng = np.random.default_rng(first_seed)
    return sum(play(env, policy, first_seed + i, False, rng)[0] > 0 for i in range(games)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--every", type=int, default=500, help="episodes between evaluations")
    parser.add_argument("--eval", type=int, default=300, help="evaluation games")
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args()
    env = gymnasium.make(merchantry_gym.env_id(GAME), players=PLAYERS, opponents="random")
    rng = np.random.default_rng(0)
    policy = LinearPolicy(env.observation_space.shape[0], env.action_space.n, rng)
    baseline = win_rate(env, None, args.eval, 10**6)
    print(f"a random agent wins {baseline:.1%} of {args.eval} games against {PLAYERS - 1} random bots")
    curve, mean_reward, episode, deadline = [(0, win_rate(env, policy, args.eval, 10**6))], 0.0, 0, None
    deadline = time.time() + 60 * args.minutes
    while time.time() < deadline:
        _, steps = play(env, policy, episode, True, rng)
        signal = margin(env)
        policy.learn(steps, signal - mean_reward)
        mean_reward += 0.01 * (signal - mean_reward)
        episode += 1
        if episode % args.every == 0:
            rate = win_rate(env, policy, args.eval, 10**6)
            curve.append((episode, rate))
            print(f"episode {episode}: wins {rate:.1%} (random agent {baseline:.1%})", flush=True)
    final_games = 2000
    wins = win_rate(env, policy, final_games, 2 * 10**6) * final_games
    low, high = wilson(wins, final_games)
    share, interval = wins / final_games, f"95% interval {low:.1%}-{high:.1%}"
    print(f"trained policy: {share:.1%} wins in {final_games} new games, {interval}")
    chance = win_rate(env, None, final_games, 2 * 10**6) * final_games
    low, high = wilson(chance, final_games)
    print(f"random agent in the same games: {chance / final_games:.1%}, 95% interval {low:.1%}-{high:.1%}")
    if args.plot:
        plot(curve, baseline, args.plot, episode, math.floor(args.minutes * 60))


def plot(curve: list[tuple[int, float]], baseline: float, path: str, episodes: int, seconds: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(
        [e for e, _ in curve],
        [100 * r for _, r in curve],
        marker="o",
        label="trained policy (most likely action)",
    )
    axes.axhline(100 * baseline, color="#8c7b6a", linestyle="--", label="random agent")
    axes.set_xlabel(f"training episodes ({episodes} in {seconds} s)")
    axes.set_ylabel("% of evaluation games won")
    axes.set_title(f"Grand Bazaar, {PLAYERS} players, one learner against random bots")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
