# case: t26s-06-clean
# modelled-on: zingp/pointer-generator-pytorch https://github.com/zingp/pointer-generator-pytorch/commit/759193817cef5d1148507b342330230e61be74cc
# label: correct
# class: clean
# pattern: a pointer-generator summariser's Bahdanau attention with optional coverage, flags and widths from a plain config module: the batching module builds a float enc_padding_mask, 1.0 on article positions; the attention reshapes v(tanh(...)) to (B, t_k), takes F.softmax(scores, dim=1), multiplies the probabilities by enc_padding_mask and divides by their sum over dim 1 (keepdim) to renormalise, then bmm's the (B, 1, t_k) weights with the encoder outputs
# why: correct: softmax over dim=1 of (B, t_k) is over the source positions; multiplying the probabilities by the 0/1 mask after the softmax and renormalising by the row sum gives exactly the softmax restricted to the real tokens (the same as masking the logits with -inf first), so the padded positions get zero weight and every row sums to one; the mask is 1 on tokens, so the product keeps the right entries
# looks-like: ATT001, ATT002, ATT006
# source: https://github.com/zingp/pointer-generator-pytorch https://github.com/zingp/pointer-generator-pytorch/commit/759193817cef5d1148507b342330230e61be74cc model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from pgn import config


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        if config.is_coverage:
            self.W_c = nn.Linear(1, config.hidden_dim * 2, bias=False)
        self.decode_proj = nn.Linear(config.hidden_dim * 2, config.hidden_dim * 2)
        self.v = nn.Linear(config.hidden_dim * 2, 1, bias=False)

    def forward(self, s_t_hat, encoder_outputs, encoder_feature, enc_padding_mask, coverage):
        b, t_k, n = list(encoder_outputs.size())
        dec_fea = self.decode_proj(s_t_hat).unsqueeze(1).expand(b, t_k, n).contiguous().view(-1, n)
        att_features = encoder_feature + dec_fea  # B * t_k x 2H
        if config.is_coverage:
            att_features = att_features + self.W_c(coverage.view(-1, 1))
        scores = self.v(torch.tanh(att_features)).view(-1, t_k)  # B x t_k

        attn_dist_ = F.softmax(scores, dim=1) * enc_padding_mask  # B x t_k
        normalization_factor = attn_dist_.sum(1, keepdim=True)
        attn_dist = attn_dist_ / normalization_factor

        attn_dist = attn_dist.unsqueeze(1)  # B x 1 x t_k
        c_t = torch.bmm(attn_dist, encoder_outputs).view(-1, config.hidden_dim * 2)
        attn_dist = attn_dist.view(-1, t_k)
        if config.is_coverage:
            coverage = coverage.view(-1, t_k) + attn_dist
        return c_t, attn_dist, coverage
