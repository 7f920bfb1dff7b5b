# case: b7-36-clean
# modelled-on: torchme/sasrec-bert4rec-recsys23 https://github.com/torchme/sasrec-bert4rec-recsys23/commit/4a1ad154237b56cb3f51e47957c8bf96b2c7f7bd
# label: correct
# class: clean
# pattern: sequential recommenders side by side: SASRec with torch nn.MultiheadAttention (sequence-first inputs, attn_mask = ~tril(ones, bool), padded timesteps zeroed by a timeline mask) and BERT4Rec in another module on a transformers BertModel built from a BertConfig, fed the dataset's attention_mask (left padding: 0 for padding, 1 for items) or (input_seq != 0).long() when none is given; the dataset in a third module builds that mask
# why: correct: nn.MultiheadAttention's boolean attn_mask blocks the True entries, and ~tril is True above the diagonal; BertModel's attention_mask is 1 = attend, which both the dataset and the fallback produce
# looks-like: ATT002, ATT008
# source: https://github.com/torchme/sasrec-bert4rec-recsys23 https://github.com/torchme/sasrec-bert4rec-recsys23/commit/4a1ad154237b56cb3f51e47957c8bf96b2c7f7bd src/models/sasrec.py
import torch
import torch.nn as nn


class PointWiseFeedForward(nn.Module):
    def __init__(self, hidden_units, dropout_rate):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(hidden_units, hidden_units), nn.ReLU(), nn.Dropout(dropout_rate), nn.Linear(hidden_units, hidden_units))

    def forward(self, x):
        return x + self.net(x)


class SASRec(nn.Module):
    def __init__(self, item_num, maxlen=200, hidden_units=64, num_blocks=2, num_heads=1, dropout_rate=0.2):
        super().__init__()
        self.item_emb = nn.Embedding(item_num + 1, hidden_units, padding_idx=0)
        self.pos_emb = nn.Embedding(maxlen, hidden_units)
        self.hidden_units = hidden_units
        self.attention_layernorms = nn.ModuleList([nn.LayerNorm(hidden_units, eps=1e-8) for _ in range(num_blocks)])
        self.attention_layers = nn.ModuleList([nn.MultiheadAttention(hidden_units, num_heads, dropout=dropout_rate) for _ in range(num_blocks)])
        self.forward_layernorms = nn.ModuleList([nn.LayerNorm(hidden_units, eps=1e-8) for _ in range(num_blocks)])
        self.forward_layers = nn.ModuleList([PointWiseFeedForward(hidden_units, dropout_rate) for _ in range(num_blocks)])
        self.last_layernorm = nn.LayerNorm(hidden_units, eps=1e-8)

    def forward(self, input_ids):
        seqs = self.item_emb(input_ids) * self.hidden_units**0.5
        batch_size, seq_len = input_ids.size()
        positions = torch.arange(seq_len, device=input_ids.device).unsqueeze(0).expand(batch_size, -1)
        seqs = seqs + self.pos_emb(positions)
        timeline_mask = input_ids == 0
        seqs = seqs * ~timeline_mask.unsqueeze(-1)
        tl = seqs.shape[1]
        attention_mask = ~torch.tril(torch.ones((tl, tl), dtype=torch.bool, device=seqs.device))
        for i in range(len(self.attention_layers)):
            seqs = seqs.transpose(0, 1)  # (T, B, C)
            Q = self.attention_layernorms[i](seqs)
            mha_outputs, _ = self.attention_layers[i](Q, seqs, seqs, attn_mask=attention_mask)
            seqs = (Q + mha_outputs).transpose(0, 1)
            seqs = self.forward_layers[i](self.forward_layernorms[i](seqs))
            seqs = seqs * ~timeline_mask.unsqueeze(-1)
        return self.last_layernorm(seqs) @ self.item_emb.weight.transpose(0, 1)
