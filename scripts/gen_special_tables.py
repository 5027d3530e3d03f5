#!/usr/bin/env python
"""Generate padax/scipy/special/_tables.py: Chebyshev coefficients of padax's special functions.

    pip install mpmath                       # (only this script needs it)
    python scripts/gen_special_tables.py     # (re)write the tables

Each table holds the Chebyshev coefficients c_0..c_n (numpy's convention: f(t) = sum c_k T_k(t),
t in [-1, 1]) of a smooth function that padax evaluates with Clenshaw's recurrence. The
coefficients are computed in 50-digit arithmetic (a discrete cosine transform of mpmath values at
Chebyshev points) and rounded once to float64; a table ends where its coefficients fall below
float64 resolution. The variable maps (x -> t) are repeated in the evaluating modules.
"""
from __future__ import annotations

import argparse
import os
from fractions import Fraction

import mpmath as mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "padax", "scipy", "special", "_tables.py")
mp.mp.dps = 50
_N = 96  # sample points per fit (more than any table needs)


def chebyshev(f, n: int = _N, cut: float = 2e-18) -> list[float]:
    """Chebyshev coefficients of f on [-1, 1] (first-kind points), trimmed below `cut` * max|c|."""
    thetas = [mp.pi * (j + mp.mpf(1) / 2) / n for j in range(n)]
    vals = [f(mp.cos(th)) for th in thetas]
    coeffs = []
    for k in range(n):
        s = mp.fsum(v * mp.cos(k * th) for v, th in zip(vals, thetas))
        coeffs.append(s * 2 / n)
    coeffs[0] /= 2
    big = max(abs(c) for c in coeffs)
    last = max(k for k, c in enumerate(coeffs) if abs(c) > cut * big)
    return [float(c) for c in coeffs[:last + 1]]


# ---- the fitted functions (t in [-1, 1]) ----------------------------------------------------------------

def _i0e_small(t):          # exp(-x) I0(x), x = 4 (t + 1) in [0, 8]
    x = 4 * (t + 1)
    return mp.besseli(0, x) * mp.exp(-x)


def _i0e_large(t):          # sqrt(x) exp(-x) I0(x), x = 16 / (t + 1) in [8, inf)
    if t <= -1 + mp.mpf(10) ** -40:
        return 1 / mp.sqrt(2 * mp.pi)
    x = 16 / (t + 1)
    return mp.sqrt(x) * mp.besseli(0, x) * mp.exp(-x)


def _i1e_small(t):          # exp(-x) I1(x) / x, x in [0, 8]
    x = 4 * (t + 1)
    if x == 0:
        return mp.mpf(1) / 2
    return mp.besseli(1, x) * mp.exp(-x) / x


def _i1e_large(t):
    if t <= -1 + mp.mpf(10) ** -40:
        return 1 / mp.sqrt(2 * mp.pi)
    x = 16 / (t + 1)
    return mp.sqrt(x) * mp.besseli(1, x) * mp.exp(-x)


ERFCX_K = 4


def _erfcx(t):              # (1 + 2x) erfcx(x), x = K (1 + t) / (1 - t) in [0, inf)
    if t >= 1 - mp.mpf(10) ** -40:
        return 2 / mp.sqrt(mp.pi)
    x = ERFCX_K * (1 + t) / (1 - t)
    return (1 + 2 * x) * mp.exp(x * x) * mp.erfc(x)


# Bessel J/Y: below 8 as polynomials in x**2 (the zeros of J0 and J1 divided out, Y's logarithmic
# part taken off); from 8 on as modulus and phase, M = sqrt(x (J**2 + Y**2)) and
# x * (theta - x + (2 nu + 1) pi / 4) with J = M cos(theta) / sqrt(x), Y = M sin(theta) / sqrt(x).
J0_ZEROS = (mp.besseljzero(0, 1), mp.besseljzero(0, 2))
J1_ZEROS = (mp.besseljzero(1, 1), mp.besseljzero(1, 2))


def _x2(t):                 # x**2 = 32 (t + 1), x in [0, 8]
    return 32 * (t + 1)


def _j0_small(t):
    x2 = _x2(t)
    d = (x2 - J0_ZEROS[0] ** 2) * (x2 - J0_ZEROS[1] ** 2)
    return mp.besselj(0, mp.sqrt(x2)) / d


def _j1_small(t):
    x2 = _x2(t)
    d = (x2 - J1_ZEROS[0] ** 2) * (x2 - J1_ZEROS[1] ** 2)
    if x2 == 0:
        return mp.mpf(1) / 2 / d
    x = mp.sqrt(x2)
    return mp.besselj(1, x) / x / d


def _y0_small(t):           # Y0(x) - (2/pi) log(x) J0(x), an entire function of x**2
    x2 = _x2(t)
    x = mp.sqrt(x2)
    if x2 == 0:
        return 2 / mp.pi * (mp.euler - mp.log(2))
    return mp.bessely(0, x) - 2 / mp.pi * mp.log(x) * mp.besselj(0, x)


