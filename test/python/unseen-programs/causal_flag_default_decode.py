# label: buggy
# why: the attention helper defaults to causal=True and the decoding step calls it without the flag: one new query is causally masked against the cached keys
# requires: torch2
# tags: parameter-default
import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v, causal=True):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)  # expect: ATT008


class Decoder(nn.Module):
    def __init__(self, vocab=90, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.emb = nn.Embedding(vocab, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.lm = nn.Linear(d, vocab)

    def step(self, ids, past):
        x = self.emb(ids)
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        y = attention(q, k, v)
        return self.lm(x + y.transpose(1, 2).reshape(B, T, D)), (k, v)


if __name__ == "__main__":
    torch.manual_seed(42)
    model = Decoder().eval()
    ids = torch.tensor([[5, 61, 12, 7]])
    with torch.no_grad():
        logits, past = model.step(ids, None)
        for _ in range(5):
            nxt = logits[:, -1:].argmax(-1)
            ids = torch.cat([ids, nxt], 1)
            logits, past = model.step(nxt, past)
    print(ids.tolist())
