# case: t20m-04-clean
# modelled-on: ksopyla/MrCogito https://github.com/ksopyla/MrCogito/commit/bcf06ad758b530d2a736edbf5c7b96474a1ad6d4
# label: correct
# class: clean
# pattern: a concept encoder (a small set of learned concept vectors cross-attends to the token embeddings, then self-attends): the model turns the tokenizer's keep mask into key_padding_mask = (attention_mask == 0) and hands it to every layer under the parameter name attention_mask; the layer passes that argument as key_padding_mask= to nn.MultiheadAttention(batch_first=True), with need_weights=False, and runs the concept self-attention with attn_mask=None
# why: correct: the tensor that reaches key_padding_mask is the bool ignore mask built by the model (True on padding), despite the layer's parameter name and its docstring saying 0/1; the concepts are queries and are never padding, so the self-attention among them needs no mask
# looks-like: ATT002
# source: https://github.com/ksopyla/MrCogito https://github.com/ksopyla/MrCogito/commit/bcf06ad758b530d2a736edbf5c7b96474a1ad6d4 nn/concept_encoder.py
from typing import Optional

import torch
import torch.nn as nn


class ConceptLayer(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, intermediate_size: int, dropout: float = 0.1):
        super().__init__()
        self.concept_token_attn = nn.MultiheadAttention(hidden_size, num_heads, dropout=dropout, batch_first=True)
        self.concept_self_attn = nn.MultiheadAttention(hidden_size, num_heads, dropout=dropout, batch_first=True)
        self.pre_cross_norm = nn.LayerNorm(hidden_size)
        self.pre_self_norm = nn.LayerNorm(hidden_size)
        self.pre_ff_norm = nn.LayerNorm(hidden_size)
        self.wi = nn.Linear(hidden_size, intermediate_size * 2)
        self.wo = nn.Linear(intermediate_size, hidden_size)
        self.act = nn.GELU()

    def forward(self, concepts: torch.Tensor, tokens: torch.Tensor, attention_mask: Optional[torch.BoolTensor] = None):
        """
        concepts: (batch, concept_num, hidden); tokens: (batch, seq_len, hidden);
        attention_mask: mask to avoid attending to padding tokens, values 0 or 1.
        """
        normed = self.pre_cross_norm(concepts)
        cross, _ = self.concept_token_attn(normed, tokens, tokens, key_padding_mask=attention_mask, need_weights=False)
        concepts = concepts + cross

        normed = self.pre_self_norm(concepts)
        self_out, _ = self.concept_self_attn(normed, normed, normed, attn_mask=None, need_weights=False)
        concepts = concepts + self_out

        ff_in, ff_gate = self.wi(self.pre_ff_norm(concepts)).chunk(2, dim=-1)
        return concepts + self.wo(self.act(ff_in) * ff_gate)


class ConceptEncoder(nn.Module):
    def __init__(self, vocab_size=30522, concept_num=128, hidden_size=512, layers=4, heads=8, intermediate=1024, max_pos=2048):
        super().__init__()
        self.concept_num = concept_num
        self.token_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.token_positions = nn.Embedding(max_pos, hidden_size)
        self.concept_embeddings = nn.Embedding(concept_num, hidden_size)
        self.layers = nn.ModuleList([ConceptLayer(hidden_size, heads, intermediate) for _ in range(layers)])
        self.dropout = nn.Dropout(0.1)
        self.out_norm = nn.LayerNorm(hidden_size, eps=1e-12)

    def forward(self, input_ids: torch.LongTensor, attention_mask: Optional[torch.IntTensor] = None):
        """attention_mask: (batch, seq_len), 1 = keep, 0 = ignore (the tokenizer's mask)."""
        b, n = input_ids.shape
        positions = torch.arange(n, device=input_ids.device).unsqueeze(0).expand_as(input_ids)
        tokens = self.dropout(self.token_embeddings(input_ids) + self.token_positions(positions))

        key_padding_mask = None
        if attention_mask is not None:
            key_padding_mask = attention_mask == 0  # bool, (batch, seq_len)

        ids = torch.arange(self.concept_num, device=input_ids.device)
        hidden = self.concept_embeddings(ids).unsqueeze(0).expand(b, -1, -1)
        for layer in self.layers:
            hidden = layer(concepts=hidden, tokens=tokens, attention_mask=key_padding_mask)
        return self.out_norm(hidden)