def _y1_small(t):           # (Y1(x) - (2/pi) (log(x) J1(x) - 1/x)) / x
    x2 = _x2(t)
    x = mp.sqrt(x2)
    if x2 == 0:
        return (2 * mp.euler - 1 - 2 * mp.log(2)) / (2 * mp.pi)   # the series' x**1 coefficient
    return (mp.bessely(1, x) - 2 / mp.pi * (mp.log(x) * mp.besselj(1, x) - 1 / x)) / x


def _mod_phase(nu, which):
    def f(t):               # x**2 = 128 / (t + 1), x in [8, inf)
        if t <= -1 + mp.mpf(10) ** -40:
            return mp.sqrt(2 / mp.pi) if which == "m" else (-(4 * nu * nu - 1) / mp.mpf(8))
        x = mp.sqrt(128 / (t + 1))
        j, y = mp.besselj(nu, x), mp.bessely(nu, x)
        if which == "m":
            return mp.sqrt(x * (j * j + y * y))
        theta = mp.atan2(y, j)
        base = x - (2 * nu + 1) * mp.pi / 4
        d = theta - base
        d -= 2 * mp.pi * mp.nint(d / (2 * mp.pi))
        return x * d
    return f


def debye_polynomials(kmax: int) -> list[list[Fraction]]:
    """u_k(t) of the uniform (Debye) expansions of I_v and K_v, as coefficient lists in t.

    u_0 = 1, u_{k+1}(t) = t**2 (1 - t**2) u_k'(t) / 2 + (1/8) int_0^t (1 - 5 s**2) u_k(s) ds.
    """
    polys = [[Fraction(1)]]
    for _ in range(kmax):
        u = polys[-1]
        du = [k * c for k, c in enumerate(u)][1:] + [Fraction(0)]
        nxt = [Fraction(0)] * (len(u) + 3)
        for k, c in enumerate(du[:len(u) - 1]):        # t**2 (1 - t**2) u'(t) / 2
            nxt[k + 2] += c / 2
            nxt[k + 4] -= c / 2
        for k, c in enumerate(u):                       # (1/8) int (1 - 5 s**2) u(s) ds
            nxt[k + 1] += c / 8 / (k + 1)
            nxt[k + 3] -= 5 * c / 8 / (k + 3)
        while nxt and nxt[-1] == 0:
            nxt.pop()
        polys.append(nxt)
    return polys


TABLES = {
    "I0E_SMALL": _i0e_small, "I0E_LARGE": _i0e_large, "I1E_SMALL": _i1e_small, "I1E_LARGE": _i1e_large,
    "ERFCX": _erfcx, "J0_SMALL": _j0_small, "J1_SMALL": _j1_small, "Y0_SMALL": _y0_small,
    "Y1_SMALL": _y1_small, "M0": _mod_phase(0, "m"), "P0": _mod_phase(0, "p"), "M1": _mod_phase(1, "m"),
    "P1": _mod_phase(1, "p"),
}
DEBYE_TERMS = 13
RGAMMA_TERMS = 26


def rgamma_taylor(n: int) -> list[float]:
    """a_k with 1/Gamma(1 + z) = sum_k a_k z**k (Temme's gamma1/gamma2 for Bessel K come from them)."""
    return [float(c) for c in mp.taylor(lambda z: mp.rgamma(1 + z), 0, n - 1)]


def _split(z) -> tuple[float, float]:
    hi = float(z)
    return hi, float(z - hi)


def render() -> str:
    lines = ['"""Chebyshev coefficients (and other constants) of padax.scipy.special.',
             "",
             "Generated by scripts/gen_special_tables.py (50-digit mpmath values); do not edit by hand.",
             '"""', "", f"ERFCX_K = {ERFCX_K}"]
    for name, zs in (("J0_ZEROS", J0_ZEROS), ("J1_ZEROS", J1_ZEROS)):
        lines.append(f"{name} = ({', '.join(repr(_split(z)) for z in zs)})  # (high, low) parts")
    for name, f in TABLES.items():
        coeffs = chebyshev(f)
        body = ",\n    ".join(", ".join(repr(c) for c in coeffs[i:i + 3]) for i in range(0, len(coeffs), 3))
        lines.append(f"{name} = (\n    {body},\n)")
    polys = debye_polynomials(DEBYE_TERMS)
    lines.append("# u_k(t) of the Debye expansions, k = 0..%d, coefficients of t**0, t**1, ..." % DEBYE_TERMS)
    lines.append("DEBYE = (")
    for p in polys:
        lines.append("    (" + ", ".join(repr(float(c)) for c in p) + ",),")
    lines.append(")")
    lines.append("# a_k of 1/Gamma(1 + z) = sum_k a_k z**k, k = 0..%d" % (RGAMMA_TERMS - 1))
    taylor = rgamma_taylor(RGAMMA_TERMS)
    body = ",\n    ".join(", ".join(repr(c) for c in taylor[i:i + 3]) for i in range(0, len(taylor), 3))
    lines.append(f"RGAMMA_TAYLOR = (\n    {body},\n)")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.parse_args()
    text = render()
    with open(OUT + ".tmp", "w") as fh:
        fh.write(text)
    os.replace(OUT + ".tmp", OUT)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
