import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerGenerator(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W_h = nn.Linear(hidden, hidden, bias=False)
        self.W_s = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)
        self.p_gen_linear = nn.Linear(2 * hidden, 1)

    def forward(self, enc_out, dec_state, vocab_dist, src_ids):
        # enc_out: (B, S, H), dec_state: (B, H)
        query = self.W_s(dec_state).unsqueeze(1)
        keys = self.W_h(enc_out)
        scores = self.v(torch.tanh(keys + query)).squeeze(-1)
        attn = F.softmax(scores, dim=-1)
        context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        p_gen = torch.sigmoid(self.p_gen_linear(torch.cat([context, dec_state], -1)))
        attn_scale = 1 - p_gen
        copy = attn * attn_scale
        return (vocab_dist * p_gen).scatter_add(1, src_ids, copy)
