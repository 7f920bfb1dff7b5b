# case: b58-02-clean
# modelled-on: ai4popugai/image-caption https://github.com/ai4popugai/image-caption/commit/9366f6e14b2fdcdc6c2ac8b2545a0042f3afc108
# label: correct
# class: clean
# pattern: a show-attend-and-tell caption decoder (a folder: the attention module holds one dot-product helper whose `scaled` flag divides by sqrt(d) only when asked, a single-head glimpse attention of the decoder's GRU state over the encoder's region features that calls it unscaled, and a multi-head layer that calls it scaled; the decoder steps the GRU one word at a time, attending with the last layer's state)
# why: correct: the single-head glimpse is a Luong-style dot score of one query against the image regions, which the model defines without a temperature (the helper's flag keeps it unscaled on purpose, and the multi-head layer turns the scale on), so there is no missing sqrt(d) of the rules' kind; the softmax runs over the last axis, the regions; no mask is passed because every image has the same number of regions, and the helper's mask convention (0 = hidden) is the one the multi-head layer uses
# looks-like: ATT003, ATT004
# source: https://github.com/ai4popugai/image-caption https://github.com/ai4popugai/image-caption/commit/9366f6e14b2fdcdc6c2ac8b2545a0042f3afc108 nn_models/attention.py
import torch
from torch import nn

from attn_layers import GlimpseAttention


class GlimpseCaptioner(nn.Module):
    def __init__(self, vocab: int, state_size: int, region_size: int, bos_id: int, eos_id: int,
                 n_layers: int = 4, max_words: int = 15):
        super().__init__()
        self.glimpse = GlimpseAttention(state_size, region_size, out_size=state_size, inner=state_size)
        self.words = nn.Embedding(vocab, state_size)
        self.gru = nn.GRU(2 * state_size, state_size, num_layers=n_layers, batch_first=True)
        self.to_vocab = nn.Linear(state_size, vocab)
        self.n_layers, self.state_size, self.vocab = n_layers, state_size, vocab
        self.bos_id, self.eos_id, self.max_words = bos_id, eos_id, max_words

    def step(self, word_vec: torch.Tensor, state: torch.Tensor, regions: torch.Tensor):
        # the top GRU layer's state is the query: (batch, 1, state_size)
        ctx, probs = self.glimpse(state[-1].unsqueeze(1), regions)
        out, state = self.gru(torch.cat([word_vec.unsqueeze(1), ctx], dim=-1), state)
        return self.to_vocab(out.squeeze(1)), state, probs

    def forward(self, regions: torch.Tensor, captions: torch.Tensor) -> torch.Tensor:
        """regions: (batch, n_regions, region_size); captions: (batch, length) starting with BOS."""
        targets = captions[:, 1:]
        b = regions.size(0)
        state = regions.new_zeros(self.n_layers, b, self.state_size)
        word_vec = self.words(captions[:, 0])
        logits = regions.new_zeros(b, targets.size(1), self.vocab)
        for t in range(targets.size(1)):
            logits[:, t], state, _ = self.step(word_vec, state, regions)
            word_vec = self.words(targets[:, t])
        return logits

    @torch.no_grad()
    def greedy(self, regions: torch.Tensor) -> list[int]:
        state = regions.new_zeros(self.n_layers, 1, self.state_size)
        word_vec = self.words(torch.tensor([self.bos_id], device=regions.device))
        out: list[int] = []
        for _ in range(self.max_words):
            logits, state, _ = self.step(word_vec, state, regions)
            word = int(logits.argmax(-1))
            if word == self.eos_id:
                break
            out.append(word)
            word_vec = self.words(torch.tensor([word], device=regions.device))
        return out
