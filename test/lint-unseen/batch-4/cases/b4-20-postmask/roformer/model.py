# case: b4-20-postmask
# modelled-on: IDEA-CCNL/Fengshenbang-LM https://github.com/IDEA-CCNL/Fengshenbang-LM/commit/f317cade068bef54efbf881632648f7f02d46155
# label: buggy
# class: real-bug
# pattern: a RoFormer (rotary BERT) adapted for UniLM-style generation: the model replaces the library's extended additive mask with a helper in masking.py that returns a bool (b, 1, s, s) mask, True where attention is not allowed (padding pairs, and later positions of the generated segment); every layer's self-attention receives it and, as the library's additive convention would, adds it to the scaled scores before the softmax
# why: the mask is a bool True-where-hidden mask, not an additive 0 / -10000 bias: adding it raises the hidden positions' logits by 1 instead of removing them, so padding and future tokens are attended (more than the others); commit f317cad ("fix attention_mask") writes -1e8 at the True positions with masked_fill
# source: https://github.com/IDEA-CCNL/Fengshenbang-LM https://github.com/IDEA-CCNL/Fengshenbang-LM/commit/f317cade068bef54efbf881632648f7f02d46155 model/roformer/modeling_roformer.py
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
