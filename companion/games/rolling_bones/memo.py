"""A remembered search: the advisor's memo as sorted arrays, for lookups without searching.

The expected-points memo converges (self-play stops adding states after a few
thousand turns), so a machine can fill it once and the Pi looks values up
instead of searching cold. Pure data in, values out: loading and saving the
arrays is ``companion/advisor_memo.py``'s job.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NO_CHOICE = -1


def state_code(state: tuple[int, int, tuple[int, int, int]], hat: bool, step: int, hat_laid_now: bool = False) -> int:
    """One int for a memo key: filled and wrong masks, dice in hand by kind, hat, the post-op step."""
    filled, wrong, (left, right, center) = state
    return (
        (((((filled << 16 | wrong) << 3 | left) << 3 | right) << 3 | center) << 1 | hat) << 4 | step
    ) << 1 | hat_laid_now


def choice_code(choice: tuple[bool, tuple[int, int, int]] | None) -> int:
    if choice is None:
        return NO_CHOICE
    take_hat, (left, right, center) = choice
    return int(take_hat) << 12 | left << 8 | right << 4 | center


def choice_of(code: int) -> tuple[bool, tuple[int, int, int]] | None:
    if code == NO_CHOICE:
        return None
    return bool(code >> 12 & 1), (code >> 8 & 15, code >> 4 & 15, code & 15)


@dataclass(frozen=True)
class MemoTable:
    pre_keys: np.ndarray  # uint64, sorted
    pre_values: np.ndarray  # float64
    pre_exact: np.ndarray  # bool
    post_keys: np.ndarray
    post_values: np.ndarray
    post_exact: np.ndarray
    post_choice: np.ndarray  # int16, see choice_code

    @staticmethod
    def _find(keys: np.ndarray, code: int) -> int | None:
        i = int(np.searchsorted(keys, np.uint64(code)))
        return i if i < len(keys) and int(keys[i]) == code else None

    def before_throw(self, code: int) -> tuple[float, bool] | None:
        i = self._find(self.pre_keys, code)
        return None if i is None else (float(self.pre_values[i]), bool(self.pre_exact[i]))

    def after_lay(self, code: int) -> tuple[float, bool, tuple[bool, tuple[int, int, int]] | None] | None:
        i = self._find(self.post_keys, code)
        return (
            None
            if i is None
            else (float(self.post_values[i]), bool(self.post_exact[i]), choice_of(int(self.post_choice[i])))
        )

    @classmethod
    def from_memo(cls, pre: dict, post: dict) -> MemoTable:
        """Arrays from an advisor's memo dictionaries (keys as the advisor makes them)."""
        pre_codes = np.array([state_code(k[0], k[1], k[2]) for k in pre], dtype=np.uint64)
        post_codes = np.array([state_code(k[0], k[1], k[2], k[3]) for k in post], dtype=np.uint64)
        po, qo = np.argsort(pre_codes), np.argsort(post_codes)
        pre_vals, post_vals = list(pre.values()), list(post.values())
        return cls(
            pre_codes[po],
            np.array([v[0] for v in pre_vals])[po],
            np.array([v[1] for v in pre_vals], bool)[po],
            post_codes[qo],
            np.array([v[0] for v in post_vals])[qo],
            np.array([v[1] for v in post_vals], bool)[qo],
            np.array([choice_code(v[2]) for v in post_vals], np.int16)[qo],
        )

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}
