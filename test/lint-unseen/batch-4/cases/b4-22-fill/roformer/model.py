import torch
import torch.nn as nn

from .attention import RotarySelfAttention
from .masking import unilm_mask


class RoFormerUniLM(nn.Module):
    def __init__(self, vocab_size, hidden_size, num_heads, num_layers, rope):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.layers = nn.ModuleList([RotarySelfAttention(hidden_size, num_heads, rope) for _ in range(num_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(hidden_size) for _ in range(num_layers)])

    def forward(self, input_ids, attention_mask=None, token_type_ids=None):
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        extended = unilm_mask(attention_mask, token_type_ids)
        h = self.embed(input_ids)
        for attn, norm in zip(self.layers, self.norms):
            h = norm(h + attn(h, attention_mask=extended))
        return h
