# case: b6-30-clean
# modelled-on: krishnashashanth-sks/transformers-from-scratch https://github.com/krishnashashanth-sks/transformers-from-scratch/commit/eedb4960dba53856c5594462f493d9877d6aa89b
# label: correct
# class: clean
# pattern: a decoder-only LM with grouped-query attention and RoPE: the model registers a causal buffer (1 - triu(ones, 1)).bool(), slices it to the sequence, ANDs it with the tokenizer-style padding mask (1 = valid) reshaped to (B, 1, 1, L), and passes the result to every layer; the attention module in another file scales by sqrt(head_dim), repeats the key/value heads, and fills masked_fill(mask == 0, -inf) before the softmax
# why: correct: 1 - triu(ones, 1) is True on and below the diagonal, i.e. a keep mask, and so is the padding mask, so their AND keeps exactly the past real tokens and the attention fills where it is False (== 0); every query keeps at least its own position
# looks-like: ATT002, ATT007
# source: https://github.com/krishnashashanth-sks/transformers-from-scratch https://github.com/krishnashashanth-sks/transformers-from-scratch/commit/eedb4960dba53856c5594462f493d9877d6aa89b claude/model.py
import torch
import torch.nn as nn

from layers import DecoderLayer


class DecoderLM(nn.Module):
    def __init__(self, vocab_size, embed_dim=512, num_heads=8, num_kv_heads=2, num_layers=8, max_seq_len=2048):
        super().__init__()
        self.token_embeddings = nn.Embedding(vocab_size, embed_dim)
        self.layers = nn.ModuleList([DecoderLayer(embed_dim, num_heads, num_kv_heads) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(embed_dim)
        self.output_projection = nn.Linear(embed_dim, vocab_size, bias=False)
        causal_mask_base = (1 - torch.triu(torch.ones(max_seq_len, max_seq_len), diagonal=1)).bool()
        self.register_buffer("causal_mask", causal_mask_base.view(1, 1, max_seq_len, max_seq_len))

    def forward(self, input_ids, attention_mask=None):
        batch_size, seq_len = input_ids.shape
        x = self.token_embeddings(input_ids)  # (B, L, E)
        current_causal_mask = self.causal_mask[:, :, :seq_len, :seq_len]  # (1, 1, L, L)
        if attention_mask is not None:
            # attention_mask is (B, L) where 1 is valid, 0 is padding
            padding_mask_expanded = attention_mask.view(batch_size, 1, 1, seq_len).bool()
            final_mask = current_causal_mask & padding_mask_expanded
        else:
            final_mask = current_causal_mask
        for layer in self.layers:
            x = layer(x, attention_mask=final_mask)
        return self.output_projection(self.norm(x))
