# case: b48-07-clean
# modelled-on: ATMI/Megatoken https://github.com/ATMI/Megatoken/commit/327c291c6ec6ac30af8ca8a288e2e298905d22af
# label: correct
# class: clean
# pattern: a token-compressing autoencoder on a pretrained T5 (a folder: the collate function that builds the decoder's banded look-back mask, and the model that drives the T5 blocks by hand): additive float masks of -inf and 0, with the padding turned into `where(keep, 0, -inf)` and added on the key axis; gates in log space (logsigmoid, -inf below a threshold at inference) are added to the encoder's mask and to the cross-attention mask so that dropped tokens fade out of the attention; the mask is also passed as the blocks' position bias
# why: correct: the masks are additive and 0 where attention is allowed, -inf where it is not, with `keep` True on real tokens; the collate function's band lets query q see keys q-5..q (a causal window) and gives every padded query one visible key, so no row is all -inf; adding log-gates to the logits before the softmax multiplies the attention by the gate values, which is the intended soft token removal, not a mask after the softmax; T5's attention is unscaled by design (the library's T5 blocks apply no 1/sqrt(d)), and the diagonal is reset to 0 so a token always sees itself
# looks-like: ATT002, ATT003, ATT006, ATT008
# source: https://github.com/ATMI/Megatoken https://github.com/ATMI/Megatoken/commit/327c291c6ec6ac30af8ca8a288e2e298905d22af model.py
import torch
from torch import nn, Tensor
from torch.nn import functional as F


class LogGate(nn.Module):
    def __init__(self, bias: float, temperature: float):
        super().__init__()
        self.bias, self.temperature = bias, temperature

    def forward(self, hidden: Tensor) -> Tensor:
        noise = -torch.empty_like(hidden[:, :, 0]).exponential_().log()
        logg = F.logsigmoid((hidden[:, :, 0] + noise + self.bias) / self.temperature)
        if not self.training:
            logg = torch.where(logg > -1, logg, -torch.inf)
        return logg


class Compressor(nn.Module):
    def __init__(self, t5, bias=2.0, temperature=0.5):
        super().__init__()
        self.t5 = t5
        self.gates = nn.ModuleList(LogGate(bias, temperature) for _ in range(len(t5.encoder.block) // 2))

    def encode(self, tokens: Tensor, last: Tensor, keep: Tensor):
        b, n = tokens.shape
        bias = torch.zeros(b, n, n, device=tokens.device) + torch.where(keep, 0.0, -torch.inf)[:, None, :]
        bias = bias[:, None]                                   # one copy for all heads
        gate_sum = torch.zeros(b, n, device=tokens.device)
        idx = torch.arange(n, device=tokens.device)
        h = self.t5.encoder.dropout(self.t5.encoder.embed_tokens(tokens))
        for i, block in enumerate(self.t5.encoder.block):
            h, bias = block(hidden_states=h, attention_mask=bias, position_bias=bias if i else None,
                            cache_position=idx)
            if i % 2 == 0:
                g = self.gates[i // 2](h)
                g[last[0], last[1]] = 0.0                      # the final token is never dropped
                gate_sum = gate_sum + g
                bias = bias + (g[:, None, :] + g[:, :, None])[:, None]
                bias[:, :, idx, idx] = 0.0
        return self.t5.encoder.final_layer_norm(h), keep, gate_sum

    def decode(self, memory, mem_keep, gate_sum, tokens, keep, band=None):
        b, n = tokens.shape
        if band is None:
            band = torch.full((b, n, n), -torch.inf, device=tokens.device).triu(1)
        self_bias = (band + torch.where(keep, 0.0, -torch.inf)[:, None, :])[:, None]
        cross_bias = (torch.where(mem_keep, 0.0, -torch.inf) + gate_sum)[:, None, None, :]
        idx = torch.arange(n, device=tokens.device)
        y = self.t5.decoder.dropout(self.t5.decoder.embed_tokens(tokens))
        for i, block in enumerate(self.t5.decoder.block):
            self_attn, cross_attn, ff = block.layer
            y, _, self_bias = self_attn(hidden_states=y, attention_mask=self_bias,
                                        position_bias=self_bias if i else None, cache_position=idx)
            y, _, cross_bias = cross_attn(hidden_states=y, key_value_states=memory, attention_mask=cross_bias,
                                          position_bias=cross_bias if i else None, cache_position=idx)
            y = ff(y)
        y = self.t5.decoder.final_layer_norm(y) * self.t5.model_dim ** -0.5
        return self.t5.lm_head(y)
