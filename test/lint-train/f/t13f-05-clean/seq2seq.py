# case: t13f-05-clean
# modelled-on: deeplearningcafe/transformer-pytorch https://github.com/deeplearningcafe/transformer-pytorch/commit/91ae5c0f67efaefcad83b4061fb502467f7cb94b
# label: correct
# class: clean
# pattern: an encoder-decoder transformer trained on tokenizer outputs: the source attention_mask (1 = token, 0 = padding, as a tokenizer returns it) is unsqueezed to (B, 1, 1, S) and turned additive with (1 - mask) * torch.finfo(dtype).min; the decoder's mask multiplies a float tril by the target keep mask and turns the product additive the same way; the attention module adds the sliced mask to the scores (scaled by torch.sqrt of the per-head width) and uses the source mask again for cross-attention
# why: correct: (1 - keep) is 1 exactly at padding (and, for the decoder, at future or padded keys), so the huge negative value lands on the positions to hide and 0 on the rest; adding it before the softmax removes them; the decoder's causal product keeps the diagonal for every real token; the cross-attention reuses the source padding mask, which is a key mask over the encoder positions; what a naive linter could misread: ATT002 (keep masks turned additive with 1 - mask, a tril multiplied by a padding mask), ATT006 (a 0/1 product of masks), ATT007 (finfo(dtype).min as the additive value), ATT005 (key.transpose(3, 2)), ATT004 (torch.sqrt of a tensor built from head_dim)
# looks-like: ATT002, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/deeplearningcafe/transformer-pytorch https://github.com/deeplearningcafe/transformer-pytorch/commit/91ae5c0f67efaefcad83b4061fb502467f7cb94b transformer_implementation.py
import torch
import torch.nn as nn

from attention import MultiHeadAttention


def additive_source_mask(src_attention_mask: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    mask = src_attention_mask.unsqueeze(1).unsqueeze(1)  # (B, 1, 1, S), 1 = token
    return (1 - mask) * torch.finfo(dtype).min


def causal_mask_with_padding(seq_len: int, padding_mask: torch.Tensor, device) -> torch.Tensor:
    causal = torch.tril(torch.ones((seq_len, seq_len), dtype=torch.float32, device=device))
    combined = causal.unsqueeze(0) * padding_mask.unsqueeze(1).unsqueeze(2)  # (B, 1, T, T), 1 = may attend
    return (1 - combined) * torch.finfo(torch.float32).min


class EncoderDecoder(nn.Module):
    def __init__(self, vocab: int, hidden_dim: int = 512, num_heads: int = 8):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden_dim)
        self.enc_attn = MultiHeadAttention(hidden_dim, num_heads)
        self.dec_self = MultiHeadAttention(hidden_dim, num_heads)
        self.dec_cross = MultiHeadAttention(hidden_dim, num_heads)
        self.lm_head = nn.Linear(hidden_dim, vocab, bias=False)

    def forward(self, src_ids, tgt_ids, src_attention_mask, tgt_attention_mask):
        h = self.embed(src_ids)
        enc_mask = additive_source_mask(src_attention_mask, h.dtype)
        memory = h + self.enc_attn(h, enc_mask)
        dec_mask = causal_mask_with_padding(tgt_ids.shape[1], tgt_attention_mask, tgt_ids.device)
        y = self.embed(tgt_ids)
        y = y + self.dec_self(y, dec_mask)
        y = y + self.dec_cross(y, enc_mask, memory)
        return self.lm_head(y)
