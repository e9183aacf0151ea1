"""The arena's statistics, chosen so that a reader can trust them (explained in every report).

- Win rates: a shared win counts as a fraction (1/number of winners). The 95% interval is Wilson's score
  interval, which behaves at 0% and 100% where the normal approximation fails.
- Seat advantage: a chi-square goodness-of-fit test of wins per seat against equal shares (what seats would
  win if the seat did not matter); its p-value says how surprising the spread is under "no advantage".
- Ratings: openskill's Plackett-Luce model (Weng-Lin), games in their order, ranks by final score with
  ties sharing a rank; the ordinal is mu - 3 sigma, a conservative skill estimate.
"""

from __future__ import annotations

import math

import scipy.stats

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """95% score interval for a proportion (successes may be fractional: shared wins)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def chi_square_uniform(counts: list[float]) -> tuple[float, int, float]:
    """Statistic, degrees of freedom and p-value of `counts` against equal expected counts (scipy)."""
    total, k = sum(counts), len(counts)
    if total == 0 or k < 2:
        return (0.0, max(k - 1, 0), 1.0)
    result = scipy.stats.chisquare(counts)
    return float(result.statistic), k - 1, float(result.pvalue)


def win_rate(wins: float, trials: int) -> dict[str, float]:
    """A win rate with its 95% interval, as every arena table shows it."""
    low, high = wilson(wins, trials)
    return {"win_rate": wins / trials if trials else 0.0, "win_low": low, "win_high": high}


def uniformity_test(counts: list[float]) -> dict[str, float]:
    """The chi-square test of `counts` against equal shares, as the reports show it."""
    statistic, dof, p_value = chi_square_uniform(counts)
    return {"chi_square": statistic, "dof": dof, "p_value": p_value}
