# case: t44ee-06-clean
# modelled-on: nguyenduc13475/Text-Summarization https://github.com/nguyenduc13475/Text-Summarization/commit/26dde37e91101cd572c109dfbf7d41eba477cf2f
# label: correct
# class: clean
# pattern: the intra-temporal attention of Paulus et al.'s summariser, one decoder step: bilinear scores against the encoder states (`@ enc.transpose(1, 2)` on 3-D states), clamped, exponentiated, divided by the running sum of earlier steps' exponentials; padded source positions are set to 0.0 with `masked_fill(pad, 0.0)` and the result is divided by its own sum; the decoder's self-attention over earlier decoder states is an ordinary softmax
# why: correct: the zero is written into exponentiated scores, which are then normalised by their sum, so a padded position gets weight exactly 0, which is what masking means here (no softmax follows the fill); the transposes put the encoder length last for a batched matrix product of 3-D tensors
# looks-like: ATT005, ATT006, ATT007
# source: https://github.com/nguyenduc13475/Text-Summarization https://github.com/nguyenduc13475/Text-Summarization/commit/26dde37e91101cd572c109dfbf7d41eba477cf2f src/models/neural_intra_attention_model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class IntraAttentionStep(nn.Module):
    def __init__(self, hidden, device="cpu"):
        super().__init__()
        self.hidden = hidden
        self.device = device
        self.w_enc = nn.Parameter(torch.empty(hidden, 2 * hidden))
        self.w_dec = nn.Parameter(torch.empty(hidden, hidden))
        nn.init.xavier_uniform_(self.w_enc)
        nn.init.xavier_uniform_(self.w_dec)

    def forward(self, dec_h, enc_states, past_exp, past_dec, src_pad, first):
        # dec_h: (B, H); enc_states: (B, S, 2H); past_exp: (B, S); past_dec: (B, t, H); src_pad: (B, S) True at <pad>
        e = ((dec_h @ self.w_enc).unsqueeze(1) @ enc_states.transpose(1, 2)).squeeze(1).clamp(-10, 10)
        temporal = torch.exp(e) if first else torch.exp(e) / (past_exp + 1e-5)
        temporal = temporal.masked_fill(src_pad, 0.0)
        enc_weights = temporal / (temporal.sum(dim=1, keepdim=True) + 1e-9)
        enc_ctx = torch.bmm(enc_weights.unsqueeze(1), enc_states).squeeze(1)
        past_exp = past_exp + torch.exp(e)

        if first:
            dec_ctx = torch.zeros(dec_h.size(0), self.hidden, device=self.device)
        else:
            d = ((dec_h @ self.w_dec).unsqueeze(1) @ past_dec.transpose(1, 2)).squeeze(1)
            dec_weights = F.softmax(d, dim=1)
            dec_ctx = torch.bmm(dec_weights.unsqueeze(1), past_dec).squeeze(1)

        past_dec = torch.cat([past_dec, dec_h.unsqueeze(1)], dim=1)
        return enc_ctx, dec_ctx, enc_weights, past_exp, past_dec


def run_decoder(step, lstm, embed, src_ids, enc_states, h, c, targets, pad_id):
    src_pad = src_ids == pad_id
    past_exp = torch.zeros(enc_states.shape[:2], device=enc_states.device)
    past_dec = enc_states.new_zeros(enc_states.size(0), 0, h.size(-1))
    outs = []
    for t in range(targets.size(1)):
        _, (h, c) = lstm(embed(targets[:, t]).unsqueeze(1), (h, c))
        enc_ctx, dec_ctx, _, past_exp, past_dec = step(h[-1], enc_states, past_exp, past_dec, src_pad, t == 0)
        outs.append(torch.cat([h[-1], enc_ctx, dec_ctx], dim=-1))
    return torch.stack(outs, dim=1)
