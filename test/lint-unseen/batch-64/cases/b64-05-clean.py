# case: b64-05-clean
# modelled-on: Eleanorhxd/VR https://github.com/Eleanorhxd/VR/commit/4a851c9ece93358481516d3e9462c772afc6aed9
# label: correct
# class: clean
# pattern: two attention modules of a medical-report generator in one file: class-wise spatial attention (a 1x1 conv gives one map per class, each map is flattened to (B, classes, H*W) and softmaxed over dim=2, then `bmm` with the permuted (B, H*W, C) features gives one pooled feature per class), and additive attention of a decoder hidden state over the spatial features (scores (B, S, 1) squeezed to (B, S), softmax over dim=1); a small LSTM step uses both
# why: correct: in the class attention the softmax runs over dim=2 of (B, classes, H*W), the spatial positions, so each class map sums to one over the image, and `bmm` contracts exactly that axis; in the additive attention the scores are squeezed to (B, S) before the softmax, so dim=1 is the spatial axis, not a length-1 one; additive attention has no 1/sqrt(d) factor
# looks-like: ATT001, ATT003
# source: https://github.com/Eleanorhxd/VR https://github.com/Eleanorhxd/VR/commit/4a851c9ece93358481516d3e9462c772afc6aed9 modules/attention.py
import torch
import torch.nn as nn


class ClassMapAttention(nn.Module):
    def __init__(self, channels, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.maps = nn.Conv2d(channels, num_classes, kernel_size=1)

    def forward(self, feats):
        # feats: (B, C, H, W)
        b, c, h, w = feats.shape
        logits = self.maps(feats).view(b, self.num_classes, h * w)
        maps = torch.softmax(logits, dim=2)  # one spatial distribution per class
        flat = feats.view(b, c, h * w).permute(0, 2, 1)  # (B, H*W, C)
        return torch.bmm(maps, flat), maps  # (B, classes, C)


class AdditiveAttention(nn.Module):
    def __init__(self, query_size, feat_size, hidden=512):
        super().__init__()
        self.wq = nn.Linear(query_size, hidden, bias=False)
        self.wf = nn.Linear(feat_size, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, query, feats):
        # query: (B, Q); feats: (B, S, F)
        energy = self.v(torch.tanh(self.wq(query).unsqueeze(1) + self.wf(feats))).squeeze(2)  # (B, S)
        alpha = torch.softmax(energy, dim=1)
        return (feats * alpha.unsqueeze(2)).sum(dim=1), alpha


class ReportStep(nn.Module):
    """One decoding step: attend over the spatial features and the class features, update the LSTM."""

    def __init__(self, channels, num_classes, embed, hidden):
        super().__init__()
        self.cls_att = ClassMapAttention(channels, num_classes)
        self.spatial_att = AdditiveAttention(hidden, channels)
        self.class_att = AdditiveAttention(hidden, channels)
        self.cell = nn.LSTMCell(embed + 2 * channels, hidden)

    def forward(self, word, feats, state):
        h, c = state
        cls_feats, _ = self.cls_att(feats)
        spatial = feats.flatten(2).transpose(1, 2)  # (B, H*W, C)
        ctx_s, _ = self.spatial_att(h, spatial)
        ctx_c, _ = self.class_att(h, cls_feats)
        return self.cell(torch.cat([word, ctx_s, ctx_c], dim=1), (h, c))
