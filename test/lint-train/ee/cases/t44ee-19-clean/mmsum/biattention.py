# case: t44ee-19-clean
# modelled-on: amankhullar/MMBiDAF https://github.com/amankhullar/MMBiDAF/commit/510a0c4f3bdeb7a84fb1554d8daee6b3fada3d61
# label: correct
# class: clean
# pattern: a multimodal summariser that runs BiDAF-style bidirectional attention between transcript sentences and another modality (audio envelopes or video keyframes): the similarity matrix is (batch, text, modality); a soft-masking helper blends `mask * logits + (1 - mask) * -1e30` and softmaxes over a given dim; the modality mask is viewed (B, 1, M) for the softmax over dim=2 and the text mask (B, T, 1) for the softmax over dim=1; the model (another file) builds every mask from lengths as `arange(maxlen) < lengths` (True at real steps)
# why: correct: each of the two softmaxes is masked along the axis it normalises, with masks that are True at the real steps the blend keeps; -1e30 is a float32 fill (nothing in view runs in half precision); `transpose(1, 2)` of the 3-D modality is the key transpose of a batched product
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/amankhullar/MMBiDAF https://github.com/amankhullar/MMBiDAF/commit/510a0c4f3bdeb7a84fb1554d8daee6b3fada3d61 layers/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def soft_masked(logits, mask, dim=-1, log=False):
    """Softmax over `dim` that gives (almost) zero probability where mask is 0."""
    mask = mask.type(torch.float32)
    kept = mask * logits + (1 - mask) * -1e30
    return (F.log_softmax if log else F.softmax)(kept, dim)


class TextModalityAttention(nn.Module):
    def __init__(self, hidden, p=0.1):
        super().__init__()
        self.p = p
        self.w_text = nn.Parameter(torch.zeros(hidden, 1))
        self.w_mod = nn.Parameter(torch.zeros(hidden, 1))
        self.w_both = nn.Parameter(torch.zeros(1, 1, hidden))
        for w in (self.w_text, self.w_mod, self.w_both):
            nn.init.xavier_uniform_(w)
        self.bias = nn.Parameter(torch.zeros(1))

    def similarity(self, text, mod):
        T, M = text.size(1), mod.size(1)
        text = F.dropout(text, self.p, self.training)
        mod = F.dropout(mod, self.p, self.training)
        a = torch.matmul(text, self.w_text).expand([-1, -1, M])
        b = torch.matmul(mod, self.w_mod).transpose(1, 2).expand([-1, T, -1])
        c = torch.matmul(text * self.w_both, mod.transpose(1, 2))
        return a + b + c + self.bias  # (B, T, M)

    def forward(self, text, mod, text_mask, mod_mask):
        B, T, _ = text.size()
        M = mod.size(1)
        s = self.similarity(text, mod)
        t2m = soft_masked(s, mod_mask.view(B, 1, M), dim=2)
        m2t = soft_masked(s, text_mask.view(B, T, 1), dim=1)
        a = torch.bmm(t2m, mod)
        b = torch.bmm(torch.bmm(t2m, m2t.transpose(1, 2)), text)
        return torch.cat([text, a, text * a, text * b], dim=2)
