# case: t44ff-03-clean
# modelled-on: xu-song/attention-pytorch https://github.com/xu-song/attention-pytorch/commit/c8b323cc32da90de233309dec249eb5198dc0f39
# label: correct
# class: clean
# pattern: aspect-level sentiment attention (ATAE and a self-attention variant) over unbatched encoder outputs (L, H): the aspect vector repeated L times, `tanh(cat(...)).mm(w)` gives (L, 1), transposed to (1, L) and softmaxed over `dim=1`; the weights `bmm`-ed with the outputs after an `unsqueeze(0)`
# why: correct: after the transpose the energies are (1, L), one row holding the L positions, so `dim=1` normalises over the positions that the bmm sums over; dim 0 has size 1
# looks-like: ATT001
# source: https://github.com/xu-song/attention-pytorch https://github.com/xu-song/attention-pytorch/commit/c8b323cc32da90de233309dec249eb5198dc0f39 decoder.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class AspectAttentionHead(nn.Module):
    """The classifier acts as an attention decoder that emits one label per aspect."""

    def __init__(self, hidden, n_aspects, n_labels, mode="atae"):
        super().__init__()
        self.hidden = hidden
        self.mode = mode
        self.aspect_emb = nn.Embedding(n_aspects, hidden)
        self.cls = nn.Linear(hidden, n_labels)
        self.log_softmax = nn.LogSoftmax(dim=1)
        self.w_h = nn.Parameter(torch.randn(hidden, hidden))
        self.w_v = nn.Parameter(torch.randn(hidden, hidden))
        self.w = nn.Parameter(torch.randn(hidden, 1))
        self.w2 = nn.Parameter(torch.randn(hidden * 2, 1))

    def weights(self, aspect, enc):
        n = enc.shape[0]
        if self.mode == "atae":
            m = torch.tanh(torch.cat((aspect.repeat(n, 1).mm(self.w_v), enc.mm(self.w_h)), 1))
            energy = m.mm(self.w2).transpose(0, 1)
            return F.softmax(energy, dim=1)
        if self.mode == "self":
            m = torch.tanh(enc.mm(self.w_h))
            energy = m.mm(self.w).transpose(0, 1)
            return F.softmax(energy, dim=1)
        return torch.full((1, n), 1.0 / n)

    def forward(self, aspect, enc):
        a = self.aspect_emb(aspect).view(1, 1, -1)
        alpha = self.weights(a[0], enc)
        pooled = torch.bmm(alpha.unsqueeze(0), enc.unsqueeze(0))
        return self.log_softmax(self.cls(pooled[0])), alpha
