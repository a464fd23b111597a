"""The loops under the compiled fit (`compiled`), written so that numba's compiler vectorises them: exp and
log over arrays (`exp_into`, `log_into`: libm's scalar ones took 5 ns an entry, most of a fit's step) and
sums and maxima in four fixed lanes (`dot`, `abs_sum`, `largest`, `largest_scaled`). Plain Python where
numba is not installed (then unused: the fits run in numpy)."""

from __future__ import annotations

import math

import numpy as np

try:  # optional, as in `compiled`
    import numba
except ImportError:  # pragma: no cover - exercised where numba is not installed
    numba = None  # type: ignore[assignment]

# exp and log: fdlibm's range reductions (e_exp.c, e_log.c) with a polynomial for exp, the scaling by 2^k through
# the bits; 1 ulp against numpy's (tested). Compiled with contraction (FMA) but no reassociation, which would fold
# the rounding constant away.
_INV_LN2, _LN2_HI, _LN2_LO = 1.4426950408889634, 6.93147180369123816490e-01, 1.90821492927058770002e-10
_ROUND = 6755399441055744.0  # 1.5 · 2^52: x + _ROUND holds round(x) in its low bits
_EXP_TAYLOR = tuple(1.0 / math.factorial(i) for i in range(13, -1, -1))  # exp(r), |r| ≤ ln2/2: degree 13, to 1e-17
_LG = (
    6.666666666666735130e-01,
    3.999999999940941908e-01,
    2.857142874366239149e-01,
    2.222219843214978396e-01,
    1.818357216161805012e-01,
    1.531383769920937332e-01,
    1.479819860511658591e-01,
)  # fdlibm's log(1+f) = f − f²/2 + s·(f²/2 + R(s²)), s = f / (2 + f)
_VECTOR_FLAGS = {"nnan", "ninf", "nsz", "contract"}  # their inputs are finite: `_smooth` checks


def exp_into(x, out, bits):  # pragma: no cover - compiled
    """out = exp(x) for x ≤ 709 (below −708: 0, where numpy gives a subnormal); bits: int64 scratch."""
    c13, c12, c11, c10, c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _EXP_TAYLOR
    rounded = bits.view(np.float64)
    round_bits = np.array([_ROUND]).view(np.int64)[0]
    for i in range(x.size):
        v = min(max(x[i], -708.0), 709.0)
        t = v * _INV_LN2 + _ROUND
        rounded[i] = t
        k = t - _ROUND
        r = (v - k * _LN2_HI) - k * _LN2_LO
        p = ((((c13 * r + c12) * r + c11) * r + c10) * r + c9) * r + c8
        p = ((((((p * r + c7) * r + c6) * r + c5) * r + c4) * r + c3) * r + c2) * r + c1
        out[i] = (p * r + c0) if x[i] >= -708.0 else 0.0
    for i in range(x.size):
        bits[i] = (bits[i] - round_bits + 1023) << 52  # 2^k
    for i in range(x.size):
        out[i] *= rounded[i]


def log_into(x, out, bits):  # pragma: no cover - compiled
    """out = log(x) for positive normal x; bits: int64 scratch."""
    lg1, lg2, lg3, lg4, lg5, lg6, lg7 = _LG
    x_bits = x.view(np.int64)
    mantissa = bits.view(np.float64)
    for i in range(x.size):  # x = 2^k · m, m in [√2/2, √2)
        high = (x_bits[i] >> 32) & 0xFFFFFFFF
        k = (high >> 20) - 1023
        high &= 0x000FFFFF
        j = (high + 0x95F64) & 0x100000
        out[i] = k + (j >> 20)
        bits[i] = ((high | (j ^ 0x3FF00000)) << 32) | (x_bits[i] & 0xFFFFFFFF)
    for i in range(x.size):
        f = mantissa[i] - 1.0
        k = out[i]
        s = f / (2.0 + f)
        z = s * s
        w = z * z
        r = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7))) + w * (lg2 + w * (lg4 + w * lg6))
        half_f2 = 0.5 * f * f
        out[i] = k * _LN2_HI - ((half_f2 - (s * (half_f2 + r) + k * _LN2_LO)) - f)


