# label: buggy
# why: F.scaled_dot_product_attention reads a bool mask as True = attend; the mask passed is True on padding
# requires: torch2
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD_ID = 0


class Encoder(nn.Module):
    def __init__(self, vocab=500, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.tok = nn.Embedding(vocab, dim, padding_idx=PAD_ID)
        self.in_proj = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, input_ids):
        x = self.tok(input_ids)
        B, T, D = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q, k, v = [t.view(B, T, self.heads, D // self.heads).transpose(1, 2) for t in (q, k, v)]
        padding_mask = (input_ids == PAD_ID)[:, None, None, :]
        h = F.scaled_dot_product_attention(q, k, v, attn_mask=padding_mask)  # expect: ATT002
        return self.out_proj(h.transpose(1, 2).reshape(B, T, D))


if __name__ == "__main__":
    torch.manual_seed(26)
    ids = torch.tensor([
        [12, 55, 301, 7, 0, 0],
        [88, 2, 0, 0, 0, 0],
        [9, 140, 33, 27, 480, 0],
    ])
    enc = Encoder()
    enc.eval()
    with torch.no_grad():
        out = enc(ids)
    print(out.shape)
