# label: correct
# why: additive float mask (0 on real keys, -inf on padding) passed to SDPA; every query has at least one real key
# requires: torch2
import torch
import torch.nn as nn
import torch.nn.functional as F


def additive_padding_mask(ids, pad_id, dtype=torch.float32):
    mask = torch.zeros(ids.shape, dtype=dtype)
    mask = mask.masked_fill(ids == pad_id, float("-inf"))
    return mask[:, None, None, :]  # [B, 1, 1, S]


class TextEncoder(nn.Module):
    def __init__(self, vocab=256, width=64, heads=8, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.heads = heads
        self.embed = nn.Embedding(vocab, width, padding_idx=pad_id)
        self.qkv = nn.Linear(width, 3 * width)
        self.mlp = nn.Sequential(nn.Linear(width, width), nn.ReLU())

    def forward(self, ids):
        x = self.embed(ids)
        B, T, W = x.shape
        q, k, v = self.qkv(x).reshape(B, T, 3, self.heads, W // self.heads).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        attn = F.scaled_dot_product_attention(q, k, v, attn_mask=additive_padding_mask(ids, self.pad_id))
        x = x + attn.transpose(1, 2).reshape(B, T, W)
        return self.mlp(x)


if __name__ == "__main__":
    torch.manual_seed(27)
    ids = torch.tensor([[3, 77, 120, 4, 0, 0, 0], [3, 9, 18, 200, 66, 31, 4]])
    print(TextEncoder()(ids).shape)
