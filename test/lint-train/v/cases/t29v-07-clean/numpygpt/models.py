# case: t29v-07-clean
# modelled-on: sammy-snipes/numpy-GPT2 https://github.com/sammy-snipes/numpy-GPT2/commit/6829ae10f4060fb143d0cdf64825207b038c20f8
# label: correct
# class: clean
# pattern: a NumPy GPT-2 with its own autograd (Parameter, einsum/rearrange/softmax functions) checked against a PyTorch reference module whose weights it loads: the fused in_proj output is rearranged with "b t (d k h) -> k b h t d" (k=3 outermost after unstacking, the head index fastest-varying inside the fused axis) and unstacked in the order q, v, k; the scores are (self.head_dim ** -0.5) * einsum("bhid,bhjd->bhij", q, k) with head_dim = int(embed_dim / num_heads); a tril of ones is filled with -inf where it is 0; softmax(dim=-1) is exp(x) times the reciprocal of its sum over that axis; the output einsum "bhij,bhjd->bhid" sums over j
# why: correct: the (d k h) grouping and the q, v, k order only fix which columns of the fused projection feed which role and head; the reference module uses exactly the same rearrange and order and both are trained or loaded together, so the layout is self-consistent; the fused axis is 3 * embed_dim = d * 3 * h, so d = embed_dim / h = head_dim, the per-head width the scale uses; the einsum names d on q and k, so no transpose is needed; "bhij" puts the keys last and dim=-1 normalises over them, matching the output einsum's sum over j
# looks-like: ATT004, ATT005, ATT001
# source: https://github.com/sammy-snipes/numpy-GPT2 https://github.com/sammy-snipes/numpy-GPT2/commit/6829ae10f4060fb143d0cdf64825207b038c20f8 numpyGPT/models.py, numpyGPT/functions.py, numpyGPT/pytorch_reference.py
import string

import numpy as np

from .engine import Parameter
from .functions import einsum, gelu, layer_norm, rearrange, softmax


class Linear:
    def __init__(self, in_features, out_features, bias=True):
        self.weight = Parameter(shape=(out_features, in_features))
        self.bias = Parameter(shape=(out_features,)) if bias else Parameter(np.zeros((out_features,)))

    def __call__(self, x: Parameter) -> Parameter:
        x_ptrn = string.ascii_lowercase[: x.dim + 1]
        x_ptrn, new_dim = x_ptrn[:-1], x_ptrn[-1]
        ptrn = f"{x_ptrn},{new_dim + x_ptrn[-1]} -> {x_ptrn[:-1] + new_dim}"
        return einsum(ptrn, x, self.weight) + self.bias


class MultiheadAttention:
    def __init__(self, embed_dim, num_heads):
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = int(embed_dim / num_heads)
        self.in_proj = Linear(embed_dim, 3 * embed_dim, bias=True)
        self.out_proj = Linear(embed_dim, embed_dim, bias=True)

    def __call__(self, x: Parameter) -> Parameter:
        qvk = self.in_proj(x)
        qvk = rearrange(qvk, "b t (d k h) -> k b h t d", k=3, h=self.num_heads)
        q, v, k = qvk.split(0)

        scaled_product = (self.head_dim ** -0.5) * einsum("bhid,bhjd->bhij", q, k)

        mask = np.tril(np.ones_like(scaled_product.data))
        scaled_product = scaled_product.masked_fill(mask == 0, -np.inf)

        attention = softmax(scaled_product, dim=-1)
        out = einsum("bhij,bhjd->bhid", attention, v)
        out = rearrange(out, "b h t d -> b t (h d)", h=self.num_heads, d=self.head_dim)
        return self.out_proj(out)


class Block:
    def __init__(self, embed_dim, num_heads):
        self.attn = MultiheadAttention(embed_dim, num_heads)
        self.fc = Linear(embed_dim, embed_dim * 4)
        self.proj = Linear(embed_dim * 4, embed_dim)

    def __call__(self, x: Parameter) -> Parameter:
        x = x + self.attn(layer_norm(x))
        return x + self.proj(gelu(self.fc(layer_norm(x))))
