# case: t28u-03-clean
# modelled-on: jaykay233/ml_models https://github.com/jaykay233/ml_models/commit/5b60b2adfa5e2d82c59189da6398388ba58c6c33
# label: correct
# class: clean
# pattern: annotated study copies of ESPnet's RNN-decoder attentions (speech recognition / TTS): AttDot squashes the encoder projection and the decoder projection with tanh, takes their elementwise product summed over att_dim (B, T), masks padded frames with -inf through make_pad_mask(lengths), and takes F.softmax(scaling * e, dim=1) with a sharpening factor scaling=2.0 and no 1/sqrt(att_dim); AttAdd scores v^T tanh(W h + U s) and uses the same softmax; the context is a sum over frames of enc_h * w
# why: correct: this is ESPnet's published dot attention: both factors are tanh-bounded, so the logits are bounded by att_dim and the caller-chosen inverse temperature `scaling` (2.0 by default, as in the toolkit) sets the sharpness instead of 1/sqrt(d); the scores are (B, T_max) with frames on axis 1, so dim=1 is the frame axis; AttAdd's additive scores are no dot product at all; padded frames are the True entries of make_pad_mask and get -inf
# looks-like: ATT001, ATT003, ATT004
# source: https://github.com/jaykay233/ml_models https://github.com/jaykay233/ml_models/commit/5b60b2adfa5e2d82c59189da6398388ba58c6c33 Attention/Attention.py
import torch
import torch.nn.functional as F


def to_device(m, x):
    if isinstance(m, torch.nn.Module):
        return x.to(next(m.parameters()).device)
    if isinstance(m, torch.Tensor):
        return x.to(m.device)
    raise TypeError("expected torch.nn.Module or torch.Tensor, got {}".format(type(m)))


def make_pad_mask(lengths):
    """(B,) lengths -> (B, T_max) bool, True on padded frames."""
    if not isinstance(lengths, list):
        lengths = lengths.tolist()
    maxlen = int(max(lengths))
    seq_range = torch.arange(0, maxlen, dtype=torch.int64).unsqueeze(0).expand(len(lengths), maxlen)
    return seq_range >= seq_range.new(lengths).unsqueeze(-1)


class AttDot(torch.nn.Module):
    """Dot product attention between a decoder state and every encoder frame."""

    def __init__(self, eprojs, dunits, att_dim, han_mode=False):
        super().__init__()
        self.mlp_enc = torch.nn.Linear(eprojs, att_dim)
        self.mlp_dec = torch.nn.Linear(dunits, att_dim)
        self.dunits = dunits
        self.att_dim = att_dim
        self.han_mode = han_mode
        self.reset()

    def reset(self):
        self.h_length = None
        self.enc_h = None
        self.pre_compute_enc_h = None
        self.mask = None

    def forward(self, enc_hs_pad, enc_hs_len, dec_z, att_prev, scaling=2.0):
        batch = enc_hs_pad.size(0)
        if self.pre_compute_enc_h is None or self.han_mode:
            self.enc_h = enc_hs_pad  # (B, T_max, D_enc)
            self.h_length = self.enc_h.size(1)
            self.pre_compute_enc_h = torch.tanh(self.mlp_enc(self.enc_h))  # (B, T_max, att_dim)
        if dec_z is None:
            dec_z = enc_hs_pad.new_zeros(batch, self.dunits)
        else:
            dec_z = dec_z.view(batch, self.dunits)

        query = torch.tanh(self.mlp_dec(dec_z)).view(batch, 1, self.att_dim)
        e = torch.sum(self.pre_compute_enc_h * query, dim=2)  # (B, T_max)

        if self.mask is None:
            self.mask = to_device(enc_hs_pad, make_pad_mask(enc_hs_len))
        e.masked_fill_(self.mask, -float("inf"))
        w = F.softmax(scaling * e, dim=1)  # over the frames

        c = torch.sum(self.enc_h * w.view(batch, self.h_length, 1), dim=1)  # (B, D_enc)
        return c, w


class AttAdd(torch.nn.Module):
    """Additive (Bahdanau) attention: v^T tanh(W h_enc + U s_dec)."""

    def __init__(self, eprojs, dunits, att_dim, han_mode=False):
        super().__init__()
        self.mlp_enc = torch.nn.Linear(eprojs, att_dim)
        self.mlp_dec = torch.nn.Linear(dunits, att_dim, bias=False)
        self.gvec = torch.nn.Linear(att_dim, 1)
        self.dunits = dunits
        self.att_dim = att_dim
        self.han_mode = han_mode
        self.reset()

    def reset(self):
        self.h_length = None
        self.enc_h = None
        self.pre_compute_enc_h = None
        self.mask = None

    def forward(self, enc_hs_pad, enc_hs_len, dec_z, att_prev, scaling=2.0):
        batch = len(enc_hs_pad)
        if self.pre_compute_enc_h is None or self.han_mode:
            self.enc_h = enc_hs_pad
            self.h_length = self.enc_h.size(1)
            self.pre_compute_enc_h = self.mlp_enc(self.enc_h)  # (B, T_max, att_dim)
        if dec_z is None:
            dec_z = enc_hs_pad.new_zeros(batch, self.dunits)
        else:
            dec_z = dec_z.view(batch, self.dunits)

        dec_z_tiled = self.mlp_dec(dec_z).view(batch, 1, self.att_dim)
        e = self.gvec(torch.tanh(self.pre_compute_enc_h + dec_z_tiled)).squeeze(2)  # (B, T_max)

        if self.mask is None:
            self.mask = to_device(enc_hs_pad, make_pad_mask(enc_hs_len))
        e.masked_fill_(self.mask, -float("inf"))
        w = F.softmax(scaling * e, dim=1)

        c = torch.sum(self.enc_h * w.view(batch, self.h_length, 1), dim=1)
        return c, w
