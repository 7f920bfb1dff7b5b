# case: t33z-10-clean
# modelled-on: jwizenf2/SASRec-Semantic-Injections https://github.com/jwizenf2/SASRec-Semantic-Injections/commit/dc81e13c45cb38ee878d8ed5e48223a0649462e4
# label: correct
# class: clean
# pattern: two sequential recommenders over left-padded item sequences (id 0 = padding) whose transformer blocks live in another module and wrap nn.MultiheadAttention(batch_first=True): SASRec builds its causal mask as torch.triu(ones(L, L), diagonal=1) then masked_fill(mask == 1, float("-inf")), a float mask of 0 on and below the diagonal and -inf above it, passed as attn_mask; BERT4Rec is bidirectional and passes key_padding_mask = (seq == 0), True at the padding; both zero the padded positions' features after every block and take the representation at the last position
# why: correct: a float attn_mask is added to the scores, so -inf above the diagonal hides the future and 0 keeps the past; a boolean key_padding_mask hides the keys where it is True, which is the padding here; every row keeps at least its own position (causal) or the appended [MASK] / last item (bidirectional), so no row is all -inf. SASRec, like the common PyTorch port, adds no key padding mask: the left padding is zero features that real positions may still attend to, a modelling choice outside the rules' classes
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/jwizenf2/SASRec-Semantic-Injections https://github.com/jwizenf2/SASRec-Semantic-Injections/commit/dc81e13c45cb38ee878d8ed5e48223a0649462e4 sasrec_injection/src/sasrec_injection/models/sasrec.py
import torch
import torch.nn as nn

from seqrec.blocks import BidirectionalBlock, CausalBlock


class SASRec(nn.Module):
    def __init__(self, num_items, embed_dim=50, num_blocks=2, num_heads=1, max_seq_len=200, dropout=0.2):
        super().__init__()
        self.item_emb = nn.Embedding(num_items + 1, embed_dim, padding_idx=0)
        self.pos_emb = nn.Embedding(max_seq_len, embed_dim)
        self.emb_dropout = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([CausalBlock(embed_dim, num_heads, dropout) for _ in range(num_blocks)])
        self.final_norm = nn.LayerNorm(embed_dim)

    def _causal_mask(self, seq_len, device):
        mask = torch.triu(torch.ones(seq_len, seq_len, device=device), diagonal=1)
        return mask.masked_fill(mask == 1, float("-inf"))

    def forward(self, seq):
        _, seq_len = seq.shape
        positions = torch.arange(seq_len, device=seq.device).unsqueeze(0)
        x = self.emb_dropout(self.item_emb(seq) + self.pos_emb(positions))
        padding = (seq == 0).unsqueeze(-1)
        x = x.masked_fill(padding, 0.0)

        attn_mask = self._causal_mask(seq_len, seq.device)
        for block in self.blocks:
            x = block(x, attn_mask)
            x = x.masked_fill(padding, 0.0)
        return self.final_norm(x)

    def score_all_items(self, seq):
        rep = self.forward(seq)[:, -1, :]
        return rep @ self.item_emb.weight[1:].T


class BERT4Rec(nn.Module):
    def __init__(self, num_items, embed_dim=64, num_blocks=2, num_heads=2, max_seq_len=200, dropout=0.2):
        super().__init__()
        self.num_items = num_items
        self.mask_token_id = num_items + 1
        self.item_emb = nn.Embedding(num_items + 2, embed_dim, padding_idx=0)
        self.pos_emb = nn.Embedding(max_seq_len, embed_dim)
        self.emb_dropout = nn.Dropout(dropout)
        self.blocks = nn.ModuleList([BidirectionalBlock(embed_dim, num_heads, dropout) for _ in range(num_blocks)])
        self.final_norm = nn.LayerNorm(embed_dim)

    def forward(self, seq):
        _, seq_len = seq.shape
        positions = torch.arange(seq_len, device=seq.device).unsqueeze(0)
        x = self.emb_dropout(self.item_emb(seq) + self.pos_emb(positions))
        padding_mask = (seq == 0)
        x = x.masked_fill(padding_mask.unsqueeze(-1), 0.0)
        for block in self.blocks:
            x = block(x, key_padding_mask=padding_mask)
            x = x.masked_fill(padding_mask.unsqueeze(-1), 0.0)
        return self.final_norm(x)

    def score_all_items(self, seq):
        mask_col = torch.full((seq.size(0), 1), self.mask_token_id, dtype=torch.long, device=seq.device)
        eval_seq = torch.cat([seq[:, 1:], mask_col], dim=1)
        rep = self.forward(eval_seq)[:, -1, :]
        return rep @ self.item_emb.weight[1:self.num_items + 1].T
