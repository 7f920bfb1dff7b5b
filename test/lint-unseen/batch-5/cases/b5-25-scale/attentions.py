# case: b5-25-scale
# modelled-on: pyemma/gpt-from-scratch https://github.com/pyemma/gpt-from-scratch/commit/c71cc3137fb7a6403eb799cb7c4373b13529a1f0
# label: buggy
# class: real-bug
# pattern: a hand-written multi-head causal attention with a KV cache tuple: the constructor stores self.scale = d_out ** -0.5 and a tril(ones) buffer; forward concatenates the cached keys, divides the scores by self.scale, fills with -inf where the buffer slice [PAST_T:PAST_T+T, :PAST_T+T] is 0 (bottom-right with a cache, [:T, :T] without) and takes the softmax over the keys; the GPT in another module builds it with d_out = n_embd and feeds the prompt, then one token per step
# why: self.scale is already the reciprocal, so dividing by it multiplies the scores by sqrt(d_out) instead of dividing them by sqrt(head_dim): the logits are sqrt(d_out * head_dim) times larger than in scaled dot-product attention (about 222 times for n_embd = 768 and 12 heads); no fix was found in this repository, the label rests on the paper's formula and on the same repository's other attention (its nanoGPT model scales by 1 / sqrt(k.size(-1)) and later uses SDPA's default scale)
# source: https://github.com/pyemma/gpt-from-scratch https://github.com/pyemma/gpt-from-scratch/commit/c71cc3137fb7a6403eb799cb7c4373b13529a1f0 model/attentions.py
import torch
import torch.nn as nn


class CachedCausalAttention(nn.Module):
    def __init__(self, d_in, d_out, max_seq_len, num_heads, p_drop=0.1, bias=False):
        super().__init__()
        self.q_w = nn.Linear(d_in, d_out, bias=bias)
        self.k_w = nn.Linear(d_in, d_out, bias=bias)
        self.v_w = nn.Linear(d_in, d_out, bias=bias)
        self.o_w = nn.Linear(d_out, d_out, bias=bias)
        self.scale = d_out**-0.5
        mask = torch.tril(torch.ones(max_seq_len, max_seq_len))
        self.register_buffer("mask", mask.view(1, 1, max_seq_len, max_seq_len))
        self.attn_dropout = nn.Dropout(p=p_drop)
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads

    def forward(self, x, use_cache=False, kv_cache=None):
        B, T, _ = x.shape
        # (B, T, d_out) -> (B, heads, T, head_dim)
        q = self.q_w(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_w(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_w(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        new_cache = kv_cache
        if use_cache and kv_cache is not None:
            past_k, past_v = kv_cache
            PAST_T = past_k.shape[-2]
            k = torch.cat([past_k, k], dim=-2)
            v = torch.cat([past_v, v], dim=-2)
        if use_cache:
            new_cache = (k, v)
        scores = torch.matmul(q, k.transpose(-2, -1))  # (B, heads, T, PAST_T + T)
        scores = scores / self.scale  # expect: ATT004
        if use_cache and kv_cache is not None:
            # rows PAST_T .. PAST_T + T of the causal mask, up to column PAST_T + T
            scores = scores.masked_fill(self.mask[:, :, PAST_T : PAST_T + T, : PAST_T + T] == 0, float("-inf"))
        else:
            scores = scores.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        weights = self.attn_dropout(weights)
        out = torch.matmul(weights, v)
        out = out.transpose(1, 2).contiguous().view(B, T, self.num_heads * self.head_dim)
        return self.o_w(out), new_cache
