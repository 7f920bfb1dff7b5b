# case: b46-11-clean
# modelled-on: muxitox/Dynamical-MF-Self-Attention https://github.com/muxitox/Dynamical-MF-Self-Attention/commit/65804c82c5109e9390cc7a89bc62c7243b03cc7e
# label: correct
# class: clean
# pattern: mean-field dynamics of a Hopfield-style self-attention layer in NumPy/SciPy: at step t the query overlaps (patterns,) are dotted with the key overlaps of the last context_size steps with np.einsum('b,tb->t'), multiplied by an inverse temperature beta_att and a normalisation N**2 / c (c parsed from a string such as "N**2"), normalised with scipy.special.softmax over the window and used to average the value overlaps; the next overlaps come from tanh(beta_o * ... ) of the attended state
# why: correct: the window scores are 1-D (one per past step), so scipy's softmax with its default axis=None normalises over exactly the visible steps; the window runs from max(0, t - context_size + 1) to t, so the model only sees its own past and itself; beta_att times N**2 / c is the model's inverse temperature by design (the statistical-physics scaling of the paper), not a transformer 1/sqrt(d) scale
# looks-like: ATT001, ATT003, ATT004
# source: https://github.com/muxitox/Dynamical-MF-Self-Attention https://github.com/muxitox/Dynamical-MF-Self-Attention/commit/65804c82c5109e9390cc7a89bc62c7243b03cc7e models/HopfieldSelfAttentionNNMFPE.py
import numpy as np
from scipy.special import softmax


class MeanFieldAttention:
    """Order-parameter dynamics of a single self-attention layer with binary patterns."""

    def __init__(self, W_q, W_k, W_v, W_o, beta_att, beta_o, context_size, norm_att="N**2", norm_o="N"):
        self.Wq, self.Wk, self.Wv, self.Wo = W_q, W_k, W_v, W_o
        self.n_pat, self.N = W_q.shape
        self.beta_att, self.beta_o = beta_att, beta_o
        self.ctx = context_size
        const_att = eval(norm_att, {"N": self.N})
        const_o = eval(norm_o, {"N": self.N})
        self.gain_att = self.N ** 2 / const_att
        self.gain_o = self.N / const_o

    def _reset(self, steps):
        self.stats = {k: np.zeros((steps, self.n_pat)) for k in ("mq", "mk", "mv", "mo", "att")}

    def overlaps_from_state(self, x, t):
        for name, W in (("mq", self.Wq), ("mk", self.Wk), ("mv", self.Wv), ("mo", self.Wo)):
            self.stats[name][t] = x @ W.T / self.N

    def attention(self, t):
        first = max(0, t - self.ctx + 1)
        overlap = np.einsum("b,tb->t", self.stats["mq"][t], self.stats["mk"][first:t + 1])
        weights = softmax(self.beta_att * self.gain_att * overlap)
        att = self.stats["mv"][first:t + 1].T @ weights
        self.stats["att"][t] = att
        return att

    def step(self, t, att):
        spins = np.tanh(self.beta_o * self.gain_o * np.einsum("b,bi->i", att, self.Wo))
        for name, W in (("mq", self.Wq), ("mk", self.Wk), ("mv", self.Wv), ("mo", self.Wo)):
            self.stats[name][t] = W @ spins / self.N

    def run(self, x0, steps):
        self._reset(steps)
        self.overlaps_from_state(x0, 0)
        att = self.attention(0)
        for t in range(1, steps):
            self.step(t, att)
            att = self.attention(t)
        return self.stats
