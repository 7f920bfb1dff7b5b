"""BERT input embedding (token + position + segment) and the encoder's attention mask."""
import torch
import torch.nn as nn


class InputEmbedding(nn.Module):
    def __init__(self, vocab_size, seq_length, d_model, pad_idx):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, d_model, padding_idx=pad_idx)
        self.pos_emb = nn.Embedding(seq_length, d_model)
        self.seg_emb = nn.Embedding(3, d_model, padding_idx=pad_idx)

    def generate_enc_mask(self, src):
        keep = (src != 0).unsqueeze(1).unsqueeze(2)  # (batch, 1, 1, seq), True at real tokens
        return self.convert_mask_to_sum_form(keep)

    def convert_mask_to_sum_form(self, keep):
        """Additive form of the mask: -inf at padding, 0 at real tokens."""
        sum_form = torch.empty_like(keep)
        sum_form[keep == 0] = float("-inf")
        sum_form[keep == 1] = 0
        return sum_form

    def forward(self, txt, seg):
        pos = torch.arange(txt.shape[1], device=txt.device).unsqueeze(0).expand_as(txt)
        return self.tok_emb(txt) + self.pos_emb(pos) + self.seg_emb(seg)
