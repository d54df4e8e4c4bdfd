"""The Weng-Lin Plackett-Luce model against values worked out by hand.

With every player at the start rating (mu 25, sigma^2 = 625/9, beta^2 = 625/36) and tau = 0,
`c^2 = n (sigma^2 + beta^2)`, every `exp(mu / c)` is equal, and `p_iq` is 1 over the number
of players placed no better than q. The sums over q then are small fractions (worked below),
and mu_i = 25 + Omega * sigma^2 / c, sigma_i = sigma sqrt(1 - Delta * sigma^3 / c^3).
"""

from __future__ import annotations

import math
import random

import pytest

from bot.league.ratings import RATING_MODEL, PlackettLuce, conservative

SIGMA2 = 625 / 9
BETA2 = 625 / 36
EXACT = PlackettLuce(tau=0.0)


def expected(n: int, omega: float, delta: float) -> tuple[float, float]:
    c = math.sqrt(n * (SIGMA2 + BETA2))
    sigma = math.sqrt(SIGMA2)
    return 25 + omega * SIGMA2 / c, sigma * math.sqrt(1 - delta * SIGMA2 / c**2 * sigma / c)


def close(got: list[tuple[float, float]], want: list[tuple[float, float]]) -> None:
    for (mu, sigma), (mu2, sigma2) in zip(got, want, strict=True):
        assert mu == pytest.approx(mu2, abs=1e-12)
        assert sigma == pytest.approx(sigma2, abs=1e-12)


def test_two_players_winner_and_loser() -> None:
    # Winner: q = winner only, p = 1/2: Omega = 1/2, Delta = 1/4.
    # Loser: q = winner (p = 1/2) gives -1/2 and 1/4; q = loser (p = 1) adds nothing.
    got = EXACT.rate([EXACT.initial()] * 2, [1, 2])
    close(got, [expected(2, 0.5, 0.25), expected(2, -0.5, 0.25)])
    # The same figures in plain numbers: c = sqrt(173.6111) = 13.1762.
    assert got[0][0] == pytest.approx(27.6352314, abs=1e-7)
    assert got[1][0] == pytest.approx(22.3647686, abs=1e-7)
    assert got[0][1] == pytest.approx(8.0655063, abs=1e-7)


def test_four_players_in_order() -> None:
    # C_q holds 4, 3, 2, 1 equal strengths: p = 1/4, 1/3, 1/2, 1.
    # Omega: 3/4; -1/4 + 2/3 = 5/12; -1/4 - 1/3 + 1/2 = -1/12; -1/4 - 1/3 - 1/2 + 0 = -13/12.
    # Delta: 3/16; 3/16 + 2/9 = 59/144; 59/144 + 1/4 = 95/144; the same + 0 = 95/144.
    got = EXACT.rate([EXACT.initial()] * 4, [1, 2, 3, 4])
    close(got, [expected(4, 3 / 4, 3 / 16), expected(4, 5 / 12, 59 / 144),
                expected(4, -1 / 12, 95 / 144), expected(4, -13 / 12, 95 / 144)])
    assert sum(mu for mu, _ in got) == pytest.approx(100)


def test_a_wall_game_is_a_tie_that_moves_no_mean() -> None:
    # All placed 1: one C = 4 strengths, A = 4, p = 1/4 for every q.
    # Omega = (1 - 1/4)/4 - 3 (1/4)/4 = 0; Delta = 4 (1/4 * 3/4)/4 = 3/16.
    got = EXACT.rate([EXACT.initial()] * 4, [1, 1, 1, 1])
    close(got, [expected(4, 0.0, 3 / 16)] * 4)


def test_winner_then_three_tied() -> None:
    # A Mah Jongg with three others level (tournament: winner +25, the rest 0).
    # Winner: q = winner, p = 1/4: Omega 3/4, Delta 3/16.
    # The others: q = winner gives -1/4 and 3/16; q = each of the three tied (C = 3, A = 3,
    # p = 1/3): own q +(2/3)/3, the two others -(1/3)/3 each, Delta 3 (1/3 * 2/3)/3 = 2/9.
    got = EXACT.rate([EXACT.initial()] * 4, [1, 2, 2, 2])
    other = expected(4, -1 / 4 + 2 / 9 - 2 / 9, 3 / 16 + 2 / 9)
    close(got, [expected(4, 3 / 4, 3 / 16), other, other, other])


def test_tau_widens_sigma_before_the_game() -> None:
    model = PlackettLuce()
    start = model.initial()
    # A tied pair: each q sees p = 1/2 and A = 2, Omega = 0 and Delta = 1/4; with tau the
    # variance is sigma^2 + tau^2 before the update.
    got = model.rate([start, start], [1, 1])
    var = SIGMA2 + (25 / 300) ** 2
    c = math.sqrt(2 * (var + BETA2))
    want = math.sqrt(var) * math.sqrt(1 - 0.25 * var / c**2 * math.sqrt(var) / c)
    assert got[0] == pytest.approx((25.0, want), abs=1e-12)


def test_stronger_players_gain_less_from_beating_weaker_ones() -> None:
    strong, weak = (35.0, 3.0), (15.0, 3.0)
    gain_expected = RATING_MODEL.rate([strong, weak], [1, 2])[0][0] - strong[0]
    gain_upset = RATING_MODEL.rate([weak, strong], [1, 2])[0][0] - weak[0]
    assert 0 < gain_expected < gain_upset


def test_kappa_keeps_sigma_positive_and_huge_means_do_not_overflow() -> None:
    got = RATING_MODEL.rate([(5000.0, 0.01), (-5000.0, 0.01)], [2, 1])
    assert all(math.isfinite(mu) and sigma > 0 for mu, sigma in got)


def test_input_checks_and_single_player() -> None:
    with pytest.raises(ValueError, match="one rank per rating"):
        RATING_MODEL.rate([RATING_MODEL.initial()], [1, 2])
    assert RATING_MODEL.rate([(30.0, 2.0)], [1]) == [(30.0, 2.0)]


def test_conservative_rating_starts_at_zero() -> None:
    assert conservative(*RATING_MODEL.initial()) == pytest.approx(0.0)
    assert conservative(30.0, 2.0) == 24.0


def test_many_games_order_players_by_skill() -> None:
    """Players who always finish in the same order end up rated in that order, and every
    sigma shrinks."""
    rng = random.Random(5)
    ratings = {p: RATING_MODEL.initial() for p in "ABCDEFGH"}
    skill = {p: i for i, p in enumerate("ABCDEFGH")}
    for _ in range(200):
        table = rng.sample(sorted(ratings), 4)
        ranks = [1 + sorted(table, key=lambda q: skill[q]).index(p) for p in table]
        for p, new in zip(table, RATING_MODEL.rate([ratings[p] for p in table], ranks),
                          strict=True):
            ratings[p] = new
    order = sorted(ratings, key=lambda p: -conservative(*ratings[p]))
    assert order == list("ABCDEFGH")
    assert all(sigma < 25 / 3 for _, sigma in ratings.values())
