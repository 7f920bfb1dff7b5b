# case: b13-01-mask
# modelled-on: mebenyahia/attention-is-all-you-need https://github.com/mebenyahia/attention-is-all-you-need/commit/820cf7845f44a6d230ab36f68dde82209ce77daa
# label: buggy
# class: real-bug
# pattern: a word-level language model on nn.TransformerEncoder (sequence-first layout) that caches its "square subsequent mask" in self.src_mask; the helper builds an additive float mask from torch.triu(ones) == 1 (0.0 where the mask is True, -inf where it is False) but, unlike the reference helper it was copied from, never transposes it
# why: buggy: triu(ones(sz, sz)) == 1 is True for key j >= query i, so the additive mask puts 0.0 on the diagonal and every later position and -inf on every earlier one: each token attends to itself and the future, never to the past, the reverse of the subsequent (causal) mask the method's name and the reference implementation (PyTorch's word-language-model example, which applies .transpose(0, 1)) intend; the file was deleted later without a fix
# source: https://github.com/mebenyahia/attention-is-all-you-need https://github.com/mebenyahia/attention-is-all-you-need/commit/820cf7845f44a6d230ab36f68dde82209ce77daa TransformerModel/models/transformer.py
import math

import torch
import torch.nn as nn

from models.positional import SinusoidalPositions


class WordLM(nn.Module):
    def __init__(self, vocab: int, d_model: int, n_head: int, d_ff: int, n_layers: int, dropout: float = 0.5):
        super().__init__()
        self.src_mask = None
        self.positions = SinusoidalPositions(d_model, dropout)
        layer = nn.TransformerEncoderLayer(d_model, n_head, d_ff, dropout)
        self.body = nn.TransformerEncoder(layer, n_layers)
        self.embed = nn.Embedding(vocab, d_model)
        self.d_model = d_model
        self.head = nn.Linear(d_model, vocab)
        self.reset_parameters()

    def _square_subsequent_mask(self, size: int) -> torch.Tensor:
        allowed = torch.triu(torch.ones(size, size)) == 1
        return allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, float(0.0))

    def reset_parameters(self) -> None:
        r = 0.1
        self.embed.weight.data.uniform_(-r, r)
        self.head.bias.data.zero_()
        self.head.weight.data.uniform_(-r, r)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        # tokens: (seq, batch)
        if self.src_mask is None or self.src_mask.size(0) != len(tokens):
            self.src_mask = self._square_subsequent_mask(len(tokens)).to(tokens.device)
        x = self.embed(tokens) * math.sqrt(self.d_model)
        x = self.positions(x)
        x = self.body(x, self.src_mask)  # expect: ATT002
        return self.head(x)
