# case: b16-07-clean
# modelled-on: LinjianLi/Seq2Seq-PyTorch https://github.com/LinjianLi/Seq2Seq-PyTorch/commit/7e34a03768e380707d35307625a0842d56c38ae9
# label: correct
# class: clean
# pattern: a seq2seq framework's nn.TransformerEncoder / nn.TransformerDecoder model (batch_first): the causal target mask is the old PyTorch idiom (triu(ones) == 1).transpose(0, 1), cast to float, masked_fill(mask == 0, -inf) then masked_fill(mask == 1, 0.0); the source padding mask is (ids == padding_idx) and goes to src_key_padding_mask and memory_key_padding_mask, the target padding mask likewise to tgt_key_padding_mask
# why: correct: the transposed upper triangle is the lower triangle, so after the two fills the additive mask is 0 on the past and -inf on the future, which is what tgt_mask expects; == padding_idx is True on padding, which is what the *_key_padding_mask arguments expect (True = ignore); the real forward built the target padding mask from the already embedded source tensor (a separate defect that fails on shapes), which the case builds from the target ids
# looks-like: ATT002, ATT007
# source: https://github.com/LinjianLi/Seq2Seq-PyTorch https://github.com/LinjianLi/Seq2Seq-PyTorch/commit/7e34a03768e380707d35307625a0842d56c38ae9 seq2seq/model/seq2seq_transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer


class Seq2SeqTransformer(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, embed_size=256, heads=8, hidden=1024, layers=3,
                 dropout=0.1, padding_idx=0, start_token=1, device="cpu"):
        super().__init__()
        self.padding_idx = padding_idx
        self.start_token = start_token
        self.device = device
        self.enc_embedder = nn.Embedding(src_vocab, embed_size, padding_idx=padding_idx)
        self.dec_embedder = nn.Embedding(tgt_vocab, embed_size, padding_idx=padding_idx)
        self.encoder = TransformerEncoder(
            TransformerEncoderLayer(embed_size, heads, hidden, dropout, batch_first=True), layers)
        self.decoder = TransformerDecoder(
            TransformerDecoderLayer(embed_size, heads, hidden, dropout, batch_first=True), layers)
        self.output_layer = nn.Linear(embed_size, tgt_vocab)

    def generate_square_subsequent_mask(self, sz):
        """Masked positions are filled with float('-inf'), unmasked positions with 0.0."""
        mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
        mask = mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, float(0.0))
        return mask.to(self.device)

    def forward(self, enc_ids, dec_ids, tgt_mask=None):
        enc_pad = (enc_ids == self.padding_idx) if self.padding_idx is not None else None
        memory = self.encoder(src=self.enc_embedder(enc_ids), mask=None, src_key_padding_mask=enc_pad)

        sos = torch.full((dec_ids.size(0), 1), self.start_token, dtype=torch.long, device=dec_ids.device)
        dec_ids = torch.cat((sos, dec_ids), dim=-1)[:, :-1]
        if tgt_mask is None:
            tgt_mask = self.generate_square_subsequent_mask(dec_ids.size(1))
        dec_pad = (dec_ids == self.padding_idx) if self.padding_idx is not None else None

        out = self.decoder(
            self.dec_embedder(dec_ids),
            memory,
            tgt_mask=tgt_mask,
            memory_mask=None,
            tgt_key_padding_mask=dec_pad,
            memory_key_padding_mask=enc_pad,
        )
        return F.log_softmax(self.output_layer(out), dim=-1)
