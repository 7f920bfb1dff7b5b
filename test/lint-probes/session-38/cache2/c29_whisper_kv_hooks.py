import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttn(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)

    def forward(self, x, mask=None, kv_cache=None):
        q = self.query(x)
        k = self.key(x)
        v = self.value(x)
        if kv_cache is not None:
            k = kv_cache[self.key] = torch.cat([kv_cache[self.key], k], dim=1) if self.key in kv_cache else k
            v = kv_cache[self.value] = torch.cat([kv_cache[self.value], v], dim=1) if self.value in kv_cache else v
        B, T, C = q.shape
        q = q.view(B, T, self.n_head, -1).transpose(1, 2)
        k = k.view(B, k.shape[1], self.n_head, -1).transpose(1, 2)
        v = v.view(B, v.shape[1], self.n_head, -1).transpose(1, 2)
        S = k.shape[2]
        attn_mask = mask[S - T : S, :S] if mask is not None else None  # mask: (n_ctx, n_ctx) additive -inf above the diagonal
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return out.transpose(1, 2).reshape(B, T, C)
