# case: t29v-06-scale
# modelled-on: samuel500/numpy-gpt https://github.com/samuel500/numpy-gpt/commit/79be443d10f57e998b7cbd43b233f8337729d771
# label: buggy
# class: real-bug
# pattern: a from-scratch NumPy GPT (its own Tensor class, a port of minGPT's CausalSelfAttention): the fused projection is split into k, q, v, each reshaped to (B, T, n_heads, C // n_heads) and transposed to (B, nh, T, hs); the scores are (q @ k.transpose(0, 1, 3, 2)) / math.sqrt(self.n_embd); the causal mask is applied by multiplying the scores with a tril of ones and then setting every exact 0 to -inf before Softmax (a softmax over the last axis); the grokking script builds GPT(n_layers=1, n_heads=4, n_embd=64)
# why: buggy: the scores are per-head dot products over hs = C // n_heads = 16 features, but they are divided by sqrt(n_embd) = 8 instead of sqrt(hs) = 4, so every logit is half of the scaled dot product the port intends (minGPT divides by sqrt(k.size(-1)), the head size; the shape comments say (B, nh, T, hs)); the multiply-then-fill-zeros mask is odd but sends every future position to -inf; unfixed in the repository's history (the rename to npgpt/ keeps the line)
# source: https://github.com/samuel500/numpy-gpt https://github.com/samuel500/numpy-gpt/commit/79be443d10f57e998b7cbd43b233f8337729d771 npgpt/gpt.py, npgpt/tensor.py, adder.py
import math

import numpy as np

from .tensor import Dropout, Embedding, Linear, Model, NewGELU, Softmax


class MultiHeadSelfAttention(Model):
    def __init__(self, n_embd, block_size, n_heads=8, name="", attn_pdrop=0.1, resid_pdrop=0.1):
        assert n_embd % n_heads == 0
        self.n_embd = n_embd
        self.n_heads = n_heads
        self.block_size = block_size
        self.attn = Linear(n_embd, 3 * n_embd, use_bias=False, name=f"{name}-attn")
        self.bias = np.tril(np.ones(shape=(1, 1, block_size, block_size)))
        self.out_proj = Linear(n_embd, n_embd, name=f"{name}-out_proj")
        self.attn_dropout = Dropout(attn_pdrop)
        self.proj_dropout = Dropout(resid_pdrop)

    def forward(self, x):
        B, T, C = x.shape  # batch size, sequence length, embedding dimensionality (n_embd)

        k0, q0, v0 = self.attn(x).split(3, axis=2)
        k = (1 * k0.reshape(B, T, self.n_heads, C // self.n_heads)).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
        q = (1 * q0.reshape(B, T, self.n_heads, C // self.n_heads)).transpose(0, 2, 1, 3)  # (B, nh, T, hs)
        v = (1 * v0.reshape(B, T, self.n_heads, C // self.n_heads)).transpose(0, 2, 1, 3)  # (B, nh, T, hs)

        att = (q @ k.transpose(0, 1, 3, 2)) / math.sqrt(self.n_embd)  # expect: ATT004

        # causal mask: zero the future, then send the zeros to -inf
        att.data *= self.bias[:, :, :T, :T]
        att.data[att.data == 0.0] = -np.inf
        soft_att = Softmax(att)
        soft_att = self.attn_dropout(soft_att)

        out = soft_att @ v  # (B, nh, T, hs)
        out = (1 * out.transpose(0, 2, 1, 3)).reshape(B, T, C)
        return self.proj_dropout(self.out_proj(out))


class Block(Model):
    def __init__(self, n_embd, block_size, n_heads=8, name="", pdrop=0.1):
        self.attn = MultiHeadSelfAttention(n_embd, block_size, n_heads, f"{name}-MHSA", pdrop, pdrop)
        self.mlp0 = Linear(n_embd, 4 * n_embd, nonlin=NewGELU, name=f"{name}-mlp0")
        self.mlp1 = Linear(4 * n_embd, n_embd, name=f"{name}-mlp1")

    def forward(self, x):
        x = x + self.attn(x)
        return x + self.mlp1(self.mlp0(x))


class GPT(Model):
    def __init__(self, n_layers, n_heads, n_embd, vocab_size, block_size, pdrop=0.1):
        self.vocab_size = vocab_size
        self.word_embedding = Embedding(vocab_size, n_embd)
        self.positional_embedding = Embedding(block_size, n_embd)
        self.drop = Dropout(pdrop)
        self.blocks = [Block(n_embd, block_size, n_heads, f"Block[{i}]", pdrop) for i in range(n_layers)]
        self.lm_head = Linear(n_embd, vocab_size, name="GPT_lm_head")

    def forward(self, idx):
        idx = np.array(idx, dtype=np.int64)
        b, t = idx.shape
        pos = np.atleast_2d(np.arange(t)).repeat(b, axis=0)
        x = self.drop(self.word_embedding(idx) + self.positional_embedding(pos))
        for block in self.blocks:
            x = block(x)
        return self.lm_head(x)
