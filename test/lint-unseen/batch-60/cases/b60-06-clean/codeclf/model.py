# case: b60-06-clean
# modelled-on: mwdchang/transformer-classifier https://github.com/mwdchang/transformer-classifier/commit/352a782605f20aae85ac36aae880a64ecba44601
# label: correct
# class: clean
# pattern: a source-code language classifier trained from scratch on a pretrained tokenizer's ids (a folder: the dataset returns the tokenizer's attention_mask, 1 on tokens and 0 on padding; the model runs a sequence-first nn.TransformerEncoder, turns the keep mask into `src_key_padding_mask = attention_mask == 0` and classifies from the first position, the tokenizer's <s>; the training script feeds the batches)
# why: correct: nn.TransformerEncoder's boolean src_key_padding_mask is True on positions to ignore, and `attention_mask == 0` is True exactly on padding; the encoder layer is sequence-first (batch_first left at False) and the embeddings are permuted to (seq, batch, dim) before it, while the padding mask stays (batch, seq) as the API wants; the first position is always a real token, so no row is fully masked
# looks-like: ATT002
# source: https://github.com/mwdchang/transformer-classifier https://github.com/mwdchang/transformer-classifier/commit/352a782605f20aae85ac36aae880a64ecba44601 src/transform_classifier/raw/simple_transformer_classifier.py
import torch.nn as nn


class CodeLanguageClassifier(nn.Module):
    def __init__(self, vocab_size, dim, heads, layers, n_classes, max_length=512):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        layer = nn.TransformerEncoderLayer(d_model=dim, nhead=heads)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.out = nn.Linear(dim, n_classes)
        self.max_length = max_length

    def forward(self, input_ids, attention_mask=None):
        h = self.embed(input_ids).permute(1, 0, 2)  # (seq, batch, dim): the encoder is sequence-first

        # the tokenizer marks real tokens with 1; the encoder wants True where a key is padding
        ignore = None if attention_mask is None else attention_mask == 0

        h = self.encoder(h, src_key_padding_mask=ignore)
        first = h[0]  # (batch, dim): the <s> token
        return self.out(first)
