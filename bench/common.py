"""Shared helpers for bench scripts: timing medians, printed figures."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def time_ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    return statistics.median(time_ms(fn) for _ in range(repeats))


def pin_one_core() -> None:
    """Measure on one core, as the targets say (Linux only; elsewhere a no-op)."""
    import os

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
