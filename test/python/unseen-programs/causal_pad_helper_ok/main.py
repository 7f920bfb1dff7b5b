# label: correct
# why: a small decoder whose mask comes from masks.causal_padding_bias (additive, 0 where allowed, -1e9 on future and right padding)
import torch
import torch.nn as nn
import torch.nn.functional as F

from masks import causal_padding_bias


class DecoderLayer(nn.Module):
    def __init__(self, d=32, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)

    def forward(self, x, bias):
        B, T, D = x.shape
        hd = D // self.heads
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.heads, hd).permute(2, 0, 3, 1, 4)
        att = q @ k.transpose(-2, -1) * hd ** -0.5
        att = att + bias
        att = F.softmax(att, dim=-1)
        return x + self.out((att @ v).transpose(1, 2).reshape(B, T, D))


if __name__ == "__main__":
    torch.manual_seed(38)
    ids = torch.tensor([[11, 4, 9, 2, 0, 0], [3, 8, 8, 15, 6, 2]])
    attention_mask = (ids != 0).long()
    emb = nn.Embedding(20, 32, padding_idx=0)
    layers = nn.ModuleList(DecoderLayer() for _ in range(2))
    x = emb(ids)
    bias = causal_padding_bias(attention_mask)
    for layer in layers:
        x = layer(x, bias)
    loss = F.cross_entropy((x @ emb.weight.t())[:, :-1].reshape(-1, 20), ids[:, 1:].reshape(-1), ignore_index=0)
    print(round(loss.item(), 3))
