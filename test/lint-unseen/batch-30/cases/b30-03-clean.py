# case: b30-03-clean
# modelled-on: soskek/attention_is_all_you_need https://github.com/soskek/attention_is_all_you_need/commit/1c72fd1e50c164449b5fb60d2d46d1f2a7c48224
# label: correct
# class: clean
# pattern: a Chainer Transformer for machine translation whose sentence blocks are channels-first (batch, units, length): position-wise layers are 1x1 convolutions, MultiHeadAttention splits the units into h heads and stacks them on the batch axis with F.concat(F.split_axis(Q, h, axis=1), axis=0), forms the scores with F.batch_matmul(batch_Q, batch_K, transa=True) (the queries transposed, not the keys) times scale_score = 1 / (n_units // h) ** 0.5, keeps the allowed entries with F.where(mask, scores, -inf), takes F.softmax over axis=2, zeroes the NaN rows of fully masked queries, and sums the broadcast weights times the values over axis=3; the masks are 0/1 keep masks built from token ids >= 0, and the decoder's history mask arange[None, ] <= arange[:, None]
# why: correct: with channels-first blocks, Q and K are (batch*h, d_head, length), so transposing the queries (transa=True) gives (batch*h, n_querys, n_keys) scores, the same product as q @ k^T in the usual layout; the scale is 1/sqrt of one head's width; F.where keeps the scores where the mask is True (a real key, and for the decoder a key at or before the query) and puts -inf elsewhere before the softmax over axis=2, the key axis; the NaN clean-up only touches rows with no allowed key; the weighted sum runs over the key axis of the broadcast product
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/soskek/attention_is_all_you_need https://github.com/soskek/attention_is_all_you_need/commit/1c72fd1e50c164449b5fb60d2d46d1f2a7c48224 net.py
import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L

linear_init = chainer.initializers.LeCunUniform()


class ConvolutionSentence(L.Convolution2D):

    """Position-wise linear layer for blocks of shape (batchsize, dimension, sentence_length)."""

    def __init__(self, in_channels, out_channels, ksize=1, stride=1, pad=0, nobias=False, initialW=None, initial_bias=None):
        super(ConvolutionSentence, self).__init__(in_channels, out_channels, ksize, stride, pad, nobias, initialW, initial_bias)

    def __call__(self, x):
        x = F.expand_dims(x, axis=3)
        y = super(ConvolutionSentence, self).__call__(x)
        y = F.squeeze(y, axis=3)
        return y


class MultiHeadAttention(chainer.Chain):

    """Multi-head attention over sentence blocks; the query-key products of all heads are one batched product."""

    def __init__(self, n_units, h=8, dropout=0.1, self_attention=True):
        super(MultiHeadAttention, self).__init__()
        with self.init_scope():
            if self_attention:
                self.W_QKV = ConvolutionSentence(n_units, n_units * 3, nobias=True, initialW=linear_init)
            else:
                self.W_Q = ConvolutionSentence(n_units, n_units, nobias=True, initialW=linear_init)
                self.W_KV = ConvolutionSentence(n_units, n_units * 2, nobias=True, initialW=linear_init)
            self.finishing_linear_layer = ConvolutionSentence(n_units, n_units, nobias=True, initialW=linear_init)
        self.h = h
        self.scale_score = 1. / (n_units // h) ** 0.5
        self.dropout = dropout
        self.is_self_attention = self_attention

    def __call__(self, x, z=None, mask=None):
        xp = self.xp
        h = self.h

        if self.is_self_attention:
            Q, K, V = F.split_axis(self.W_QKV(x), 3, axis=1)
        else:
            Q = self.W_Q(x)
            K, V = F.split_axis(self.W_KV(z), 2, axis=1)
        batch, n_units, n_querys = Q.shape
        _, _, n_keys = K.shape

        # Pseudo-batch the heads: (batch * h, n_units // h, length)
        batch_Q = F.concat(F.split_axis(Q, h, axis=1), axis=0)
        batch_K = F.concat(F.split_axis(K, h, axis=1), axis=0)
        batch_V = F.concat(F.split_axis(V, h, axis=1), axis=0)
        assert batch_Q.shape == (batch * h, n_units // h, n_querys)
        assert batch_K.shape == (batch * h, n_units // h, n_keys)

        mask = xp.concatenate([mask] * h, axis=0)
        batch_A = F.batch_matmul(batch_Q, batch_K, transa=True) * self.scale_score
        batch_A = F.where(mask, batch_A, xp.full(batch_A.shape, -np.inf, 'f'))
        batch_A = F.softmax(batch_A, axis=2)
        batch_A = F.where(xp.isnan(batch_A.data), xp.zeros(batch_A.shape, 'f'), batch_A)
        assert batch_A.shape == (batch * h, n_querys, n_keys)

        # Weighted sum over the keys
        batch_A, batch_V = F.broadcast(batch_A[:, None], batch_V[:, :, None])
        batch_C = F.sum(batch_A * batch_V, axis=3)
        assert batch_C.shape == (batch * h, n_units // h, n_querys)
        C = F.concat(F.split_axis(batch_C, h, axis=0), axis=1)
        assert C.shape == (batch, n_units, n_querys)
        return self.finishing_linear_layer(C)


class DecoderLayer(chainer.Chain):
    def __init__(self, n_units, h=8, dropout=0.1):
        super(DecoderLayer, self).__init__()
        with self.init_scope():
            self.self_attention = MultiHeadAttention(n_units, h)
            self.source_attention = MultiHeadAttention(n_units, h, self_attention=False)
        self.dropout = dropout

    def __call__(self, e, s, xy_mask, yy_mask):
        e = e + F.dropout(self.self_attention(e, e, yy_mask), self.dropout)
        e = e + F.dropout(self.source_attention(e, s, xy_mask), self.dropout)
        return e


class Seq2seqMasks(chainer.Chain):

    def make_attention_mask(self, source_block, target_block):
        # token ids are -1 on padding: True where both query and key are real tokens
        mask = (target_block[:, None, :] >= 0) * (source_block[:, :, None] >= 0)
        # (batch, source_length, target_length)
        return mask

    def make_history_mask(self, block):
        batch, length = block.shape
        arange = self.xp.arange(length)
        history_mask = (arange[None, ] <= arange[:, None])[None, ]
        return self.xp.broadcast_to(history_mask, (batch, length, length))

    def decoder_masks(self, x_block, y_in_block):
        xy_mask = self.make_attention_mask(y_in_block, x_block)
        yy_mask = self.make_attention_mask(y_in_block, y_in_block)
        yy_mask *= self.make_history_mask(y_in_block)
        return xy_mask, yy_mask
