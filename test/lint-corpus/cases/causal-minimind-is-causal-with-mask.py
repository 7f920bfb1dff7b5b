# case: causal-minimind-is-causal-with-mask
# modelled-on: jingyaogong/minimind https://github.com/jingyaogong/minimind/issues/453
# label: buggy
# pattern: the multi-token (prefill) path of a small LLM passes both the padding attn_mask and is_causal=True to SDPA; single-token decoding takes a manual path
# why: with an explicit mask the math backend raises "Explicit attn_mask should not be set when is_causal=True" (reported on CPU and some GPUs); where it does not raise, one of the two masks is dropped
import math
from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return x[:, :, :, None, :].expand(bs, slen, n_kv_heads, n_rep, head_dim).reshape(bs, slen, n_kv_heads * n_rep, head_dim)


class Attention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, num_kv_heads: int, dropout: float = 0.0):
        super().__init__()
        self.n_local_heads = num_heads
        self.n_local_kv_heads = num_kv_heads
        self.n_rep = num_heads // num_kv_heads
        self.head_dim = hidden_size // num_heads
        self.q_proj = nn.Linear(hidden_size, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_size, bias=False)
        self.dropout = dropout

    def forward(self, x: torch.Tensor, past_key_value: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
                use_cache: bool = False, attention_mask: Optional[torch.Tensor] = None):
        bsz, seq_len, _ = x.shape
        xq = self.q_proj(x).view(bsz, seq_len, self.n_local_heads, self.head_dim)
        xk = self.k_proj(x).view(bsz, seq_len, self.n_local_kv_heads, self.head_dim)
        xv = self.v_proj(x).view(bsz, seq_len, self.n_local_kv_heads, self.head_dim)
        if past_key_value is not None:
            xk = torch.cat([past_key_value[0], xk], dim=1)
            xv = torch.cat([past_key_value[1], xv], dim=1)
        past_kv = (xk, xv) if use_cache else None

        xq = xq.transpose(1, 2)
        xk = repeat_kv(xk, self.n_rep).transpose(1, 2)
        xv = repeat_kv(xv, self.n_rep).transpose(1, 2)

        if seq_len != 1:
            dropout_p = self.dropout if self.training else 0.0
            attn_mask = None
            if attention_mask is not None:
                attn_mask = attention_mask.view(bsz, 1, 1, -1).expand(bsz, self.n_local_heads, seq_len, -1).bool()
            output = F.scaled_dot_product_attention(xq, xk, xv, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=True)  # expect: ATT008
        else:
            # single-token decoding: the new token may see every cached key except padding
            scores = (xq @ xk.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (B, H, 1, S)
            if attention_mask is not None:
                scores = scores.masked_fill(attention_mask.view(bsz, 1, 1, -1) == 0, float("-inf"))
            scores = F.softmax(scores.float(), dim=-1).type_as(xq)
            output = scores @ xv
        output = output.transpose(1, 2).reshape(bsz, seq_len, -1)
        return self.o_proj(output), past_kv
