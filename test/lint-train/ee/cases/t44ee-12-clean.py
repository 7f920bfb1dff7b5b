# case: t44ee-12-clean
# modelled-on: cb0s/ifac-camsat-2025-timeseries-transformer https://github.com/cb0s/ifac-camsat-2025-timeseries-transformer/commit/7d2a3df266df0bd23bc6fa6de17018f385781583
# label: correct
# class: clean
# pattern: a decoder-only Transformer forecasting a satellite's density residuals: the context vector is projected into one memory token and prepended as step 0, the causal mask is `triu(empty(sz, sz).fill_(-inf), diagonal=1)` (0 on and below the diagonal) passed as `tgt_mask` of `nn.TransformerDecoder(batch_first=True)`; training uses the full output length, prediction re-runs the decoder on the growing prefix with a mask of the current length, no cache
# why: correct: -inf strictly above the diagonal is PyTorch's own additive causal mask (every row keeps its diagonal, so none is emptied); the prediction loop recomputes every position from scratch, so a square mask of the prefix length matches the queries and keys
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/cb0s/ifac-camsat-2025-timeseries-transformer https://github.com/cb0s/ifac-camsat-2025-timeseries-transformer/commit/7d2a3df266df0bd23bc6fa6de17018f385781583 src/model/residual.py
import torch
from torch import nn


class ResidualForecaster(nn.Module):
    def __init__(self, in_dim, horizon, d_model, heads, layers, d_ff, pos_encoder, dropout=0.1, device="cuda"):
        super().__init__()
        self.horizon = horizon
        self.context_proj = nn.Linear(in_dim, d_model)
        self.step_embed = nn.Linear(1, d_model)
        self.pos = pos_encoder
        layer = nn.TransformerDecoderLayer(
            d_model=d_model, nhead=heads, dim_feedforward=d_ff, dropout=dropout,
            activation="gelu", batch_first=True, norm_first=True,
        )
        self.decoder = nn.TransformerDecoder(decoder_layer=layer, num_layers=layers, norm=nn.LayerNorm(d_model))
        self.head = nn.Linear(d_model, 1)
        self._device = torch.device(device)

    def _future_mask(self, sz):
        """Upper triangle of -inf, zeros on and below the diagonal."""
        return torch.triu(torch.empty(sz, sz, device=self._device).fill_(float("-inf")), diagonal=1)

    def forward(self, context, target):
        # context: [B, in_dim]; target: [B, L, 1] (teacher forcing)
        ctx = self.context_proj(context)
        steps = torch.cat([ctx.unsqueeze(1), self.step_embed(target[:, :-1, :])], dim=1)  # [B, L, D]
        mask = self._future_mask(self.horizon)
        out = self.decoder(tgt=self.pos(steps), memory=ctx.unsqueeze(1), tgt_mask=mask, memory_mask=None)
        return self.head(out)

    @torch.no_grad()
    def predict(self, context):
        self.eval()
        ctx = self.context_proj(context)
        memory = ctx.unsqueeze(1)
        seq = ctx.unsqueeze(1)
        outputs = torch.zeros(context.size(0), self.horizon, 1, device=self._device)
        for i in range(self.horizon):
            mask = self._future_mask(seq.size(1))
            out = self.decoder(tgt=self.pos(seq), memory=memory, tgt_mask=mask, memory_mask=None)
            nxt = self.head(out[:, -1, :])
            outputs[:, i, :] = nxt
            seq = torch.cat([seq, self.step_embed(nxt).unsqueeze(1)], dim=1)
        return outputs
