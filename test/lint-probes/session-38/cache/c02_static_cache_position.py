import torch
import torch.nn as nn
import torch.nn.functional as F


class StaticKV(nn.Module):
    def __init__(self, max_batch, max_seq, heads, head_dim, dtype=torch.bfloat16):
        super().__init__()
        shape = (max_batch, heads, max_seq, head_dim)
        self.register_buffer("k_cache", torch.zeros(shape, dtype=dtype))
        self.register_buffer("v_cache", torch.zeros(shape, dtype=dtype))

    def update(self, input_pos, k_val, v_val):
        self.k_cache[:, :, input_pos] = k_val
        self.v_cache[:, :, input_pos] = v_val
        return self.k_cache, self.v_cache


class Attention(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.n_head = n_head
        self.head_dim = dim // n_head
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.kv_cache = None

    def forward(self, x, mask, input_pos=None):
        bsz, seqlen, _ = x.shape
        q, k, v = self.wqkv(x).split(x.shape[-1], dim=-1)
        q, k, v = (t.view(bsz, seqlen, self.n_head, self.head_dim).transpose(1, 2) for t in (q, k, v))
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        # mask: (1, 1, seqlen, max_seq) rows of a causal mask picked by input_pos
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0)
        return y.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
