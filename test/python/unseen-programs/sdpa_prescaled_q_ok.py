# label: correct
# why: q is multiplied by head_dim ** -0.5 in the projection step and SDPA is told scale=1.0, so the scale is applied once
# requires: torch2
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, embed_dim=64, num_heads=4):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, hidden, padding_mask):
        bsz, tgt_len, _ = hidden.shape
        q = self.q_proj(hidden) * self.scaling
        k = self.k_proj(hidden)
        v = self.v_proj(hidden)
        q, k, v = (t.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        keep = ~padding_mask[:, None, None, :]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep, scale=1.0)
        return self.out_proj(out.transpose(1, 2).reshape(bsz, tgt_len, -1))


if __name__ == "__main__":
    torch.manual_seed(49)
    ids = torch.tensor([[0, 31, 7, 2, 1, 1], [0, 5, 6, 8, 9, 2]])
    emb = nn.Embedding(40, 64, padding_idx=1)
    print(Attention()(emb(ids), ids == 1).shape)
