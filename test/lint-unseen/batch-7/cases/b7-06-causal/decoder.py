import torch
import torch.nn as nn

from attention import ImageConditionedAttention
from config import Config


class ReportDecoder(nn.Module):
    def __init__(self, config=Config):
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.d_model)
        self.wpe = nn.Embedding(config.max_seq_len, config.d_model)
        self.layers = nn.ModuleList([ImageConditionedAttention(config) for _ in range(config.num_layers)])
        self.ln_f = nn.LayerNorm(config.d_model)
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)

    def forward(self, input_ids, attention_mask, image_hidden_states=None, past=None, use_cache=False):
        # attention_mask: (B, S) from the tokenizer, 1 = real token, 0 = padding; the image slot is always kept
        if past is None:
            keep = torch.cat([torch.ones_like(attention_mask[:, :1]), attention_mask], dim=1)
        else:
            keep = attention_mask
        extended = (1.0 - keep[:, None, None, :].float()) * -1e4
        past = past or [None] * len(self.layers)
        T0 = 0 if past[0] is None else past[0][0].size(2) - 1
        pos = torch.arange(T0, T0 + input_ids.size(1), device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(pos)
        presents = []
        for layer, lp in zip(self.layers, past):
            h, p = layer(x, extended, image_hidden_states, layer_past=lp, use_cache=use_cache)
            x = x + h
            presents.append(p)
        return self.lm_head(self.ln_f(x)), presents
