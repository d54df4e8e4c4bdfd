"""Skill ratings: the Weng-Lin Bayesian rating of OpenSkill with the Plackett-Luce model.

Each player has a belief about their skill: a mean `mu` and an uncertainty `sigma` (25 and
25/3 to start). After a game the players' placements update every rating at once (Weng &
Lin 2011, "A Bayesian Approximation Method for Online Ranking", Algorithm 4): with
`c = sqrt(sum(sigma_i^2 + beta^2))`, `C_q` the sum of `exp(mu_s / c)` over the players `s`
placed no better than `q`, and `A_q` the number of players sharing `q`'s place,

    Omega_i = sigma_i^2 / c * sum over q placed no worse than i of (I[q = i] - p_iq) / A_q
    Delta_i = gamma_i * sigma_i^2 / c^2 * sum over the same q of p_iq (1 - p_iq) / A_q
    p_iq    = exp(mu_i / c) / C_q,   gamma_i = sigma_i / c

    mu_i    <- mu_i + Omega_i
    sigma_i <- sigma_i * sqrt(max(1 - Delta_i, kappa))

Before each game `tau` is added to every sigma (skills drift, so a rating never freezes).
Ties — a wall game, a game stopped by the time limit — are equal places: equal players who tie
keep their means and only grow more certain. These are the defaults of the `openskill`
package's PlackettLuce model (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300), so its
figures and ours agree; we implement the few lines ourselves rather than take a dependency.

Standings show the conservative figure `mu - 3 sigma`: a player is very probably at least
that good, so a newcomer with one lucky win does not top the table (it starts at 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: A rating as (mu, sigma).
RatingPair = tuple[float, float]


@dataclass(frozen=True)
class PlackettLuce:
    """The Weng-Lin Plackett-Luce rating model for one-player "teams" (a Mah Jongg table).

    It satisfies the store's `RatingModel` protocol, so the store can move ratings in the
    same transaction that records a game."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0

    def initial(self) -> RatingPair:
        """A new player's rating."""
        return (self.mu, self.sigma)

    def rate(self, ratings: Sequence[RatingPair], ranks: Sequence[int]) -> list[RatingPair]:
        """New ratings after one game: `ranks` are the places (1 is best, equal places tie),
        in the same order as `ratings`. Fewer than two players change nothing."""
        if len(ratings) != len(ranks):
            raise ValueError("give one rank per rating")
        if len(ratings) < 2:
            return [(float(mu), float(sigma)) for mu, sigma in ratings]
        n = len(ratings)
        tau2, beta2 = self.tau * self.tau, self.beta * self.beta
        variances = [sigma * sigma + tau2 for _, sigma in ratings]
        means = [float(mu) for mu, _ in ratings]
        c = math.sqrt(sum(variances) + n * beta2)
        top = max(means)
        # exp((mu - top) / c): the common factor exp(top / c) cancels in every p_iq, and
        # shifting keeps exp from overflowing for very high ratings.
        strength = [math.exp((mu - top) / c) for mu in means]
        below = [0.0] * n
        sharing = [0] * n
        for q in range(n):
            rank_q = ranks[q]
            for s in range(n):
                if ranks[s] >= rank_q:
                    below[q] += strength[s]
                    if ranks[s] == rank_q:
                        sharing[q] += 1
        updated: list[RatingPair] = []
        for i in range(n):
            omega = delta = 0.0
            rank_i = ranks[i]
            for q in range(n):
                if ranks[q] > rank_i:
                    continue
                p = strength[i] / below[q]
                delta += p * (1.0 - p) / sharing[q]
                omega += ((1.0 - p) if q == i else -p) / sharing[q]
            variance = variances[i]
            sigma = math.sqrt(variance)
            omega *= variance / c
            delta *= (variance / (c * c)) * (sigma / c)
            updated.append((means[i] + omega,
                            sigma * math.sqrt(max(1.0 - delta, self.kappa))))
        return updated


#: The model the league uses.
RATING_MODEL = PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    """The rating shown in standings: `mu - 3 sigma`."""
    return mu - 3.0 * sigma
