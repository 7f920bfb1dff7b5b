# case: scale-globalpointer-type-count
# modelled-on: gaohongkui/GlobalPointer_pytorch https://github.com/gaohongkui/GlobalPointer_pytorch/pull/5
# label: buggy
# pattern: span logits as per-type dot products of a query and a key projection cut from one dense layer (split into types, stacked, halves taken), RoPE applied, einsum 'bmhd,bnhd->bhmn'; pad and lower-triangle masks subtracted as 1e12 penalties; the scale is applied as the logits are returned
# why: the logits are q·k over inner_dim features per entity type, so they should be divided by sqrt(inner_dim); dividing by sqrt(ent_type_size), the number of types (the h axis), is the wrong dimension. Merged fix "Fix logits scale bug: scale factor should be inner_dim instead of ent_type_size"
import torch
import torch.nn as nn


class GlobalPointer(nn.Module):
    def __init__(self, encoder, ent_type_size, inner_dim, RoPE=True):
        super().__init__()
        self.encoder = encoder
        self.ent_type_size = ent_type_size
        self.inner_dim = inner_dim
        self.hidden_size = encoder.config.hidden_size
        self.dense = nn.Linear(self.hidden_size, self.ent_type_size * self.inner_dim * 2)
        self.RoPE = RoPE

    def sinusoidal_position_embedding(self, batch_size, seq_len, output_dim, device):
        position_ids = torch.arange(0, seq_len, dtype=torch.float).unsqueeze(-1)
        indices = torch.arange(0, output_dim // 2, dtype=torch.float)
        indices = torch.pow(10000, -2 * indices / output_dim)
        embeddings = position_ids * indices
        embeddings = torch.stack([torch.sin(embeddings), torch.cos(embeddings)], dim=-1)
        embeddings = embeddings.repeat((batch_size, *([1] * len(embeddings.shape))))
        embeddings = torch.reshape(embeddings, (batch_size, seq_len, output_dim))
        return embeddings.to(device)

    def forward(self, input_ids, attention_mask, token_type_ids):
        last_hidden_state = self.encoder(input_ids, attention_mask, token_type_ids)[0]
        batch_size = last_hidden_state.size()[0]
        seq_len = last_hidden_state.size()[1]

        # (batch, seq, ent_type_size * inner_dim * 2) -> (batch, seq, ent_type_size, inner_dim * 2)
        outputs = self.dense(last_hidden_state)
        outputs = torch.split(outputs, self.inner_dim * 2, dim=-1)
        outputs = torch.stack(outputs, dim=-2)
        qw, kw = outputs[..., :self.inner_dim], outputs[..., self.inner_dim:]

        if self.RoPE:
            pos_emb = self.sinusoidal_position_embedding(batch_size, seq_len, self.inner_dim, input_ids.device)
            cos_pos = pos_emb[..., None, 1::2].repeat_interleave(2, dim=-1)
            sin_pos = pos_emb[..., None, ::2].repeat_interleave(2, dim=-1)
            qw2 = torch.stack([-qw[..., 1::2], qw[..., ::2]], -1).reshape(qw.shape)
            qw = qw * cos_pos + qw2 * sin_pos
            kw2 = torch.stack([-kw[..., 1::2], kw[..., ::2]], -1).reshape(kw.shape)
            kw = kw * cos_pos + kw2 * sin_pos

        # (batch, ent_type_size, seq, seq)
        logits = torch.einsum('bmhd,bnhd->bhmn', qw, kw)
        pad_mask = attention_mask.unsqueeze(1).unsqueeze(1).expand(batch_size, self.ent_type_size, seq_len, seq_len)
        logits = logits * pad_mask - (1 - pad_mask) * 1e12
        mask = torch.tril(torch.ones_like(logits), -1)
        logits = logits - mask * 1e12
        return logits / self.ent_type_size ** 0.5  # expect: ATT004
