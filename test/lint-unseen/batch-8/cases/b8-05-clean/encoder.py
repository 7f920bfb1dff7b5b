from layers.attention import HeadsAttention, padding_mask, subsequent_mask


class Seq2Seq:
    def __init__(self, d_model: int = 512, n_heads: int = 8, pad_id: int = 0):
        self.enc_attn = HeadsAttention(d_model, n_heads, seed=1)
        self.dec_attn = HeadsAttention(d_model, n_heads, seed=2)
        self.pad_id = pad_id

    def forward(self, src_ids, tgt_ids, src_emb, tgt_emb):
        src_mask = padding_mask(src_ids, self.pad_id)
        tgt_mask = padding_mask(tgt_ids, self.pad_id) & subsequent_mask(tgt_ids)
        memory = src_emb + self.enc_attn.forward(src_emb, src_emb, src_mask)
        return tgt_emb + self.dec_attn.forward(tgt_emb, tgt_emb, tgt_mask), memory
