# case: scale-gpt2-scaling-not-passed-sdpa
# modelled-on: huggingface/transformers https://github.com/huggingface/transformers/pull/44397
# label: buggy
# pattern: the attention module computes its own scale in __init__ (1/sqrt(head_dim) divided by the layer index, a config option), the eager path applies it, and the fused path calls SDPA without scale=, so the kernel falls back to its default 1/sqrt(E)
# why: with scale_attn_by_inverse_layer_idx set, eager and SDPA compute different attention; the PR passes the module's scaling to the kernel
import torch
import torch.nn as nn
import torch.nn.functional as F


class GPT2Attention(nn.Module):
    def __init__(self, config, layer_idx: int):
        super().__init__()
        self.embed_dim = config.hidden_size
        self.num_heads = config.num_attention_heads
        self.head_dim = self.embed_dim // self.num_heads
        self.c_attn = nn.Linear(self.embed_dim, 3 * self.embed_dim)
        self.c_proj = nn.Linear(self.embed_dim, self.embed_dim)
        self.use_sdpa = config.attn_implementation == "sdpa"
        self.scaling = self.head_dim ** -0.5
        if config.scale_attn_by_inverse_layer_idx:
            self.scaling = self.scaling / float(layer_idx + 1)

    def _split_heads(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)  # (B, H, T, hd)

    def forward(self, hidden_states):
        B, T, _ = hidden_states.shape
        q, k, v = self.c_attn(hidden_states).split(self.embed_dim, dim=2)
        q, k, v = self._split_heads(q), self._split_heads(k), self._split_heads(v)
        if self.use_sdpa:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # expect: ATT004
        else:
            scores = torch.matmul(q, k.transpose(-1, -2)) * self.scaling
            causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
            scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
            out = torch.matmul(F.softmax(scores, dim=-1), v)
        out = out.transpose(1, 2).reshape(B, T, self.embed_dim)
        return self.c_proj(out)
