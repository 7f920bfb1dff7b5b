# case: t18k-07-clean
# modelled-on: stephenllh/image-captioning-transformer https://github.com/stephenllh/image-captioning-transformer/commit/7d0e404d56a1765e0a82999145e0ca82398be033
# label: correct
# class: clean
# pattern: an image-captioning model, a frozen CNN encoder and nn.TransformerDecoder (batch_first): the collate code (dataset.py) returns masks called attention_masks that are bool zeros with True from the first padding position on; the decoder passes them as tgt_key_padding_mask next to nn.Transformer.generate_square_subsequent_mask; greedy inference (inference.py) fills a fixed-length caption buffer and, at step i, passes a mask that is True on positions i + 1 and later
# why: correct: despite the HF-style name, the masks are True on padding, which is what tgt_key_padding_mask means (True = ignore); at inference the not-yet-generated positions are hidden as padding keys and the causal float mask hides the future, and every query keeps position 0 visible, so no row is all -inf; the prediction read at step i comes from query i, which sees exactly tokens 0..i
# looks-like: ATT002, ATT008
# source: https://github.com/stephenllh/image-captioning-transformer https://github.com/stephenllh/image-captioning-transformer/commit/7d0e404d56a1765e0a82999145e0ca82398be033 src/model.py
import torch
from torch import nn


class Captioner(nn.Module):
    def __init__(self, feature_dim, vocab_size, d_model=512, n_head=8, layers=3, max_seq_length=40):
        super().__init__()
        self.encoder_linear = nn.Linear(feature_dim, d_model)
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.positional_embedding = nn.Embedding(max_seq_length, d_model)
        layer = nn.TransformerDecoderLayer(d_model, n_head, 4 * d_model, 0.1, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, layers)
        self.linear = nn.Linear(d_model, vocab_size)
        self.d_model = d_model

    def forward(self, image_feature, caption, target_pad_mask):
        b, t = caption.shape
        x = self.token_embedding(caption) * (self.d_model ** 0.5)
        x = x + self.positional_embedding(torch.arange(t, device=caption.device).unsqueeze(0).repeat(b, 1))
        memory = self.encoder_linear(image_feature).unsqueeze(1)  # one memory token per image
        causal = nn.Transformer.generate_square_subsequent_mask(t).to(caption.device)
        x = self.decoder(x, memory, tgt_mask=causal, tgt_key_padding_mask=target_pad_mask)
        return self.linear(x)
