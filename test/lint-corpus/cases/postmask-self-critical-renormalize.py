# case: postmask-self-critical-renormalize
# modelled-on: ruotianluo/self-critical.pytorch https://github.com/ruotianluo/self-critical.pytorch/issues/89
# label: correct
# pattern: captioning attention over a variable number of region features: softmax over all regions (dim=1 of (B, att_size)), then multiply by the 0/1 region mask and divide by the new row sum
# why: masking after the softmax and renormalising gives exactly the softmax over the real regions (a reporter in #89 thought otherwise; the author's reply is right); additive attention needs no sqrt(d)
# looks-like: ATT001, ATT003, ATT006
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, rnn_size: int, att_hid_size: int):
        super().__init__()
        self.rnn_size = rnn_size
        self.att_hid_size = att_hid_size
        self.h2att = nn.Linear(rnn_size, att_hid_size)
        self.alpha_net = nn.Linear(att_hid_size, 1)

    def forward(self, h, att_feats, p_att_feats, att_masks=None):
        # att_feats: (B, att_size, rnn_size); p_att_feats: (B, att_size, att_hid); att_masks: (B, att_size) 0/1
        att_size = att_feats.numel() // att_feats.size(0) // att_feats.size(-1)
        att = p_att_feats.view(-1, att_size, self.att_hid_size)
        att_h = self.h2att(h).unsqueeze(1).expand_as(att)  # (B, att_size, att_hid)
        dot = torch.tanh(att + att_h)
        dot = self.alpha_net(dot.view(-1, self.att_hid_size)).view(-1, att_size)  # (B, att_size)

        weight = F.softmax(dot, dim=1)
        if att_masks is not None:
            weight = weight * att_masks.view(-1, att_size).to(weight)
            weight = weight / weight.sum(1, keepdim=True)
        att_feats_ = att_feats.view(-1, att_size, att_feats.size(-1))
        return torch.bmm(weight.unsqueeze(1), att_feats_).squeeze(1)  # (B, rnn_size)
