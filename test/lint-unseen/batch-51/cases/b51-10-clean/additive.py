# case: b51-10-clean
# modelled-on: Zamurai110/nmt-bahdanau-attention https://github.com/Zamurai110/nmt-bahdanau-attention/commit/1212750785a01284ecd88119659b8b2882d558dd
# label: correct
# class: clean
# pattern: a GRU translation model with Bahdanau (additive) attention, all time-first (a folder: the collate function that pads sentences into (src_len, batch) tensors; the attention module, whose energies v^T tanh(W h_j + U s) come out as (src_len, batch), are filled with -1e9 where a boolean source mask (True at pads) is set, normalised by softmax(dim=0) and used to weight the encoder states summed over dim 0; and the decoder and teacher-forcing wrapper that build the mask as src == PAD_IDX and pass it at every step)
# why: correct: everything is laid out (src_len, batch), so dim=0 is the source-position axis the weights must sum over, and the context sums over the same axis; the mask is True at pads, the positions masked_fill must blank; additive attention has no dot-product scale to apply; -1e9 is a fill in float32 energies
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/Zamurai110/nmt-bahdanau-attention https://github.com/Zamurai110/nmt-bahdanau-attention/commit/1212750785a01284ecd88119659b8b2882d558dd model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    """e_j = v . tanh(W h_j + U s);  a = softmax over j;  c = sum_j a_j h_j."""

    def __init__(self, enc_width: int, dec_width: int):
        super().__init__()
        self.from_enc = nn.Linear(enc_width, dec_width, bias=False)
        self.from_dec = nn.Linear(dec_width, dec_width, bias=False)
        self.score = nn.Linear(dec_width, 1, bias=False)

    def forward(self, state, memory, pad=None):
        # state: (batch, dec_width); memory: (src_len, batch, enc_width); pad: (src_len, batch), True at <pad>
        steps = memory.shape[0]
        query = state.unsqueeze(0).expand(steps, -1, -1)
        energy = self.score(torch.tanh(self.from_enc(memory) + self.from_dec(query))).squeeze(-1)
        if pad is not None:
            energy = energy.masked_fill(pad, -1e9)
        weights = F.softmax(energy, dim=0)
        context = (weights.unsqueeze(-1) * memory).sum(dim=0)
        return context, weights.transpose(0, 1)
