# case: b29-07-clean
# modelled-on: mokoshin0720/ml-artalk https://github.com/mokoshin0720/ml-artalk/commit/959d483eef21d157352a05ef29b2745e29fe3161
# label: correct
# class: clean
# pattern: a captioning experiment for artworks (Show, Attend and Tell): soft attention over ResNet grid features, att1 = encoder_att(encoder_out) (batch, num_pixels, attention_dim), att2 = decoder_att(h) (batch, attention_dim), att = full_att(relu(att1 + att2.unsqueeze(1))).squeeze(2) (batch, num_pixels), alpha = nn.Softmax(dim=1)(att), context = (encoder_out * alpha.unsqueeze(2)).sum(dim=1); a decoder step gates the context with sigmoid(f_beta(h)) before the LSTMCell
# why: correct: after squeeze(2) the scores are 2-D (batch, num_pixels), so dim=1 is the pixel axis and the softmax normalises over the image locations; additive attention needs no 1/sqrt(d) scale; every grid location is real, so no mask
# looks-like: ATT001, ATT003
# source: https://github.com/mokoshin0720/ml-artalk https://github.com/mokoshin0720/ml-artalk/commit/959d483eef21d157352a05ef29b2745e29fe3161 src/experiment/models/show_attend_tell/attention.py
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, encoder_dim, decoder_dim, attention_dim):
        super(Attention, self).__init__()
        self.encoder_att = nn.Linear(encoder_dim, attention_dim)
        self.decoder_att = nn.Linear(decoder_dim, attention_dim)
        self.full_att = nn.Linear(attention_dim, 1)
        self.relu = nn.ReLU()
        self.softmax = nn.Softmax(dim=1)

    def forward(self, encoder_out, decoder_hidden):
        att1 = self.encoder_att(encoder_out)
        att2 = self.decoder_att(decoder_hidden)
        att = self.full_att(self.relu(att1 + att2.unsqueeze(1))).squeeze(2)
        alpha = self.softmax(att)
        attention_weighted_encoding = (encoder_out * alpha.unsqueeze(2)).sum(dim=1)
        return attention_weighted_encoding, alpha


class DecoderStep(nn.Module):
    def __init__(self, attention_dim, embed_dim, decoder_dim, vocab_size, encoder_dim=2048):
        super().__init__()
        self.attention = Attention(encoder_dim, decoder_dim, attention_dim)
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.decode_step = nn.LSTMCell(embed_dim + encoder_dim, decoder_dim, bias=True)
        self.f_beta = nn.Linear(decoder_dim, encoder_dim)
        self.sigmoid = nn.Sigmoid()
        self.fc = nn.Linear(decoder_dim, vocab_size)

    def forward(self, encoder_out, words, h, c):
        context, alpha = self.attention(encoder_out, h)
        gate = self.sigmoid(self.f_beta(h))
        context = gate * context
        h, c = self.decode_step(torch.cat([self.embedding(words), context], dim=1), (h, c))
        return self.fc(h), alpha, h, c
