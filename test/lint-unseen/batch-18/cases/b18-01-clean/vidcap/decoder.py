# case: b18-01-clean
# modelled-on: Kamino666/Video-Captioning-Transformer https://github.com/Kamino666/Video-Captioning-Transformer/commit/06e6c95d9bf11d61f5825be3c640e489521f9934
# label: correct
# class: clean
# pattern: a multimodal video-captioning transformer: the collate code builds padding masks as a long tensor of ones with 0 on real frames, then `== 1` (True = padded), and caption masks as `ids == pad_id`; the encoder prepends a summary token per modality whose mask column is `torch.ones(B, 1) == 0` (False) and concatenates the masks as src_key_padding_mask; the decoder's causal mask comes from a helper that returns a float 0 / -inf mask, used as-is for training and turned into a bool with `.to(torch.bool)` for decoding
# why: correct: every key_padding_mask is True on padding (nn.Transformer's convention: True = ignore); the float causal mask is additive with -inf above the diagonal, and `.to(torch.bool)` maps 0.0 to False and -inf to True, so the bool mask is True exactly where attention is not allowed, as the bool attn_mask of nn.Transformer expects; the caption docstring says nothing about polarity but the code is consistent; no row is fully masked (position 0 and the summary tokens always attend)
# looks-like: ATT002, ATT007
# source: https://github.com/Kamino666/Video-Captioning-Transformer https://github.com/Kamino666/Video-Captioning-Transformer/commit/06e6c95d9bf11d61f5825be3c640e489521f9934 model/CapDecoder.py
from typing import Optional

import torch
from torch import Tensor, nn

from .utils import square_subsequent_mask


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 512, nhead: int = 8, layers: int = 3, pad_id: int = 0):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        layer = nn.TransformerDecoderLayer(d_model, nhead, 4 * d_model, 0.1, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, layers, nn.LayerNorm(d_model))
        self.generator = nn.Linear(d_model, vocab_size)
        self.loss_fn = nn.CrossEntropyLoss(ignore_index=pad_id)

    def forward(self, memory: Tensor, memory_pad: Optional[Tensor], ids: Tensor, caption_pad: Tensor):
        inp, target = ids[:, :-1], ids[:, 1:]
        inp_pad = caption_pad[:, :-1]
        causal = square_subsequent_mask(inp.shape[1]).to(memory.device)
        out = self.decoder(
            self.embed(inp),
            memory,
            tgt_mask=causal,
            tgt_key_padding_mask=inp_pad,
            memory_key_padding_mask=memory_pad,
        )
        logits = self.generator(out)
        return logits, self.loss_fn(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))

    @torch.no_grad()
    def next_token_logits(self, memory: Tensor, memory_pad: Optional[Tensor], ids: Tensor):
        causal = square_subsequent_mask(ids.shape[1]).to(torch.bool).to(memory.device)
        out = self.decoder(
            self.embed(ids),
            memory,
            tgt_mask=causal,
            tgt_key_padding_mask=None,
            memory_key_padding_mask=memory_pad,
        )
        return self.generator(out[:, -1])

    @torch.no_grad()
    def greedy(self, memory: Tensor, memory_pad: Optional[Tensor], bos: int, eos: int, max_len: int = 30):
        ids = torch.full((memory.shape[0], 1), bos, dtype=torch.long, device=memory.device)
        for _ in range(max_len):
            nxt = self.next_token_logits(memory, memory_pad, ids).argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], dim=1)
            if (nxt == eos).all():
                break
        return ids
