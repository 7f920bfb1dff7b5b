# case: b55-03-clean
# modelled-on: janesjw/cross-attention-distress https://github.com/janesjw/cross-attention-distress/commit/3416c4c4b8d393e29b573b038c8b2738518de1c0
# label: correct
# class: clean
# pattern: a financial-distress classifier fusing three views of a firm (a folder: the model, in which the last annual token and the last quarterly state each query the report's token states through nn.MultiheadAttention with key_padding_mask=~attention_mask.bool(), and a gate softmax weighs the six vectors; the text packer that builds input_ids and a 1/0 attention_mask, 1 on the tokens kept, padded to 512; and the preparation step that stacks them into long tensors)
# why: correct: the packer's mask is the Hugging Face convention (1 = real token), which the text encoder takes as it is; nn.MultiheadAttention's key_padding_mask wants True at padding, so ~mask.bool() is the right polarity; every row keeps at least the [CLS] token (checked), so no query sees only padding; the module scales by the head width itself; the gate softmax is over the six fused vectors (dim=-1 of a (batch, 6) tensor)
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/janesjw/cross-attention-distress https://github.com/janesjw/cross-attention-distress/commit/3416c4c4b8d393e29b573b038c8b2738518de1c0 src/distress/model.py
import torch
from torch import nn


class DistressFusion(nn.Module):
    def __init__(self, text_encoder, d_model=128, heads=4, layers=2):
        super().__init__()
        self.annual_in = nn.Linear(18, d_model)
        self.annual_pos = nn.Parameter(torch.zeros(1, 5, d_model))
        block = nn.TransformerEncoderLayer(d_model, heads, 2 * d_model, 0.2, activation="gelu", batch_first=True)
        self.annual_encoder = nn.TransformerEncoder(block, layers, enable_nested_tensor=False)
        self.quarter_in = nn.Linear(8, d_model)
        self.quarter_rnn = nn.LSTM(d_model, d_model, num_layers=2, dropout=0.3, batch_first=True)
        self.text_encoder = text_encoder
        self.text_out = nn.Linear(text_encoder.config.hidden_size, d_model)
        self.cross = nn.ModuleList(nn.MultiheadAttention(d_model, heads, batch_first=True) for _ in range(3))
        self.gate = nn.Sequential(nn.Linear(6 * d_model, d_model), nn.GELU(), nn.Linear(d_model, 6))
        self.head = nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.BatchNorm1d(64), nn.Dropout(0.3), nn.Linear(64, 1))

    def forward(self, annual, quarterly, input_ids, attention_mask):
        if not torch.all(attention_mask[:, 0] == 1):
            raise ValueError("the [CLS] position must be a real token")
        annual_states = self.annual_encoder(self.annual_in(annual) + self.annual_pos)
        last_year = annual_states[:, -1]
        quarter_states, _ = self.quarter_rnn(self.quarter_in(quarterly))
        last_quarter = quarter_states[:, -1]
        hidden = self.text_encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        text_states = self.text_out(hidden)
        cls = text_states[:, 0]

        pad = ~attention_mask.bool()
        routes = [
            (last_year, text_states, pad),
            (last_quarter, text_states, pad),
            (last_year, quarter_states, None),
        ]
        pooled, maps = [last_year, last_quarter, cls], []
        for attn, (query, keys, key_pad) in zip(self.cross, routes):
            out, weights = attn(query[:, None], keys, keys, key_padding_mask=key_pad, average_attn_weights=False)
            pooled.append(out[:, 0])
            maps.append(weights)

        stack = torch.stack(pooled, dim=1)
        gates = torch.softmax(self.gate(torch.cat(pooled, dim=-1)), dim=-1)
        fused = (stack * gates.unsqueeze(-1)).sum(dim=1)
        return {"logits": self.head(fused).squeeze(-1), "gates": gates, "attention": maps}
