# label: correct
# why: weights are masked after the softmax but renormalised right after, which equals masking before it
import torch
import torch.nn as nn


def masked_attention(q, k, v, keep):
    # q: [B, T, D], k/v: [B, S, D], keep: [B, S] bool (True = real token)
    scores = torch.einsum("btd,bsd->bts", q, k) / q.shape[-1] ** 0.5
    probs = scores.softmax(dim=-1)
    probs = probs * keep[:, None, :].to(probs.dtype)
    probs = probs / probs.sum(dim=-1, keepdim=True).clamp_min(1e-9)
    return torch.einsum("bts,bsd->btd", probs, v)


class Reader(nn.Module):
    def __init__(self, vocab=30, dim=32, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.proj_q = nn.Linear(dim, dim)
        self.proj_k = nn.Linear(dim, dim)

    def forward(self, question, passage):
        qh = self.proj_q(self.emb(question))
        ph = self.emb(passage)
        keep = passage != self.pad_id
        return masked_attention(qh, self.proj_k(ph), ph, keep)


if __name__ == "__main__":
    torch.manual_seed(12)
    reader = Reader()
    question = torch.tensor([[3, 9, 4], [7, 2, 11]])
    passage = torch.tensor([[5, 6, 7, 8, 9, 0, 0, 0], [1, 2, 3, 4, 5, 6, 7, 0]])
    print(reader(question, passage).shape)
