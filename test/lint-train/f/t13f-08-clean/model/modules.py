# case: t13f-08-clean
# modelled-on: Academich/translation-transformer https://github.com/Academich/translation-transformer/commit/608fe78084852f3c0478987c164c0f4bd192d061
# label: correct
# class: clean
# pattern: a reaction/translation transformer on nn.Transformer(batch_first=True) whose training forward builds ADDITIVE float key-padding masks with torch.where(ids != pad, 0.0, -inf) (a commit "made the pad masks also additive float masks instead of boolean masks") next to a float subsequent mask, while the decoding module (another file) builds BOOLEAN pad masks (src == pad).bool() and hands them to the model's encode_src / decode_tgt, which pass them on as src_key_padding_mask / memory_key_padding_mask
# why: correct: PyTorch's key_padding_mask accepts either kind: a bool mask hides the True positions and a float mask is added to the scores, so 0.0 for real tokens and -inf for padding hides exactly the padding in both forms; the polarity is consistent (!= pad -> 0.0, == pad -> True); no query row is left without a key, because every sequence has real tokens and the causal mask keeps the diagonal; what a naive linter could misread: ATT002 (float masks built from != pad passed as key_padding_mask, bool and float masks mixed, masks built in another module), ATT007 (-inf written by torch.where)
# looks-like: ATT002, ATT007
# source: https://github.com/Academich/translation-transformer https://github.com/Academich/translation-transformer/commit/608fe78084852f3c0478987c164c0f4bd192d061 src/model/modules.py
import torch
from torch import BoolTensor, LongTensor, Tensor, nn


class VanillaTransformer(nn.Module):
    def __init__(self, src_vocab: int, tgt_vocab: int, emb_dim: int = 128, num_heads: int = 4, pad_idx: int = 0):
        super().__init__()
        self.src_pad_token_i = pad_idx
        self.tgt_pad_token_i = pad_idx
        self.src_embed = nn.Embedding(src_vocab, emb_dim, padding_idx=pad_idx)
        self.tgt_embed = nn.Embedding(tgt_vocab, emb_dim, padding_idx=pad_idx)
        self.transformer = nn.Transformer(d_model=emb_dim, nhead=num_heads, num_encoder_layers=3,
                                          num_decoder_layers=3, dim_feedforward=256, batch_first=True)
        self.next_token_classifier = nn.Linear(emb_dim, tgt_vocab)

    def forward(self, src: LongTensor, tgt: LongTensor):
        _, tgt_len = tgt.size()
        src_emb, tgt_emb = self.src_embed(src), self.tgt_embed(tgt)
        src_pad_mask = torch.where(src != self.src_pad_token_i, torch.tensor(0.0), torch.tensor(float("-inf")))
        tgt_pad_mask = torch.where(tgt != self.tgt_pad_token_i, torch.tensor(0.0), torch.tensor(float("-inf")))
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt_len).type_as(tgt_emb)
        out = self.transformer(
            src_emb,
            tgt_emb,
            tgt_mask=tgt_mask,
            src_key_padding_mask=src_pad_mask,
            tgt_key_padding_mask=tgt_pad_mask,
            memory_key_padding_mask=src_pad_mask,
        )
        return self.next_token_classifier(out)

    def encode_src(self, src: LongTensor, src_pad_mask: BoolTensor):
        return self.transformer.encoder(self.src_embed(src), src_key_padding_mask=src_pad_mask)

    def decode_tgt(self, tgt: LongTensor, memory: Tensor, memory_pad_mask: BoolTensor):
        _, tgt_len = tgt.size()
        tgt_emb = self.tgt_embed(tgt)
        tgt_pad_mask = torch.where(tgt != self.tgt_pad_token_i, torch.tensor(0.0), torch.tensor(float("-inf")))
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt_len).type_as(tgt_emb)
        out = self.transformer.decoder(tgt_emb, memory, tgt_mask=tgt_mask, tgt_key_padding_mask=tgt_pad_mask,
                                       memory_key_padding_mask=memory_pad_mask)
        return self.next_token_classifier(out)