def largest(a, start, n):  # pragma: no cover - compiled
    """max(a[start : start + n]), n ≥ 1, in four independent lanes (one running maximum waits on each
    comparison: 3x slower)."""
    t0 = t1 = t2 = t3 = a[start]
    i = start
    while i + 4 <= start + n:
        t0 = a[i] if a[i] > t0 else t0
        t1 = a[i + 1] if a[i + 1] > t1 else t1
        t2 = a[i + 2] if a[i + 2] > t2 else t2
        t3 = a[i + 3] if a[i + 3] > t3 else t3
        i += 4
    while i < start + n:
        t0 = a[i] if a[i] > t0 else t0
        i += 1
    return max(max(t0, t1), max(t2, t3))


# Sums and maxima over a step's vectors in four lanes: one running total waits on each addition (4 cycles an
# entry); four lanes in a fixed order keep a fit's numbers the same wherever its arrays lie in memory, which
# the compiler's own vectorised reductions (fastmath) do not (tested: a fit alone = in a process).
def dot(a, b, c, three):  # pragma: no cover - compiled
    """Σ a·b (three: Σ a·b·c) in four lanes."""
    n = a.size
    s0 = s1 = s2 = s3 = 0.0
    i = 0
    while i + 4 <= n:
        if three:
            s0 += a[i] * b[i] * c[i]
            s1 += a[i + 1] * b[i + 1] * c[i + 1]
            s2 += a[i + 2] * b[i + 2] * c[i + 2]
            s3 += a[i + 3] * b[i + 3] * c[i + 3]
        else:
            s0 += a[i] * b[i]
            s1 += a[i + 1] * b[i + 1]
            s2 += a[i + 2] * b[i + 2]
            s3 += a[i + 3] * b[i + 3]
        i += 4
    while i < n:
        s0 += a[i] * b[i] * c[i] if three else a[i] * b[i]
        i += 1
    return (s0 + s1) + (s2 + s3)


def abs_sum(a):  # pragma: no cover - compiled
    """Σ |a| in four lanes."""
    n = a.size
    s0 = s1 = s2 = s3 = 0.0
    i = 0
    while i + 4 <= n:
        s0 += abs(a[i])
        s1 += abs(a[i + 1])
        s2 += abs(a[i + 2])
        s3 += abs(a[i + 3])
        i += 4
    while i < n:
        s0 += abs(a[i])
        i += 1
    return (s0 + s1) + (s2 + s3)


def largest_scaled(metric, step):  # pragma: no cover - compiled
    """max |metric · step| in four lanes."""
    n = metric.size
    t0 = t1 = t2 = t3 = 0.0
    i = 0
    while i + 4 <= n:
        t0 = max(t0, abs(metric[i] * step[i]))
        t1 = max(t1, abs(metric[i + 1] * step[i + 1]))
        t2 = max(t2, abs(metric[i + 2] * step[i + 2]))
        t3 = max(t3, abs(metric[i + 3] * step[i + 3]))
        i += 4
    while i < n:
        t0 = max(t0, abs(metric[i] * step[i]))
        i += 1
    return max(max(t0, t1), max(t2, t3))


def jit(function, **options):
    """`function` compiled by numba (`options`: fastmath, error_model), its machine code kept on disk for the
    next process (beside this module, else in the user's cache); compiled in each process where no place to
    keep it is writable (numba refuses cache=True then)."""
    try:
        return numba.njit(cache=True, **options)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(**options)(function)


if numba is not None:
    exp_into = jit(exp_into, fastmath=_VECTOR_FLAGS, error_model="numpy")
    log_into = jit(log_into, fastmath=_VECTOR_FLAGS, error_model="numpy")
    largest = jit(largest)
    dot = jit(dot)
    abs_sum = jit(abs_sum)
    largest_scaled = jit(largest_scaled)
