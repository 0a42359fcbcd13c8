#!/usr/bin/env python3
"""Recomputes the reference vectors of docs/PHYSICS.md §9 that the engine implements or its tests use.

Plain float64 Python, no dependencies, written from the formulas in docs/PHYSICS.md (each function names
its section). `python3 scripts/physics_vectors.py` prints one line per row: the row number and its values in
the order the §9 table gives them. e2e/server/test_physics_vectors.py checks the table against this.

Rows about formulas the engine does not implement (Flutter's per-event drag friction, its friction
simulation with constant deceleration, time-stepped integrators, Android and Chromium curves) are left out,
except rows 10, 22 and 34, which the text of docs/PHYSICS.md uses to explain a choice.
"""
from __future__ import annotations

import math

C_UIKIT = 0.55          # §0, §1.1
RATE_NORMAL = 0.998     # §0, §2.1 (per ms)
RATE_FAST = 0.99
FLUTTER_DRAG = 0.135    # §2.2: Flutter's drag per second in BouncingScrollSimulation


# §1.1 — the rubber band, its inverse, and the clamp with a band outside the range.
def band(x: float, d: float, c: float = C_UIKIT) -> float:
    return c * x * d / (d + c * x)


def band_inverse(b: float, d: float, c: float = C_UIKIT) -> float:
    return b * d / (c * (d - b))


def band_clamp(value: float, low: float, high: float, d: float) -> float:
    if value < low:
        return low - band(low - value, d)
    if value > high:
        return high + band(value - high, d)
    return value


# §2.1 — the continuous decay, with k = ln(drag per second) = 1000·ln(rate per ms).
def decay_position(v0: float, t: float, k: float) -> float:
    return v0 * (math.exp(k * t) - 1) / k


def decay_velocity(v0: float, t: float, k: float) -> float:
    return v0 * math.exp(k * t)


def decay_time_to_travel(distance: float, v0: float, k: float) -> float:
    return math.log(1 + k * distance / v0) / k


# §2.4 — a damped spring in closed form: displacement and velocity from y0, v0.
class Spring:
    def __init__(self, mass: float, stiffness: float, damping: float, y0: float, v0: float):
        self.m, self.k, self.c = mass, stiffness, damping
        discriminant = damping * damping - 4 * mass * stiffness
        self.r = -damping / (2 * mass)
        if discriminant > 0:
            root = math.sqrt(discriminant)
            self.kind = "over"
            self.r1, self.r2 = (-damping - root) / (2 * mass), (-damping + root) / (2 * mass)
            self.b = (v0 - self.r1 * y0) / (self.r2 - self.r1)
            self.a = y0 - self.b
        elif discriminant < 0:
            self.kind = "under"
            self.w = math.sqrt(-discriminant) / (2 * mass)
            self.a, self.b = y0, (v0 - self.r * y0) / self.w
        else:
            self.kind = "critical"
            self.a, self.b = y0, v0 - self.r * y0

    @staticmethod
    def with_ratio(mass: float, stiffness: float, ratio: float, y0: float, v0: float) -> "Spring":
        return Spring(mass, stiffness, ratio * 2 * math.sqrt(mass * stiffness), y0, v0)

    def y(self, t: float) -> float:
        if self.kind == "over":
            return self.a * math.exp(self.r1 * t) + self.b * math.exp(self.r2 * t)
        if self.kind == "under":
            return math.exp(self.r * t) * (self.a * math.cos(self.w * t) + self.b * math.sin(self.w * t))
        return (self.a + self.b * t) * math.exp(self.r * t)

    def v(self, t: float) -> float:
        if self.kind == "over":
            return self.a * self.r1 * math.exp(self.r1 * t) + self.b * self.r2 * math.exp(self.r2 * t)
        if self.kind == "under":
            e, cos, sin = math.exp(self.r * t), math.cos(self.w * t), math.sin(self.w * t)
            return e * (self.r * (self.a * cos + self.b * sin) + self.w * (self.b * cos - self.a * sin))
        return math.exp(self.r * t) * (self.b + self.r * (self.a + self.b * t))


