# case: b15-12-clean
# modelled-on: JackWittmayer/Transformer-Implementation https://github.com/JackWittmayer/Transformer-Implementation/commit/001ba62e7aad5146e330365db7d16ffcdaecbe8f
# label: correct
# class: clean
# pattern: a translation project that compares its own transformer with nn.Transformer wrapped in embedding layers; the training step stacks the tokenizers' attention_mask lists (1 = real token, 0 = padding) into int tensors and slices the target's to the decoder input; the wrapper builds its causal mask as torch.tril(ones(T, T) == 1), then inverts all three masks with ~mask.bool() and passes them as src_key_padding_mask, tgt_key_padding_mask and tgt_mask (batch_first, norm_first)
# why: correct: nn.Transformer's boolean masks mean True = not allowed, so the keep masks from the tokenizer and the lower-triangular keep mask are exactly inverted where they are handed over: padding keys and future positions are blocked, real earlier tokens are visible; masks named like keep masks reaching key_padding_mask and a tril reaching tgt_mask look inverted to a reader that misses the ~
# looks-like: ATT002
# source: https://github.com/JackWittmayer/Transformer-Implementation https://github.com/JackWittmayer/Transformer-Implementation/commit/001ba62e7aad5146e330365db7d16ffcdaecbe8f src/model/extended_pytorch_transformer.py
import torch
import torch.nn as nn


class WrappedTransformer(nn.Module):
    """nn.Transformer with its own token and position embeddings and an output projection."""

    def __init__(self, d_model, num_heads, enc_layers, dec_layers, d_mlp, p_dropout, vocab_size, max_len):
        super().__init__()
        self.src_embedding = nn.Embedding(vocab_size, d_model)
        self.tgt_embedding = nn.Embedding(vocab_size, d_model)
        self.positions = nn.Embedding(max_len, d_model)
        self.transformer = nn.Transformer(
            d_model, num_heads, enc_layers, dec_layers, d_mlp, p_dropout, batch_first=True, norm_first=True
        )
        self.dropout = nn.Dropout(p_dropout)
        self.unembedding = nn.Linear(d_model, vocab_size)

    def embed(self, table, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        return self.dropout(table(ids) + self.positions(pos))

    def causal_keep(self, length, device):
        return torch.tril(torch.ones(length, length) == 1).to(device)

    def forward(self, src_ids, tgt_ids, src_keep, tgt_keep):
        src = self.embed(self.src_embedding, src_ids)
        tgt = self.embed(self.tgt_embedding, tgt_ids)
        tgt_mask = self.causal_keep(tgt.shape[1], tgt.device)

        src_blocked = ~src_keep.bool()
        tgt_mask = ~tgt_mask.bool()
        tgt_blocked = ~tgt_keep.bool()
        out = self.transformer(
            src,
            tgt,
            src_key_padding_mask=src_blocked,
            tgt_key_padding_mask=tgt_blocked,
            tgt_mask=tgt_mask,
        )
        return self.unembedding(out)
