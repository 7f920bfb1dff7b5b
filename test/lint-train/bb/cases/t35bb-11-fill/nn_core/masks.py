# case: t35bb-11-fill
# modelled-on: yravan/ml_implementation https://github.com/yravan/ml_implementation/commit/9f029469c863d1935e8c25a687266fa3a591640f
# label: buggy
# class: real-bug
# pattern: a NumPy deep-learning library's mask utilities (a CausalMask class of static methods) beside multi-query and grouped-query attention modules (another file) that broadcast one key/value head, or one per group, over the query heads: the float causal mask is built as `np.triu(np.ones((T, T)), k=1) * (-np.inf)`, the float padding mask as `np.where(valid, 0.0, -np.inf)`, the sliding-window mask as `np.where(mask_bool, 0.0, -1e9)`, and the boolean masks are keep masks (True = attend)
# why: buggy: multiplying the 0/1 triangle by -inf gives -inf above the diagonal but 0 * -inf = NaN on and below it, so the additive causal mask is NaN exactly where its docstring promises 0.0 (its own example shows [[0.0, -inf, -inf], [0.0, 0.0, -inf], ...]); scores + mask are NaN on every row and softmax returns NaN; the boolean branch and the padding and sliding-window masks are right, and the library's GPT builds its own causal mask correctly with np.where(np.tril(...), 0.0, -np.inf); the repository has no fix (its tests exercise only the boolean branch)
# source: https://github.com/yravan/ml_implementation https://github.com/yravan/ml_implementation/commit/9f029469c863d1935e8c25a687266fa3a591640f python/nn_core/attention.py
import numpy as np


class CausalMask:
    """Masks for autoregressive and padded attention.

    Float masks are additive: 0.0 where a position can attend, -1e9 or -inf where it cannot.
    Boolean masks are True where a position can attend.
    """

    @staticmethod
    def create_causal_mask(seq_len: int, dtype=np.float32) -> np.ndarray:
        """[seq_len, seq_len]; for seq_len = 3 the float mask is
        [[0.0, -inf, -inf],
         [0.0,  0.0, -inf],
         [0.0,  0.0,  0.0]]
        """
        if dtype is np.float32:
            mask = np.triu(np.ones((seq_len, seq_len)), k=1) * (-np.inf)  # expect: ATT007
        elif dtype is bool or dtype is np.bool_:
            mask = (1 - np.triu(np.ones((seq_len, seq_len)), k=1)).astype(np.bool_)
        else:
            raise TypeError(f"dtype {dtype} is not supported")
        return mask

    @staticmethod
    def create_padding_mask(sequence_lengths: np.ndarray, max_seq_len: int, dtype=np.float32) -> np.ndarray:
        """[B, 1, max_seq_len]: keys past each sequence's length are masked."""
        valid = np.arange(max_seq_len)[None, :] < sequence_lengths[:, None]
        if dtype is np.float32:
            mask = np.where(valid, 0.0, -np.inf).astype(np.float32)
        elif dtype is bool or dtype is np.bool_:
            mask = valid
        else:
            raise TypeError(f"dtype {dtype} is not supported")
        return mask[:, np.newaxis, :]

    @staticmethod
    def create_sliding_window_mask(seq_len: int, window_size: int, dtype=np.float32) -> np.ndarray:
        """Causal window of `window_size` positions (the current one included)."""
        i, j = np.ogrid[0:seq_len, 0:seq_len]
        mask_bool = (j <= i) & (j > i - window_size)
        if dtype is bool or dtype is np.bool_:
            return mask_bool
        return np.where(mask_bool, 0.0, -1e9).astype(dtype)
