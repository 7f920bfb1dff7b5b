# case: t31x-08-clean
# modelled-on: its-wasp/GPT2-from-scratch-numpy https://github.com/its-wasp/GPT2-from-scratch-numpy/commit/05a85a0fe6c8c94491361bb272c82e4b5f938326
# label: correct
# class: clean
# pattern: GPT-2 written from scratch on a NumPy / CuPy backend chosen by an environment variable (`xp` imported from a backend module) with its own Tensor class and hand-written backward passes: heads split with reshape(B, T, nh, hd).transpose((0, 2, 1, 3)), scores (q @ k.transpose((0, 1, 3, 2))) * (1 / xp.sqrt(hd)), an additive causal mask xp.triu(xp.ones((T, T)) * -1e9, k=1) added to the scores, and a softmax(x, axis=-1) helper from a functional module (max-shifted, with its Jacobian-vector backward)
# why: correct: triu(ones * -1e9, k=1) is -1e9 strictly above the diagonal and 0 on and below it, so adding it removes exactly the future; the default dtype is float64 (float32 when a script sets it), where -1e9 is an ordinary large negative number; transpose((0, 1, 3, 2)) swaps the last two axes of (B, nh, T, hd) keys; hd is the per-head width; the softmax helper normalises over the last (key) axis
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/its-wasp/GPT2-from-scratch-numpy https://github.com/its-wasp/GPT2-from-scratch-numpy/commit/05a85a0fe6c8c94491361bb272c82e4b5f938326 rmk/transformer.py
from rmk.backend import xp
from rmk.functional import softmax
from rmk.tensor import Tensor


class Linear:
    def __init__(self, n_in, n_out):
        self.w = Tensor(xp.random.normal(0.0, 0.02, (n_in, n_out)))
        self.b = Tensor(xp.zeros(n_out))

    def __call__(self, x):
        return x @ self.w + self.b


class MultiHeadAttention:
    """Causal multi-head self-attention: separate Q/K/V projections and an output projection."""

    def __init__(self, n_embd, n_head):
        assert n_embd % n_head == 0, "n_embd must be divisible by n_head"
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.q_proj = Linear(n_embd, n_embd)
        self.k_proj = Linear(n_embd, n_embd)
        self.v_proj = Linear(n_embd, n_embd)
        self.out_proj = Linear(n_embd, n_embd)

    def __call__(self, x):
        B, T, C = x.data.shape
        nh, hd = self.n_head, self.head_dim

        def split(t):
            # (B, T, C) -> (B, T, nh, hd) -> (B, nh, T, hd)
            return t.reshape(B, T, nh, hd).transpose((0, 2, 1, 3))

        q = split(self.q_proj(x))
        k = split(self.k_proj(x))
        v = split(self.v_proj(x))

        scale = 1.0 / xp.sqrt(hd)
        scores = (q @ k.transpose((0, 1, 3, 2))) * scale  # (B, nh, T, T)

        # causal mask: -1e9 above the diagonal; broadcasts across (B, nh)
        mask = xp.triu(xp.ones((T, T)) * -1e9, k=1)
        scores = scores + mask

        weights = softmax(scores, axis=-1)
        out = weights @ v  # (B, nh, T, hd)
        out = out.transpose((0, 2, 1, 3)).reshape(B, T, C)
        return self.out_proj(out)
