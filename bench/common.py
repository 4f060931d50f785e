"""Shared helpers for bench scripts: timing medians, printed figures."""

from __future__ import annotations

import os

# One core means one thread too: numpy's BLAS reads these when it loads (a bench imports this module
# before numpy), and a pool of threads pinned to one core only fights over it.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402


def time_ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    return statistics.median(time_ms(fn) for _ in range(repeats))


def at_least_one(text: str) -> int:
    """An argparse count that must be 1 or more (a median of none is no figure)."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: at least 1 (a median of none is no figure)")
    return value


def pin_one_core() -> None:
    """Measure on one core, as the targets say (Linux only; elsewhere a no-op): the lowest of the process's own, so
    two runs at once share core 0 unless each is started under its own `taskset -c N`."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:
        pass
