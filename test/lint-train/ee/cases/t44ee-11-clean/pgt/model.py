# case: t44ee-11-clean
# modelled-on: ChenghaoMou/transformer-pointer-generator https://github.com/ChenghaoMou/transformer-pointer-generator/commit/f60a74ab8bd92bb5a2372fb2f08f6ad1e0dde47a
# label: correct
# class: clean
# pattern: a pointer-generator Transformer built on a copy of PyTorch's transformer module, fed torchtext's sequence-first batches (length, batch): the training step (another file) builds the padding masks as `ids == pad` in (length, batch) layout, which `encode`/`decode` transpose to (batch, length) for the key padding masks; the target mask comes from the class's own `generate_square_subsequent_mask` (`(triu(ones) == 1).transpose(0, 1)`, then 0.0 where True and -inf where False), repeated along a batch axis so DataParallel can scatter it, and cut back with `tgt_mask[:, 0, ...]`
# why: correct: `ids == pad` is True at padding, what key padding masks want, and the transpose only moves the batch axis first; `triu(ones).T` is the lower triangle with the diagonal, so -inf lands strictly above it and no row is emptied; the repeat and the `[:, 0]` slice undo each other
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/ChenghaoMou/transformer-pointer-generator https://github.com/ChenghaoMou/transformer-pointer-generator/commit/f60a74ab8bd92bb5a2372fb2f08f6ad1e0dde47a transformer/model.py
import torch
from torch.nn import Module


class PointerTransformer(Module):
    def __init__(self, src_embed, tgt_embed, encoder, decoder, generator, d_model=512, nhead=8):
        super().__init__()
        self.src_embed = src_embed
        self.tgt_embed = tgt_embed
        self.encoder = encoder
        self.decoder = decoder
        self.generator = generator
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None):
        memory = self.encode(src, src_mask, src_key_padding_mask)
        return self.decode(src, tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)

    def encode(self, src, src_mask=None, src_key_padding_mask=None):
        if src_key_padding_mask is not None:
            src_key_padding_mask = src_key_padding_mask.transpose(0, 1)  # (S, N) -> (N, S)
        return self.encoder(self.src_embed(src), mask=src_mask, src_key_padding_mask=src_key_padding_mask)

    def decode(self, src, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
               memory_key_padding_mask=None):
        if tgt_key_padding_mask is not None:
            tgt_key_padding_mask = tgt_key_padding_mask.transpose(0, 1)
        if tgt_mask is not None:
            tgt_mask = tgt_mask[:, 0, ...]  # one copy per batch entry was made for DataParallel
        out, attns = self.decoder(self.tgt_embed(tgt), memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                                  tgt_key_padding_mask=tgt_key_padding_mask,
                                  memory_key_padding_mask=memory_key_padding_mask)
        return self.generator(src, out, attns[-1], memory)

    @staticmethod
    def generate_square_subsequent_mask(sz):
        """0.0 where a position may be attended, -inf where it may not."""
        allowed = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
        return allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, float(0.0))
