# case: t33z-03-softmax
# modelled-on: mattsherar/Temporal_Fusion_Transform https://github.com/mattsherar/Temporal_Fusion_Transform/commit/4fd9fdb7eb876c60146ac5baea8d64d98a9ae326
# label: buggy
# class: real-bug
# pattern: a PyTorch port of the Temporal Fusion Transformer (time-series forecasting) that keeps its tensors sequence-first, (time, batch, features), for its LSTMs and nn.MultiheadAttention; the variable selection network turns the flattened embeddings of all inputs into one weight per input variable with a gated residual network, normalises them with an nn.Softmax() built in __init__ without a dim, and sums the per-variable GRN outputs stacked on the last axis, weighted by those normalised weights
# why: buggy: nn.Softmax() without dim picks dim 0 for a 3-D input (PyTorch's legacy implicit-dim rule), so the (time, batch, variables) selection weights are normalised over the time steps instead of over the variables that the weighted sum (over the last axis) mixes; the paper's and the reference implementation's selection weights are a softmax over the variables at each time step. The decoder-over-encoder nn.MultiheadAttention (sequence-first by default) is right
# source: https://github.com/mattsherar/Temporal_Fusion_Transform https://github.com/mattsherar/Temporal_Fusion_Transform/commit/4fd9fdb7eb876c60146ac5baea8d64d98a9ae326 tft_model.py
import torch
from torch import nn


class GLU(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.fc_gate = nn.Linear(size, size)
        self.fc_value = nn.Linear(size, size)

    def forward(self, x):
        return torch.sigmoid(self.fc_gate(x)) * self.fc_value(x)


class GatedResidualNetwork(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, dropout, context_size=None):
        super().__init__()
        self.skip = nn.Linear(input_size, output_size) if input_size != output_size else None
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.context = nn.Linear(context_size, hidden_size) if context_size is not None else None
        self.fc2 = nn.Linear(hidden_size, output_size)
        self.elu = nn.ELU()
        self.drop = nn.Dropout(dropout)
        self.gate = GLU(output_size)
        self.norm = nn.LayerNorm(output_size)

    def forward(self, x, context=None):
        residual = self.skip(x) if self.skip is not None else x
        h = self.fc1(x)
        if context is not None:
            h = h + self.context(context)
        h = self.fc2(self.elu(h))
        h = self.gate(self.drop(h))
        return self.norm(h + residual)


class VariableSelection(nn.Module):
    def __init__(self, input_size, num_inputs, hidden_size, dropout, context_size=None):
        super().__init__()
        self.input_size = input_size
        self.num_inputs = num_inputs
        self.flat_grn = GatedResidualNetwork(num_inputs * input_size, hidden_size, num_inputs, dropout, context_size)
        self.var_grns = nn.ModuleList(
            [GatedResidualNetwork(input_size, hidden_size, hidden_size, dropout) for _ in range(num_inputs)]
        )
        self.softmax = nn.Softmax()  # expect: ATT001

    def forward(self, embedding, context=None):
        # embedding: (time, batch, num_inputs * input_size)
        selection = self.flat_grn(embedding, context)
        selection = self.softmax(selection).unsqueeze(2)  # (time, batch, 1, num_inputs)

        per_var = []
        for i in range(self.num_inputs):
            chunk = embedding[:, :, i * self.input_size:(i + 1) * self.input_size]
            per_var.append(self.var_grns[i](chunk))
        per_var = torch.stack(per_var, dim=-1)  # (time, batch, hidden, num_inputs)

        return (per_var * selection).sum(dim=-1), selection


class TemporalFusion(nn.Module):
    def __init__(self, input_size, num_inputs, static_size, hidden_size, heads, encode_length, dropout=0.1):
        super().__init__()
        self.encode_length = encode_length
        self.enc_select = VariableSelection(input_size, num_inputs, hidden_size, dropout, static_size)
        self.dec_select = VariableSelection(input_size, num_inputs, hidden_size, dropout, static_size)
        self.enc_lstm = nn.LSTM(hidden_size, hidden_size)
        self.dec_lstm = nn.LSTM(hidden_size, hidden_size)
        self.post_lstm = GLU(hidden_size)
        self.attn = nn.MultiheadAttention(hidden_size, heads)
        self.post_attn = GLU(hidden_size)
        self.head = nn.Linear(hidden_size, 3)

    def forward(self, enc_emb, dec_emb, static_ctx):
        # enc_emb: (encode_length, batch, num_inputs * input_size); dec_emb: (horizon, batch, ...)
        # static_ctx: (batch, static_size), repeated over time
        enc_sel, enc_w = self.enc_select(enc_emb, static_ctx.expand(enc_emb.size(0), -1, -1))
        dec_sel, dec_w = self.dec_select(dec_emb, static_ctx.expand(dec_emb.size(0), -1, -1))

        enc_out, state = self.enc_lstm(enc_sel)
        dec_out, _ = self.dec_lstm(dec_sel, state)
        lstm_out = self.post_lstm(torch.cat([enc_out, dec_out], dim=0) + torch.cat([enc_sel, dec_sel], dim=0))

        queries = lstm_out[self.encode_length:]
        memory = lstm_out[:self.encode_length]
        attn_out, attn_w = self.attn(queries, memory, memory)
        out = self.post_attn(attn_out) + queries
        return self.head(out), attn_w, enc_w, dec_w
