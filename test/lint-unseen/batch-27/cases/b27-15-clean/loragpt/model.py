import torch.nn as nn

from loragpt.attention import CausalSelfAttention
from loragpt.utils import get_extended_attention_mask


class GPT2Layer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.self_attention = CausalSelfAttention(config)
        self.attention_dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.attention_layer_norm = nn.LayerNorm(config.hidden_size)
        self.out_layer_norm = nn.LayerNorm(config.hidden_size)
        self.mlp = nn.Sequential(nn.Linear(config.hidden_size, 4 * config.hidden_size), nn.GELU(),
                                 nn.Linear(4 * config.hidden_size, config.hidden_size))

    def forward(self, hidden_states, attention_mask):
        attn = self.self_attention(self.attention_layer_norm(hidden_states), attention_mask)
        hidden_states = hidden_states + self.attention_dense(attn)
        return hidden_states + self.mlp(self.out_layer_norm(hidden_states))


class GPT2Encoder(nn.Module):
    def __init__(self, config, dtype):
        super().__init__()
        self.dtype = dtype
        self.gpt_layers = nn.ModuleList([GPT2Layer(config) for _ in range(config.num_hidden_layers)])

    def forward(self, hidden_states, attention_mask):
        # attention_mask: [batch_size, seq_len], 1 = real token, 0 = padding
        extended_attention_mask = get_extended_attention_mask(attention_mask, self.dtype)
        for layer_module in self.gpt_layers:
            hidden_states = layer_module(hidden_states, extended_attention_mask)
        return hidden_states
