# case: clean-captioning-pixel-attention-squeeze
# modelled-on: sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning/blob/master/models.py
# label: correct
# class: clean
# pattern: Bahdanau-style soft attention over image pixels: nn.Linear(attention_dim, 1) produces (batch, num_pixels, 1) scores that are squeezed on axis 2 before an nn.Softmax(dim=1) module built in __init__; the weights are unsqueezed again and summed over the pixels
# why: after squeeze(2) the scores are (batch, num_pixels), so dim=1 is the pixel axis that the weighted sum reduces; the length-1 axis from the Linear is gone before the softmax; additive attention has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003
# source: https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning https://github.com/sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning/commit/cc9c7e2f4017938d414178d3781fed8dbe442852 models.py
import torch
from torch import nn


class Attention(nn.Module):
    """
    Attention network over the encoded image.
    """

    def __init__(self, encoder_dim, decoder_dim, attention_dim):
        super(Attention, self).__init__()
        self.encoder_att = nn.Linear(encoder_dim, attention_dim)
        self.decoder_att = nn.Linear(decoder_dim, attention_dim)
        self.full_att = nn.Linear(attention_dim, 1)
        self.relu = nn.ReLU()
        self.softmax = nn.Softmax(dim=1)

    def forward(self, encoder_out, decoder_hidden):
        """
        :param encoder_out: encoded images, (batch_size, num_pixels, encoder_dim)
        :param decoder_hidden: previous decoder output, (batch_size, decoder_dim)
        """
        att1 = self.encoder_att(encoder_out)
        att2 = self.decoder_att(decoder_hidden)
        att = self.full_att(self.relu(att1 + att2.unsqueeze(1))).squeeze(2)
        alpha = self.softmax(att)
        attention_weighted_encoding = (encoder_out * alpha.unsqueeze(2)).sum(dim=1)
        return attention_weighted_encoding, alpha


class DecoderWithAttention(nn.Module):
    def __init__(self, attention_dim, embed_dim, decoder_dim, vocab_size, encoder_dim=2048, dropout=0.5):
        super(DecoderWithAttention, self).__init__()
        self.attention = Attention(encoder_dim, decoder_dim, attention_dim)
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.decode_step = nn.LSTMCell(embed_dim + encoder_dim, decoder_dim, bias=True)
        self.init_h = nn.Linear(encoder_dim, decoder_dim)
        self.init_c = nn.Linear(encoder_dim, decoder_dim)
        self.f_beta = nn.Linear(decoder_dim, encoder_dim)
        self.sigmoid = nn.Sigmoid()
        self.fc = nn.Linear(decoder_dim, vocab_size)

    def step(self, encoder_out, embeddings_t, h, c):
        attention_weighted_encoding, alpha = self.attention(encoder_out, h)
        gate = self.sigmoid(self.f_beta(h))
        attention_weighted_encoding = gate * attention_weighted_encoding
        h, c = self.decode_step(torch.cat([embeddings_t, attention_weighted_encoding], dim=1), (h, c))
        return self.fc(h), h, c, alpha

    def init_hidden_state(self, encoder_out):
        mean_encoder_out = encoder_out.mean(dim=1)
        return self.init_h(mean_encoder_out), self.init_c(mean_encoder_out)
