# case: b9-13-clean
# modelled-on: siddarthasoul/transformer-from-scratch https://github.com/siddarthasoul/transformer-from-scratch/commit/26d2882c64eeb9113e216f555b5f3c9ba4ec2478
# label: correct
# class: clean
# pattern: a NumPy-only decoder with hand-written forward and backward passes: the multi-head attention reshapes (B, T, d_model) into heads, runs one Linear per head and per projection, scores each head with np.matmul(Q, K.transpose(0, 2, 1)) / sqrt(head_dim), blocks the future with np.where(triu(..., k=1), -1e9, scores) and normalises with a Softmax class from another module that works on the last axis
# why: correct: each head's K is 3-D (B, T, head_dim), so transpose(0, 2, 1) swaps exactly the token and feature axes; head_dim = d_model // heads is the per-head width; triu(k=1) is True strictly above the diagonal and np.where puts -1e9 there (float64), leaving the diagonal; the Softmax class subtracts the row max and normalises over the last (key) axis with keepdims
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/siddarthasoul/transformer-from-scratch https://github.com/siddarthasoul/transformer-from-scratch/commit/26d2882c64eeb9113e216f555b5f3c9ba4ec2478 src/DL_numpy/model/attention.py
import numpy as np

from linear import Linear
from softmax import Softmax


class MultiHeadAttention:
    def __init__(self, seq_length, d_model, heads):
        self.seq_len = seq_length
        self.d_model = d_model
        self.head = heads
        self.head_dim = d_model // heads
        self.softmax = [Softmax() for _ in range(heads)]
        self.q_linear = [Linear(self.head_dim, self.head_dim) for _ in range(heads)]
        self.k_linear = [Linear(self.head_dim, self.head_dim) for _ in range(heads)]
        self.v_linear = [Linear(self.head_dim, self.head_dim) for _ in range(heads)]
        self.out_linear = Linear(d_model, d_model)

    def forward(self, x):
        self.x = x
        batch_size, seq_len, _ = x.shape
        X_heads = x.reshape(batch_size, seq_len, self.head, self.head_dim)

        # causal mask, True = blocked
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)

        outputs = []
        for h in range(self.head):
            Xh = X_heads[:, :, h, :]  # (B, T, head_dim)
            Q = self.q_linear[h].forward(Xh)
            K = self.k_linear[h].forward(Xh)
            V = self.v_linear[h].forward(Xh)

            scores = np.matmul(Q, K.transpose(0, 2, 1)) / np.sqrt(self.head_dim)
            scores = np.where(mask[None, :, :], -1e9, scores)
            weights = self.softmax[h].forward(scores)
            outputs.append(weights @ V)

        concat = np.concatenate(outputs, axis=-1)
        return self.out_linear.forward(concat) + x


if __name__ == "__main__":
    mha = MultiHeadAttention(seq_length=16, d_model=32, heads=4)
    print(mha.forward(np.random.randn(2, 16, 32)).shape)
