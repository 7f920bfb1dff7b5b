# case: t12e-01-clean
# modelled-on: YpLarryWang/nanoGPT https://github.com/YpLarryWang/nanoGPT/commit/78b6df6b48c31bc6007710a8b2233348da319416
# label: correct
# class: clean
# pattern: a nanoGPT fork exported as a Hugging Face model: self-attention calls SDPA with is_causal=not self.bidirectional (a flag read from a config module) when no attention_mask is given, and otherwise turns the HF keep mask (1 = real token) into a boolean SDPA mask (True = attend), ANDed with a tril causal mask unless bidirectional, with is_causal=False; blocks mix the residual streams of earlier layers by a softmax over depth, stacked on dim 0 and softmaxed over dim=0
# why: correct: SDPA's boolean attn_mask means True = take part in attention, which is what the keep mask and tril are, and is_causal is off whenever an explicit mask carries the causal part (both together would be an error); without a mask the triangular mask is applied exactly when the model is causal; the depth mix stacks the sources on axis 0, so softmax(dim=0) normalises over the sources for each position; SDPA applies its own 1/sqrt(head_dim); what a naive linter could misread: ATT002 (a keep mask handed to attn_mask), ATT008 (is_causal from an expression, False with a causal mask), ATT001 (softmax over dim=0), ATT003 (no explicit scale)
# looks-like: ATT001, ATT002, ATT003, ATT008
# source: https://github.com/YpLarryWang/nanoGPT https://github.com/YpLarryWang/nanoGPT/commit/78b6df6b48c31bc6007710a8b2233348da319416 eval/hf_nanogpt/modeling_nanogpt.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from configuration import TinyGPTConfig


def depth_mix(sources, q, norm):
    """Attention over depth: one logit per earlier stream and position, normed keys, raw values."""
    values = torch.stack(sources)  # (S, B, T, C)
    logits = torch.einsum("c,sbtc->sbt", q, norm(values))
    return torch.einsum("sbt,sbtc->btc", logits.softmax(dim=0), values)


class SelfAttention(nn.Module):
    def __init__(self, config: TinyGPTConfig):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        self.bidirectional = config.bidirectional

    def forward(self, x, attention_mask=None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        p = self.dropout if self.training else 0.0
        if attention_mask is None:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=p, is_causal=not self.bidirectional)
        else:
            keep = attention_mask.to(torch.bool)[:, None, None, :]  # (B, 1, 1, T), True = real token
            if self.bidirectional:
                allowed = keep
            else:
                tri = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
                allowed = tri[None, None, :, :] & keep
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed, dropout_p=p, is_causal=False)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, config: TinyGPTConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.ln_2 = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.attn = SelfAttention(config)
        self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(), nn.Linear(4 * config.n_embd, config.n_embd))
        self.res_query = nn.Parameter(torch.zeros(config.n_embd))
        self.res_norm = nn.LayerNorm(config.n_embd, bias=config.bias)
        self.use_attn_res = config.use_attn_res

    def forward(self, x, history, attention_mask=None):
        if self.use_attn_res and history:
            x = depth_mix(history + [x], self.res_query, self.res_norm)
        x = x + self.attn(self.ln_1(x), attention_mask)
        return x + self.mlp(self.ln_2(x))
