# case: t23p-12-clean
# modelled-on: DotBlossom/sasrec-session-shuffled-impliedSignal https://github.com/DotBlossom/sasrec-session-shuffled-impliedSignal/commit/fc111e111298c76611a353b482626f2dc62effd8
# label: correct
# class: clean
# pattern: a sequential-recommendation user tower whose layers let an item-ID stream (queries, length S) read a prefix "prompt" stream of pretrained item vectors: keys and values are torch.cat([prompt, ids], dim=1), length 2S; the causal mask triu(ones(S, S), diagonal=1).bool() is widened to (S, 2S) with torch.cat([mask, mask], dim=1) and the key padding mask (True on the left padding, built by the dataset in another module) to (B, 2S) the same way, then both go to nn.MultiheadAttention(batch_first=True, need_weights=False)
# why: correct: both halves of the keys are indexed by the same positions, so repeating the causal mask lets query i see prompt 0..i and ids 0..i and nothing later, and repeating the padding mask blocks the padded positions in both halves; boolean masks mean True = not allowed for nn.MultiheadAttention, which matches triu(diagonal=1) and a mask that is True on padding; left-padded query rows are fully blocked and come out as zeros from the fused kernel, at positions nobody reads
# looks-like: ATT002, ATT008
# source: https://github.com/DotBlossom/sasrec-session-shuffled-impliedSignal https://github.com/DotBlossom/sasrec-session-shuffled-impliedSignal/commit/fc111e111298c76611a353b482626f2dc62effd8 tower_code/duorec_represent.py
import torch
import torch.nn as nn


class PromptIntegratedLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, attn_dropout=0.05):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=attn_dropout, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d_model, dim_feedforward), nn.GELU(), nn.Dropout(dropout), nn.Linear(dim_feedforward, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.drop1 = nn.Dropout(dropout)
        self.drop2 = nn.Dropout(dropout)

    def forward(self, query_ids, prompt_kv, src_mask=None, src_key_padding_mask=None):
        # query_ids, prompt_kv: (B, S, D); keys/values are the prompt followed by the ids: (B, 2S, D)
        kv = torch.cat([prompt_kv, query_ids], dim=1)
        wide_mask = torch.cat([src_mask, src_mask], dim=1) if src_mask is not None else None  # (S, 2S)
        wide_pad = (
            torch.cat([src_key_padding_mask, src_key_padding_mask], dim=1) if src_key_padding_mask is not None else None
        )  # (B, 2S)
        out, _ = self.attn(
            query=self.norm1(query_ids),
            key=kv,
            value=kv,
            attn_mask=wide_mask,
            key_padding_mask=wide_pad,
            need_weights=False,
        )
        query_ids = query_ids + self.drop1(out)
        return query_ids + self.drop2(self.ff(self.norm2(query_ids)))


class UserTower(nn.Module):
    def __init__(self, n_items, d_model=128, nhead=4, n_layers=2, max_len=50):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, d_model, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, d_model)
        self.item_proj = nn.Linear(256, d_model)
        self.layers = nn.ModuleList([PromptIntegratedLayer(d_model, nhead, 4 * d_model) for _ in range(n_layers)])
        self.out_norm = nn.LayerNorm(d_model)

    @staticmethod
    def causal_mask(n, device):
        return torch.triu(torch.ones(n, n, device=device, dtype=torch.bool), diagonal=1)

    def forward(self, item_ids, pretrained_vecs, padding_mask):
        n = item_ids.size(1)
        pos = self.pos_emb(torch.arange(n, device=item_ids.device))
        prompt = self.item_proj(pretrained_vecs) + pos
        h = self.item_emb(item_ids) + pos
        mask = self.causal_mask(n, item_ids.device)
        for layer in self.layers:
            h = layer(h, prompt, src_mask=mask, src_key_padding_mask=padding_mask)
        return self.out_norm(h)[:, -1, :]  # the most recent position (sequences are left-padded)
