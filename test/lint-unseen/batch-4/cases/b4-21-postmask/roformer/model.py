# case: b4-21-postmask
# modelled-on: IDEA-CCNL/Fengshenbang-LM https://github.com/IDEA-CCNL/Fengshenbang-LM/commit/f317cade068bef54efbf881632648f7f02d46155
# label: correct
# class: fixed
# pattern: the same RoFormer UniLM model after the fix: the bool (b, 1, s, s) mask from masking.py (True where attention is not allowed) is written into the scaled scores with masked_fill(mask, torch.tensor(-1e8)) before the softmax; the model runs in float32
# why: correct: True marks the hidden pairs and they get a large negative logit before the softmax; -1e8 is representable in float32 (the half-precision trouble with this constant is b4-22)
# looks-like: ATT002, ATT006, ATT007
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
