# case: b38-12-clean
# modelled-on: open-mmlab/mmaction2 https://github.com/open-mmlab/mmaction2/commit/4d6c93474730cad2f25e51109adcf96824efc7a3
# label: correct
# class: clean
# pattern: the sentence encoder of a temporal video-grounding model (DRN) in a video toolbox (a folder: the encoder and the length-mask helper): a bidirectional LSTM encodes the padded query words (pack_padded_sequence), a global query vector is formed from the first and last valid states, and three times a word-level attention is computed: the projected global vector gates every word state elementwise, a linear layer maps each word to one score, the helper fills the scores at positions >= the sentence length with -1e30, a softmax over the words gives the weights and a batched matmul sums the word states
# why: correct: the helper marks padded positions (index >= length) as the ones to fill, which is the right polarity; -1e30 is representable in the fp32 scores this module computes (no half precision anywhere); the score is a learned elementwise-gated linear function, not a dot product of width d, so no 1/sqrt(d) scale applies; the softmax is over the word axis that the bmm then sums
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/open-mmlab/mmaction2 https://github.com/open-mmlab/mmaction2/commit/4d6c93474730cad2f25e51109adcf96824efc7a3 mmaction/models/localizers/drn/drn_utils/language_module.py
from typing import List

import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from length_mask import mask_beyond_length


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size: int, hidden: int = 512, embed: int = 300, levels: int = 3) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size + 1, embed, padding_idx=0)
        self.lstm = nn.LSTM(embed, hidden, num_layers=1, batch_first=True, bidirectional=True)
        self.global_proj = nn.Linear(hidden * 4, hidden)
        self.level_proj = nn.ModuleList(nn.Linear(hidden, hidden * 2) for _ in range(levels))
        self.word_score = nn.Linear(hidden * 2, 1)
        self.levels = levels

    def attend_words(self, summary: Tensor, words: Tensor, lengths: Tensor, level: int) -> Tensor:
        gate = self.level_proj[level](self.global_proj(summary).relu())
        scores = self.word_score(gate[:, None, :] * words).squeeze(-1)
        scores = mask_beyond_length(scores, lengths)
        weights = scores.softmax(dim=-1)
        return torch.bmm(weights.unsqueeze(1), words).squeeze(1)

    def forward(self, tokens: Tensor, lengths: Tensor) -> List[Tensor]:
        self.lstm.flatten_parameters()
        packed = pack_padded_sequence(self.embed(tokens), lengths.cpu(), batch_first=True)
        words, _ = self.lstm(packed)
        words, _ = pad_packed_sequence(words, batch_first=True)

        summary = torch.stack([
            torch.cat((words[i, 0], words[i, n - 1]), dim=-1) for i, n in enumerate(lengths)
        ])
        return [self.attend_words(summary, words, lengths, level) for level in range(self.levels)]
