# case: b7-21-clean
# modelled-on: bigshanedogg/torch-transformer-from-scratch https://github.com/bigshanedogg/torch-transformer-from-scratch/commit/31988e7fa1a440d246722b420fba51e550313b58
# label: correct
# class: clean
# pattern: a BERT pretraining model whose forward runs under torch.cuda.amp autocast: a helper in a utils module builds pad_mask = ids == pad_token_id (True at padding) and an additive subsequent mask (0 / -inf float), the encoder layers in another module wrap torch's multi-head attention and pass the pad mask as key_padding_mask; the BERT forward calls the encoder with src_key_padding_mask=pad_mask
# why: correct: torch's key_padding_mask ignores the True positions, and the helper marks the padding True; the -inf additive mask is PyTorch's own convention for attn_mask and is not used by the bidirectional encoder here; no fill value is written in float16
# looks-like: ATT002, ATT007
# source: https://github.com/bigshanedogg/torch-transformer-from-scratch https://github.com/bigshanedogg/torch-transformer-from-scratch/commit/31988e7fa1a440d246722b420fba51e550313b58 transformer/models/bert.py
import torch.nn as nn
from torch.cuda.amp import autocast

from attention import EncoderLayer
from utils import get_pad_mask


class Bert(nn.Module):
    def __init__(self, vocab_size, d_model=768, d_ff=3072, num_heads=12, num_layers=12, pad_token_id=0, timesteps=512):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(timesteps, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, d_ff, num_heads) for _ in range(num_layers)])
        self.mlm = nn.Linear(d_model, vocab_size)
        self.nsp = nn.Linear(d_model, 2)

    @autocast()
    def forward(self, token_ids, positions):
        pad_mask = get_pad_mask(inputs=token_ids, pad_token_id=self.pad_token_id)  # (B, T)
        x = self.tok(token_ids) + self.pos(positions)
        for layer in self.layers:
            x = layer(src=x, src_key_padding_mask=pad_mask)
        return {"mlm": self.mlm(x).log_softmax(dim=-1), "nsp": self.nsp(x[:, 0])}
