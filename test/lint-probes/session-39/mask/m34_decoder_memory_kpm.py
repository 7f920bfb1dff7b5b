import torch.nn as nn

PAD_IDX = 0


class Translator(nn.Module):
    def __init__(self, d=512):
        super().__init__()
        self.src_emb = nn.Embedding(32000, d)
        self.tgt_emb = nn.Embedding(32000, d)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 8, batch_first=True), 3)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(d, 8, batch_first=True), 3)

    def forward(self, src, tgt, causal):
        src_pad = src.eq(PAD_IDX)
        memory = self.encoder(self.src_emb(src), src_key_padding_mask=src_pad)
        return self.decoder(self.tgt_emb(tgt), memory, tgt_mask=causal, memory_key_padding_mask=src_pad)
