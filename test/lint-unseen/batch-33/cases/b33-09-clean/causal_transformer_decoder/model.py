# case: b33-09-clean
# modelled-on: alex-matton/causal-transformer-decoder https://github.com/alex-matton/causal-transformer-decoder/commit/0caf6ad71c46488f76d89845b0123d2550ef792f
# label: correct
# class: clean
# pattern: a faster decoder for autoregressive generation built on nn.TransformerDecoder(Layer): in eval mode every layer keeps a cache of its outputs for the tokens decoded so far and computes only the newest token, calling self.self_attn(tgt[-1:], tgt, tgt, attn_mask=None, key_padding_mask=...) over the cached rows plus the new one and appending its output to the cache; in training mode each layer calls the parent forward on the whole target with tgt_mask=generate_square_subsequent_mask(len), a float mask (0 on and below the diagonal, -inf above); the example model (examples/training_example.py) passes `inputs == 0` as the encoder's src_key_padding_mask and the decoder's memory_key_padding_mask
# why: correct: with one query, the newest token, every key in the cache is in its past, so no causal mask is needed on the cached path (the comment says so); in training the float mask adds -inf exactly above the diagonal, as nn.TransformerDecoderLayer's tgt_mask expects, and every row keeps its diagonal; `inputs == 0` is True on the padding, which is what key_padding_mask marks (True = ignore)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/alex-matton/causal-transformer-decoder https://github.com/alex-matton/causal-transformer-decoder/commit/0caf6ad71c46488f76d89845b0123d2550ef792f causal_transformer_decoder/model.py
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class CausalTransformerDecoder(nn.TransformerDecoder):
    """A transformer decoder that caches the embeddings of the tokens already decoded
    instead of recomputing them (eval mode only); in training mode it acts like a regular
    nn.TransformerDecoder whose layers build the causal tgt mask themselves."""

    def forward(
        self,
        tgt: Tensor,
        memory: Optional[Tensor] = None,
        cache: Optional[Tensor] = None,
        memory_mask: Optional[Tensor] = None,
        tgt_key_padding_mask: Optional[Tensor] = None,
        memory_key_padding_mask: Optional[Tensor] = None,
    ):
        # tgt: current_len_output x bsz x hidden_dim
        # cache: n_layers x (current_len_output - 1) x bsz x hidden_dim, None for the first token
        output = tgt

        if self.training:
            if cache is not None:
                raise ValueError("cache parameter should be None in training mode")
            for mod in self.layers:
                output = mod(
                    output,
                    memory,
                    memory_mask=memory_mask,
                    tgt_key_padding_mask=tgt_key_padding_mask,
                    memory_key_padding_mask=memory_key_padding_mask,
                )
            return output

        new_token_cache = []
        for i, mod in enumerate(self.layers):
            output = mod(output, memory)
            new_token_cache.append(output)
            if cache is not None:
                output = torch.cat([cache[i], output], dim=0)

        if cache is not None:
            new_cache = torch.cat([cache, torch.stack(new_token_cache, dim=0)], dim=1)
        else:
            new_cache = torch.stack(new_token_cache, dim=0)
        return output, new_cache


class CausalTransformerDecoderLayer(nn.TransformerDecoderLayer):
    def forward(
        self,
        tgt: Tensor,
        memory: Optional[Tensor] = None,
        memory_mask: Optional[Tensor] = None,
        tgt_key_padding_mask: Optional[Tensor] = None,
        memory_key_padding_mask: Optional[Tensor] = None,
    ) -> Tensor:
        if self.training:
            return super().forward(
                tgt,
                memory,
                tgt_mask=generate_square_subsequent_mask(tgt.size(0), tgt.device),
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
            )

        # adapted from nn.TransformerDecoderLayer so that only the last token is computed
        tgt_last_tok = tgt[-1:, :, :]

        # self-attention of the newest token over every token so far
        tmp_tgt = self.self_attn(
            tgt_last_tok,
            tgt,
            tgt,
            attn_mask=None,  # not needed because we only care about the last token
            key_padding_mask=tgt_key_padding_mask,
        )[0]
        tgt_last_tok = self.norm1(tgt_last_tok + self.dropout1(tmp_tgt))

        # encoder-decoder attention
        if memory is not None:
            tmp_tgt = self.multihead_attn(
                tgt_last_tok,
                memory,
                memory,
                attn_mask=memory_mask,
                key_padding_mask=memory_key_padding_mask,
            )[0]
            tgt_last_tok = self.norm2(tgt_last_tok + self.dropout2(tmp_tgt))

        tmp_tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt_last_tok))))
        return self.norm3(tgt_last_tok + self.dropout3(tmp_tgt))


def generate_square_subsequent_mask(sz: int, device: str = "cpu") -> torch.Tensor:
    """Generate the attention mask for causal decoding"""
    mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
    mask = (
        mask.float()
        .masked_fill(mask == 0, float("-inf"))
        .masked_fill(mask == 1, float(0.0))
    ).to(device=device)
    return mask