def flutter_bounce(x0: float, v0: float, low: float, high: float, spring: tuple[float, float, float]):
    """§2.3: Flutter's BouncingScrollSimulation with the drag 0.135 decay; returns (t*, v(t*), x(t), v(t))."""
    k = math.log(FLUTTER_DRAG)
    rest = x0 - v0 / k
    edge = high if v0 > 0 and rest > high else low if v0 < 0 and rest < low else None
    if edge is None:
        return None, None, (lambda t: x0 + decay_position(v0, t, k)), (lambda t: decay_velocity(v0, t, k))
    crossing = decay_time_to_travel(edge - x0, v0, k)
    transfer = min(decay_velocity(v0, crossing, k), 5000.0)  # Flutter caps the positive side only (§3.6)
    bounce = Spring.with_ratio(*spring, 0.0, transfer)

    def x(t: float) -> float:
        return x0 + decay_position(v0, t, k) if t <= crossing else edge + bounce.y(t - crossing)

    def v(t: float) -> float:
        return decay_velocity(v0, t, k) if t <= crossing else bounce.v(t - crossing)

    return crossing, decay_velocity(v0, crossing, k), x, v


# §5.1 — the two release-velocity estimators. Samples are (ms, px); results in px/s.
def least_squares_velocity(samples: list[tuple[float, float]]) -> float:
    newest_time = samples[-1][0]
    used, previous = [], newest_time
    for time, position in reversed(samples[-20:]):
        if newest_time - time > 100 or previous - time > 40:
            break
        used.append((time - newest_time, position))
        previous = time
    if len(used) < 3:
        return 0.0
    # Normal equations of x ≈ a0 + a1·u + a2·u² (u in ms, 0 at the newest sample), solved by elimination.
    sums = [sum(u ** p for u, _ in used) for p in range(5)]
    matrix = [[sums[i + j] for j in range(3)] + [sum(x * u ** i for u, x in used)] for i in range(3)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda row: abs(matrix[row][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        for row in range(3):
            if row != col:
                factor = matrix[row][col] / matrix[col][col]
                matrix[row] = [a - factor * b for a, b in zip(matrix[row], matrix[col], strict=True)]
    return matrix[1][3] / matrix[1][1] * 1000


def ios_weighted_velocity(samples: list[tuple[float, float]]) -> float:
    def segment(i: int) -> float:  # a segment of no (or negative) duration counts 0, as in the engine
        (t0, x0), (t1, x1) = samples[i - 1], samples[i]
        return (x1 - x0) / ((t1 - t0) / 1000) if t1 > t0 else 0.0
    n = len(samples) - 1
    return 0.6 * segment(n - 2) + 0.35 * segment(n - 1) + 0.05 * segment(n)


# §2.4 — pop's bounciness and speed, mapped through Quartz Composer's tension and friction.
def pop_spring(bounciness: float, speed: float) -> tuple[float, float]:
    def fraction(value, start, end):
        return (value - start) / (end - start)

    def between(f, start, end):
        return start + f * (end - start)

    def friction_without_bounce(t):
        if t <= 18:
            return 0.0007 * t ** 3 - 0.031 * t ** 2 + 0.64 * t + 1.28
        if t <= 44:
            return 0.000044 * t ** 3 - 0.006 * t ** 2 + 0.36 * t + 2.0
        return 0.00000045 * t ** 3 - 0.000332 * t ** 2 + 0.1078 * t + 5.84

    bounce = between(fraction(bounciness / 1.7, 0, 20), 0, 0.8)
    qc_tension = between(fraction(speed / 1.7, 0, 20), 0.5, 200)
    ease = 2 * bounce - bounce * bounce
    qc_friction = ease * 0.01 + (1 - ease) * friction_without_bounce(qc_tension)
    return 194 + (qc_tension - 30) / 50 * (375 - 194), 25 + (qc_friction - 8) / 2 * (25 - 19)


def vectors() -> dict[int, list[float]]:
    """Row number → the values of that §9 row, in the table's order."""
    rows: dict[int, list[float]] = {}
    k_normal, k_fast = 1000 * math.log(RATE_NORMAL), 1000 * math.log(RATE_FAST)

    rows[1] = [band(x, 960) for x in (5, 10, 100, 400, 960)]
    rows[2] = [band(200, 844)]
    rows[3] = [band_inverse(100, 844)]
    rows[4] = [band_clamp(-150, 0, 1000, 800), band_clamp(1150, 0, 1000, 800)]
    rows[9] = [RATE_NORMAL ** 1000]
    # Row 10: Flutter's per-event friction 0.52·(1 − f)² summed over 0.01 px steps, against the closed form.
    shown = 0.0
    for _ in range(20_000):
        shown += 0.52 * (1 - shown / 844) ** 2 * 0.01
    rows[10] = [shown, band(200, 844, 0.52)]
    rows[11] = [-1000 / k_normal, RATE_NORMAL / (1 - RATE_NORMAL)]
    rows[12] = [-1000 / k_fast, RATE_FAST / (1 - RATE_FAST)]
    rows[13] = [decay_position(1000, 0.25, k_normal), decay_velocity(1000, 0.25, k_normal)]
    rows[14] = [decay_position(2500, 1, k_normal), decay_velocity(2500, 1, k_normal)]
    rows[15] = [math.log(0.5 / 2500) / k_normal, math.log(-k_normal * 0.5 / 2500) / k_normal]
    t300 = decay_time_to_travel(300, 2500, k_normal)
    rows[16] = [t300, decay_velocity(2500, t300, k_normal)]

    crossing, v_edge, x, _ = flutter_bounce(0, 3000, 0, 500, (0.5, 100, 1.1))
    peak = max((crossing + i * 1e-5 for i in range(20_000)), key=x)
    rows[19] = [crossing, v_edge, x(peak) - 500, peak]
    rows[22] = [10 / -math.log(FLUTTER_DRAG)]  # ten Newton steps of −1/ln(drag) each (§2.2)

    crossing, v_edge, x, v = flutter_bounce(500, -7500, 0, 1000, (1, 170, 1.1))
    rows[23] = [crossing, v_edge, x(0.065), v(0.065)]
    settled = abs(x(2.0)) < 1.5 and abs(v(2.0)) < 45  # Flutter's tolerances: then it sits on the edge
    rows[24] = [x(0.1), v(0.1), x(0.5), v(0.5), 0.0 if settled else x(2.0)]
    _, _, x, v = flutter_bounce(100, 400, 0, math.inf, (1, 50, 0.5))
    rows[25] = [x(1), v(1), v(2), 100 - 400 / math.log(FLUTTER_DRAG)]  # x(5): Flutter has snapped to its rest

    released = Spring.with_ratio(0.5, 100, 1.1, -100, 0)
    settle = next(i * 1e-4 for i in range(100_000)
                  if abs(released.y(i * 1e-4)) < 1 / 3 and abs(released.v(i * 1e-4)) < 1 / (0.05 * 3))
    rows[26] = [released.y(t) for t in (0.1, 0.2, 0.3, 0.5)] + [settle]
    critical = Spring(1, 100, 20, -100, 0)
    rows[27] = [critical.y(t) for t in (0.1, 0.3, 0.6)]
    to500 = Spring.with_ratio(1, 100, 1, -500, 0)
    rows[28] = [500 + to500.y(0.25), 500 + to500.y(0.5), to500.v(0.25), to500.v(0.5)]
    over = Spring.with_ratio(1, 100, 1.25, -500, 0)
    under = Spring.with_ratio(1, 100, 0.25, -300, 0)
    rows[29] = [500 + over.y(0.5), 500 + over.y(1), over.v(0.5), over.v(1), 300 + under.y(1), under.v(1)]

    steady = [(i * 8.0, 16.0 * i) for i in range(10)]
    rows[30] = [least_squares_velocity(steady)]
    slowing = [(i * 8.0, 3 * i * 8.0 - 0.01 * (i * 8.0) ** 2) for i in range(13)]
    rows[31] = [least_squares_velocity(slowing)]
    rows[32] = [ios_weighted_velocity(slowing)]
    rows[33] = [least_squares_velocity([(0, 0), (8, 16), (16, 32), (24, 48), (80, 60), (88, 62)])]
    jitter = (0, 3, -2, 4, 0, 6, -3, 1, 5, -4)
    received = [(t + j, x) for (t, x), j in zip(steady, jitter, strict=True)]
    rows[34] = [least_squares_velocity(received), ios_weighted_velocity(received)]
    rows[35] = [band_inverse(100, 844), band_inverse(100, 844, 0.52)]
    rows[36] = [band_inverse(54, 844)]
    tension, friction = pop_spring(0, 5)
    response = 0.5
    rows[37] = [tension, friction, friction / (2 * math.sqrt(tension)),
                (2 * math.pi / response) ** 2, 4 * math.pi / response]
    return rows


if __name__ == "__main__":
    for number, values in vectors().items():
        print(f"{number:2d} | " + ", ".join(f"{value:.6f}" for value in values))
