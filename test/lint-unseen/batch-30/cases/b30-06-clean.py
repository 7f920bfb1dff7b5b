# case: b30-06-clean
# modelled-on: LingtianYuan/STT-FSDP https://github.com/LingtianYuan/STT-FSDP/commit/8b2dec3c4afa95c78eff26b26193267850b76312
# label: correct
# class: clean
# pattern: a spatial-temporal transformer for traffic forecasting on (batch, steps, nodes, model_dim) tensors: the heads are stacked on the batch axis with torch.cat(torch.split(x, self.head_dim, dim=-1), dim=0), the keys are transposed on a separate statement (key = key.transpose(-1, -2)), the scores query @ key are divided by self.head_dim ** 0.5 and go through torch.softmax(dim=-1); the plain AttentionLayer optionally fills ~tril with -inf in place, and the temporal layer first mixes the input with an MLP and two temporal convolutions and concatenates them back to model_dim before projecting q, k and v
# why: correct: torch.split's second argument is the width of each piece, so every stacked head is head_dim wide and head_dim ** 0.5 is sqrt(d_k) of the product; the transposed keys are (…, head_dim, src_length), so query @ key is (…, tgt_length, src_length) and the softmax over the last axis normalises over the keys; the causal mask is True on and below the diagonal and its complement (the future keys) gets -inf before the softmax; the heads are put back with torch.split(out, batch_size, dim=0)
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/LingtianYuan/STT-FSDP https://github.com/LingtianYuan/STT-FSDP/commit/8b2dec3c4afa95c78eff26b26193267850b76312 STTFSDP.py
import torch
import torch.nn as nn


class AttentionLayer(nn.Module):
    """Perform attention across the -2 dim (the -1 dim is `model_dim`)."""

    def __init__(self, model_dim, num_heads=8, mask=False):
        super().__init__()

        self.model_dim = model_dim
        self.num_heads = num_heads
        self.mask = mask

        self.head_dim = model_dim // num_heads

        self.FC_Q = nn.Linear(model_dim, model_dim)
        self.FC_K = nn.Linear(model_dim, model_dim)
        self.FC_V = nn.Linear(model_dim, model_dim)

        self.out_proj = nn.Linear(model_dim, model_dim)

    def forward(self, query, key, value):
        # Q    (batch_size, ..., tgt_length, model_dim)
        # K, V (batch_size, ..., src_length, model_dim)
        batch_size = query.shape[0]
        tgt_length = query.shape[-2]
        src_length = key.shape[-2]

        query = self.FC_Q(query)
        key = self.FC_K(key)
        value = self.FC_V(value)

        # Qhead, Khead, Vhead (num_heads * batch_size, ..., length, head_dim)
        query = torch.cat(torch.split(query, self.head_dim, dim=-1), dim=0)
        key = torch.cat(torch.split(key, self.head_dim, dim=-1), dim=0)
        value = torch.cat(torch.split(value, self.head_dim, dim=-1), dim=0)

        key = key.transpose(-1, -2)  # (num_heads * batch_size, ..., head_dim, src_length)

        attn_score = (query @ key) / self.head_dim ** 0.5  # (num_heads * batch_size, ..., tgt_length, src_length)

        if self.mask:
            mask = torch.ones(tgt_length, src_length, dtype=torch.bool, device=query.device).tril()  # lower triangular part of the matrix
            attn_score.masked_fill_(~mask, -torch.inf)  # fill in-place

        attn_score = torch.softmax(attn_score, dim=-1)
        out = attn_score @ value  # (num_heads * batch_size, ..., tgt_length, head_dim)
        out = torch.cat(torch.split(out, batch_size, dim=0), dim=-1)  # (batch_size, ..., tgt_length, model_dim)

        return self.out_proj(out)


class TemporalAttentionLayer(nn.Module):
    def __init__(self, model_dim, num_heads=8, mask=False):
        super(TemporalAttentionLayer, self).__init__()
        self.model_dim = model_dim
        self.num_heads = num_heads
        self.mask = mask

        self.head_dim = model_dim // num_heads

        self.FC_Q = nn.Linear(model_dim, model_dim)
        self.FC_K = nn.Linear(model_dim, model_dim)
        self.FC_V = nn.Linear(model_dim, model_dim)

        self.MLP = nn.Linear(model_dim, model_dim // 2)
        self.conv1 = nn.Conv2d(model_dim, model_dim // 4, kernel_size=(3, 1), padding=(1, 0))
        self.conv2 = nn.Conv2d(model_dim, model_dim // 4, kernel_size=(3, 1), padding=(1, 0))

        self.out_proj = nn.Linear(model_dim, model_dim)

    def forward(self, query, key, value):
        batch_size, num_nodes, tgt_length, features = query.shape
        x = query
        x_reshaped = x.reshape(batch_size * num_nodes, features, tgt_length, 1)

        conv1 = torch.relu(self.conv1(x_reshaped)).reshape(batch_size, num_nodes, tgt_length, features // 4)
        conv2 = torch.relu(self.conv2(x_reshaped)).reshape(batch_size, num_nodes, tgt_length, features // 4)

        x = self.MLP(x)
        x = torch.cat((x, conv1, conv2), dim=-1)

        query = self.FC_Q(x)
        key = self.FC_K(x)
        value = self.FC_V(x)

        query = torch.cat(torch.split(query, self.head_dim, dim=-1), dim=0)
        key = torch.cat(torch.split(key, self.head_dim, dim=-1), dim=0)
        value = torch.cat(torch.split(value, self.head_dim, dim=-1), dim=0)

        key = key.transpose(-1, -2)  # (num_heads * batch_size, ..., head_dim, src_length)

        attn_score = (query @ key) / self.head_dim ** 0.5

        attn_score = torch.softmax(attn_score, dim=-1)
        out = attn_score @ value
        out = torch.cat(torch.split(out, batch_size, dim=0), dim=-1)

        return self.out_proj(out)
