# case: b28-02-clean
# modelled-on: pseulki/Deep-Learning-Paper https://github.com/pseulki/Deep-Learning-Paper/commit/0ac7a5f769088be974793f7d47da8e5720e4dac0
# label: correct
# class: clean
# pattern: a paper re-implementation of soft (deterministic) attention for image captioning: VGG features flattened to (N, L=196, D=512), an additive score att_w(relu(W_v feats + W_h h + bias)) squeezed to (N, L), nn.Softmax(dim=1) over the L image regions, the context a weighted sum over dim 1; the decoder calls it once per time step
# why: correct: the scores are 2-D (N, L) after squeeze(2), so dim=1 is the region axis and each row of alpha sums to one over the 196 regions; additive attention has no dot-product scale; nothing is masked (every image has all 196 regions)
# looks-like: ATT001, ATT003
# source: https://github.com/pseulki/Deep-Learning-Paper https://github.com/pseulki/Deep-Learning-Paper/commit/0ac7a5f769088be974793f7d47da8e5720e4dac0 Show_Attend_Tell/model.py
import torch
import torch.nn as nn


class CaptionDecoder(nn.Module):
    def __init__(self, embed_dim, feat_dim, n_regions, hidden_dim, vocab_size, dropout_ratio=0.5):
        super().__init__()
        self.feat_dim = feat_dim
        self.hidden_dim = hidden_dim
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.lstm_cell = nn.LSTMCell(embed_dim + feat_dim, hidden_dim)
        self.fc_dropout = nn.Dropout(dropout_ratio)
        self.fc_out = nn.Linear(hidden_dim, vocab_size)
        self.feat_proj = nn.Linear(feat_dim, feat_dim, bias=False)
        self.state_proj = nn.Linear(hidden_dim, feat_dim, bias=False)
        self.region_bias = nn.Parameter(torch.zeros(n_regions))
        self.score = nn.Linear(feat_dim, 1, bias=False)

    def _soft_attend(self, regions, state):
        # regions: N x L x D, state: N x H
        f_proj = self.feat_proj(regions)
        h_proj = self.state_proj(state).unsqueeze(1)
        hidden = nn.ReLU()(f_proj + h_proj + self.region_bias.view(1, -1, 1))
        energies = self.score(hidden).squeeze(2)  # N x L
        alpha = nn.Softmax(dim=1)(energies)
        context = torch.sum(regions * alpha.unsqueeze(2), 1)
        return context, alpha

    def greedy(self, feature, max_len=20):
        batch_size = feature.size(0)
        words = self.embed(torch.ones(batch_size, 1, dtype=torch.long)).squeeze(1)
        h = torch.zeros(batch_size, self.hidden_dim)
        c = torch.zeros(batch_size, self.hidden_dim)
        ctx = torch.mean(feature, 1)
        sampled, alphas = [], []
        for step in range(max_len):
            if step != 0:
                ctx, alpha = self._soft_attend(feature, h)
                alphas.append(alpha)
            h, c = self.lstm_cell(torch.cat([ctx, words], 1), (h, c))
            predicted = self.fc_out(h).max(1)[1]
            sampled.append(predicted.unsqueeze(1))
            words = self.embed(predicted)
        return torch.cat(sampled, 1), alphas
