# case: b27-01-clean
# modelled-on: jeongwonkwak/Korean-to-English-NMT https://github.com/jeongwonkwak/Korean-to-English-NMT/commit/333ba7c069001ff0627b60fb06f72b00ca019cf3
# label: correct
# class: clean
# pattern: a Korean-to-English LSTM translator with Luong "general" attention: the decoder's output at one step is projected by a bias-free Linear, the encoder states (batch, length, hidden) are multiplied with it by torch.bmm into (batch, length) scores, a padding mask built in the seq2seq module from the source lengths (1 on the padded tail, 0 on real tokens, then bool) is written into the scores in place with masked_fill_(mask, -inf), and an nn.Softmax(dim=-1) built in __init__ normalises them before a second bmm forms the context vector
# why: correct: the mask is True exactly on padded source positions and masked_fill_ writes -inf there, so padding gets zero weight; every row keeps at least one real token (lengths are at least 1), so -inf makes no NaN; the scores are 2-D (batch, source length) and dim=-1 is the source axis; Luong's general score has no 1/sqrt(d) by design and the keys need no transpose in bmm(h_src, query)
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/jeongwonkwak/Korean-to-English-NMT https://github.com/jeongwonkwak/Korean-to-English-NMT/commit/333ba7c069001ff0627b60fb06f72b00ca019cf3 simple_nmt/attention.py
import torch
import torch.nn as nn


class GeneralAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, enc_states, dec_state, pad_mask=None):
        # enc_states: (batch, src_len, hidden); dec_state: (batch, 1, hidden); pad_mask: (batch, src_len)
        query = self.proj(dec_state.squeeze(1)).unsqueeze(-1)  # (batch, hidden, 1)
        scores = torch.bmm(enc_states, query).squeeze(-1)  # (batch, src_len)
        if pad_mask is not None:
            # positions set to 1 in the mask are padding: they get -inf, hence weight 0 after the softmax
            scores.masked_fill_(pad_mask, -float("inf"))
        weights = self.softmax(scores)
        context = torch.bmm(weights.unsqueeze(1), enc_states)  # (batch, 1, hidden)
        return context
