# case: b45-01-mask
# modelled-on: PBL5-BKDN/image_captioning https://github.com/PBL5-BKDN/image_captioning/commit/45a2828fec7a335a91a6999193364a2dd1403d09
# label: buggy
# class: real-bug
# pattern: an image-captioning Transformer (a folder: the captioning model that builds a boolean token mask, True = real token, and the decoder layer built on two nn.MultiheadAttention modules, batch_first); the decoder inverts the token mask and converts it with .float() before handing it to the self-attention as key_padding_mask, beside a float additive causal mask (0 / -inf); the cross-attention gets the inverted encoder mask as a boolean
# why: buggy: nn.MultiheadAttention documents that a float key_padding_mask is added to the scores (only a boolean one means True = ignore); (~keep).float() is 1.0 on padded keys and 0.0 on real ones, so padding is never masked and is even favoured by +1; the docstring states the masks are 1 for real tokens and 0 for padding, and the same forward hands the encoder mask to the cross-attention inverted but boolean, the form that masks; no commit fixes it (the repository's later vision decoder passes boolean masks only)
# source: https://github.com/PBL5-BKDN/image_captioning https://github.com/PBL5-BKDN/image_captioning/commit/45a2828fec7a335a91a6999193364a2dd1403d09 model/TransformerDecoder.py
import torch
import torch.nn as nn


class CaptionDecoderLayer(nn.Module):
    def __init__(self, d_model=300, n_heads=4, vocab_size=10000, p_drop=0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, n_heads, dropout=p_drop, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(d_model, n_heads, dropout=p_drop, batch_first=True)
        self.norm_self = nn.LayerNorm(d_model, eps=1e-5)
        self.norm_cross = nn.LayerNorm(d_model, eps=1e-5)
        self.norm_ffn = nn.LayerNorm(d_model, eps=1e-5)
        self.ffn = nn.Sequential(
            nn.Linear(d_model, 4 * d_model),
            nn.ReLU(),
            nn.Dropout(0.3),
            nn.Linear(4 * d_model, d_model),
            nn.ReLU(),
        )
        self.drop_out = nn.Dropout(0.5)
        self.to_vocab = nn.Linear(d_model, vocab_size)

    @staticmethod
    def _future_bias(length, device):
        # 0 on and below the diagonal, -inf above it
        tri = torch.tril(torch.ones((length, length), device=device))
        return tri.masked_fill(tri == 0, float("-inf")).masked_fill(tri == 1, 0.0)

    def forward(self, tokens_emb, memory, token_keep=None, memory_keep=None):
        """
        tokens_emb: (B, T, E) embedded caption tokens
        memory:     (B, S, E) encoded image patches
        token_keep: (B, T) 1 for a real token, 0 for padding
        memory_keep: (B, S) 1 for a real patch, 0 for padding
        """
        causal = self._future_bias(tokens_emb.size(1), tokens_emb.device)
        pad_keys = (~token_keep).float() if token_keep is not None else None

        attended, _ = self.self_attn(
            tokens_emb,
            tokens_emb,
            tokens_emb,
            attn_mask=causal,
            key_padding_mask=pad_keys,  # expect: ATT002
        )
        h = self.norm_self(tokens_emb + attended)

        memory_pad = ~memory_keep if memory_keep is not None else None
        crossed, _ = self.cross_attn(query=h, key=memory, value=memory, key_padding_mask=memory_pad)
        h = self.norm_cross(h + crossed)

        h = self.norm_ffn(self.ffn(h) + h)
        return self.to_vocab(self.drop_out(h))
