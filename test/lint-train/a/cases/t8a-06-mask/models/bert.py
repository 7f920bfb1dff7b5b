import torch
import torch.nn as nn

from layers.attention import ParallelSelfAttention


class ExtendedAttnMask(nn.Module):
    def forward(self, attention_mask):
        # 2D tokenizer mask (1 = token, 0 = padding) -> [b, 1, s, s]
        mask_b1s = attention_mask.unsqueeze(1)
        mask_bs1 = attention_mask.unsqueeze(2)
        mask_bss = mask_b1s * mask_bs1
        extended = mask_bss.unsqueeze(1)
        # convert to binary
        extended = extended > 0.5
        return extended


class BertEncoder(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int = 768, num_heads: int = 12, num_layers: int = 12, apply_query_key_layer_scaling: bool = True):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.extended_attn_mask = ExtendedAttnMask()
        self.layers = nn.ModuleList(
            [ParallelSelfAttention(hidden_size, num_heads, apply_query_key_layer_scaling=apply_query_key_layer_scaling, layer_idx=i) for i in range(num_layers)]
        )
        self.norms = nn.ModuleList([nn.LayerNorm(hidden_size) for _ in range(num_layers)])

    def forward(self, input_ids, attention_mask):
        mask = self.extended_attn_mask(attention_mask).to(torch.float32)
        x = self.embed(input_ids)
        for attn, norm in zip(self.layers, self.norms):
            h, _ = attn(norm(x), mask)
            x = x + h
        return x
