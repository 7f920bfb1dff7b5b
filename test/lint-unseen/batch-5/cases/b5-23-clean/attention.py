# case: b5-23-clean
# modelled-on: YVSemlani/numpy-transformer https://github.com/YVSemlani/numpy-transformer/commit/e49e522766c969ce1ca5d331ecaad3af78464e9c
# label: correct
# class: clean
# pattern: a NumPy transformer with hand-written backward passes: single-head attention computes q @ transpose(k, (0, 2, 1)) / sqrt(hidden_dim) and adds a mask before a softmax class from another module (max-shifted, over the last axis); the decoder block builds the mask as np.triu(ones * -inf, k=1), an additive mask that is -inf above the diagonal and 0 elsewhere, or zeros when masking is off
# why: correct: np.triu zeroes the entries below its diagonal (it selects, it does not multiply), so the additive mask is -inf exactly at the future keys; the single head's width is hidden_dim, so sqrt(hidden_dim) is the key width; np.transpose with (0, 2, 1) swaps the key's position and feature axes
# looks-like: ATT002, ATT003, ATT005, ATT006
# source: https://github.com/YVSemlani/numpy-transformer https://github.com/YVSemlani/numpy-transformer/commit/e49e522766c969ce1ca5d331ecaad3af78464e9c modules/attention.py
import numpy as np

from functions import Softmax


class Linear:
    def __init__(self, n_in, n_out, seed=0):
        rng = np.random.default_rng(seed)
        self.W = rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)
        self.b = np.zeros(n_out)

    def forward(self, x):
        return x @ self.W + self.b


class SingleHeadAttention:
    def __init__(self, hidden_dim):
        self.hidden_dim = hidden_dim
        self.w_q = Linear(hidden_dim, hidden_dim, 1)
        self.w_k = Linear(hidden_dim, hidden_dim, 2)
        self.w_v = Linear(hidden_dim, hidden_dim, 3)
        self.softmax = Softmax()
        self.cache = {}

    def forward(self, x, mask=None):
        q, k, v = self.w_q.forward(x), self.w_k.forward(x), self.w_v.forward(x)
        # (b, n, h) @ (b, h, n) -> (b, n, n)
        scores = q @ np.transpose(k, (0, 2, 1))
        scores = scores / np.sqrt(self.hidden_dim)
        if mask is not None:
            scores = scores + mask
        attn = self.softmax.forward(scores)
        self.cache.update(q=q, k=k, v=v, attn=attn)
        return attn @ v


class DecoderBlock:
    def __init__(self, dim, use_mask=True):
        self.use_mask = use_mask
        self.self_attn = SingleHeadAttention(dim)

    def forward(self, x):
        n = x.shape[1]
        if self.use_mask:
            mask = np.triu(np.ones((n, n)) * -np.inf, k=1)
        else:
            mask = np.zeros((n, n))
        return x + self.self_attn.forward(x, mask=mask)
