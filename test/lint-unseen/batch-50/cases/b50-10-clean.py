# case: b50-10-clean
# modelled-on: mitjanikolaus/compositional-image-captioning https://github.com/mitjanikolaus/compositional-image-captioning/commit/355c68597545dbd7d01de4ea19263d09ddb644d3
# label: correct
# class: clean
# pattern: a bottom-up / top-down captioning decoder (Anderson et al. 2018): an attention LSTM reads the mean region feature, the language LSTM state and the previous word; a visual attention module scores each of the R region features (batch, R, 2048) against the attention LSTM state with a one-unit linear layer over tanh, normalises the (batch, R, 1) scores with nn.Softmax(dim=1) and sums the regions weighted by them; the attended feature drives the language LSTM
# why: correct: the scores keep a trailing singleton axis, (batch, R, 1), so dim=1 is the region axis and each image's weights over its regions sum to one (dim=-1 would be the length-1 axis); the weights broadcast over the 2048 feature channels before the sum over dim=1; additive attention carries no 1/sqrt(d) factor; every image has the same number of detected regions, so there is nothing to mask
# looks-like: ATT001, ATT003
# source: https://github.com/mitjanikolaus/compositional-image-captioning https://github.com/mitjanikolaus/compositional-image-captioning/commit/355c68597545dbd7d01de4ea19263d09ddb644d3 models/bottom_up_top_down.py
import torch
from torch import nn


class RegionAttention(nn.Module):
    def __init__(self, feat_dim, state_dim, hidden):
        super().__init__()
        self.from_regions = nn.Linear(feat_dim, hidden, bias=False)
        self.from_state = nn.Linear(state_dim, hidden, bias=False)
        self.score = nn.Linear(hidden, 1)
        self.normalise = nn.Softmax(dim=1)

    def forward(self, regions, state):
        # regions: (batch, R, feat_dim); state: (batch, state_dim)
        joint = torch.tanh(self.from_regions(regions) + self.from_state(state).unsqueeze(1))
        alpha = self.normalise(self.score(joint))  # (batch, R, 1)
        return (alpha * regions).sum(dim=1)


class TopDownCaptioner(nn.Module):
    def __init__(self, vocab_size, word_dim=1000, feat_dim=2048, att_lstm=1000, lang_lstm=1000, att_hidden=512, dropout=0.0):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, word_dim)
        self.att_cell = nn.LSTMCell(lang_lstm + feat_dim + word_dim, att_lstm)
        self.lang_cell = nn.LSTMCell(att_lstm + feat_dim, lang_lstm)
        self.attend = RegionAttention(feat_dim, att_lstm, att_hidden)
        self.drop = nn.Dropout(dropout)
        self.vocab_out = nn.Linear(lang_lstm, vocab_size)
        self.init_states = nn.ModuleList(
            [nn.Linear(feat_dim, n) for n in (att_lstm, att_lstm, lang_lstm, lang_lstm)]
        )

    def start(self, regions):
        mean = regions.mean(dim=1)
        return [layer(mean) for layer in self.init_states]

    def step(self, regions, prev_word, states):
        h_att, c_att, h_lang, c_lang = states
        mean = regions.mean(dim=1)
        h_att, c_att = self.att_cell(torch.cat((h_lang, mean, self.embed(prev_word)), dim=1), (h_att, c_att))
        attended = self.attend(regions, h_att)
        h_lang, c_lang = self.lang_cell(torch.cat((h_att, attended), dim=1), (h_lang, c_lang))
        return self.vocab_out(self.drop(h_lang)), [h_att, c_att, h_lang, c_lang]

    def forward(self, regions, captions):
        states = self.start(regions)
        outputs = []
        for t in range(captions.size(1) - 1):
            scores, states = self.step(regions, captions[:, t], states)
            outputs.append(scores)
        return torch.stack(outputs, dim=1)
