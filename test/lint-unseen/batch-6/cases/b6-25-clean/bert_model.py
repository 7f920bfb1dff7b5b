# case: b6-25-clean
# modelled-on: soumenkm/Build-BERT-from-scratch https://github.com/soumenkm/Build-BERT-from-scratch/commit/c0420aacf8f8d7349defbb4740de834c5c982d69
# label: correct
# class: clean
# pattern: a BERT re-implementation checked against Hugging Face's: a comparison script in another module passes the tokenizer's attention_mask (1 = real token) into the model as padding_mask; the attention module inverts it with (padding_mask == 0) and hands it to nn.MultiheadAttention(batch_first=True) as key_padding_mask with is_causal=False
# why: correct: nn.MultiheadAttention's boolean key_padding_mask ignores the True positions, and (attention_mask == 0) is True exactly at the padding, so the real tokens are attended; BERT is bidirectional, so no causal mask is intended
# looks-like: ATT002, ATT008
# source: https://github.com/soumenkm/Build-BERT-from-scratch https://github.com/soumenkm/Build-BERT-from-scratch/commit/c0420aacf8f8d7349defbb4740de834c5c982d69 bert_model/bert_model.py
import torch


class BertAttention(torch.nn.Module):
    def __init__(self, embedding_dim: int, num_heads: int, max_context_length: int, dropout_prob: float):
        super().__init__()
        self.d, self.Tmax = embedding_dim, max_context_length
        self.multihead_self_attention = torch.nn.MultiheadAttention(embed_dim=embedding_dim, num_heads=num_heads, dropout=0.0, bias=True, batch_first=True)
        self.layernorm = torch.nn.LayerNorm(normalized_shape=embedding_dim)
        self.dropout = torch.nn.Dropout(p=dropout_prob)

    def forward(self, inputs: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        """padding mask has 0 means padded and 1 means real"""
        assert padding_mask.dim() == 2 and padding_mask.shape[-1] <= self.Tmax
        padding_mask = padding_mask == 0  # pytorch expects True means mask and False means real
        x = self.multihead_self_attention(query=inputs, key=inputs, value=inputs, key_padding_mask=padding_mask, need_weights=False, is_causal=False)[0]
        x = self.dropout(x) + inputs  # (b, T, d)
        return self.layernorm(x)


class BertEncoder(torch.nn.Module):
    def __init__(self, embedding_dim=768, num_heads=12, max_context_length=512, num_layers=12, dropout_prob=0.1):
        super().__init__()
        self.blocks = torch.nn.ModuleList([BertAttention(embedding_dim, num_heads, max_context_length, dropout_prob) for _ in range(num_layers)])

    def forward(self, inputs: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        x = inputs
        for block in self.blocks:
            x = block(x, padding_mask)
        return x


class Bert(torch.nn.Module):
    def __init__(self, vocab_size, embedding_dim=768, **kw):
        super().__init__()
        self.tok = torch.nn.Embedding(vocab_size, embedding_dim)
        self.seg = torch.nn.Embedding(2, embedding_dim)
        self.encoder = BertEncoder(embedding_dim, **kw)

    def forward(self, inputs, segment_ids, padding_mask):
        x = self.tok(inputs) + self.seg(segment_ids)
        return self.encoder(x, padding_mask)
