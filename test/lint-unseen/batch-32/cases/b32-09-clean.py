# case: b32-09-clean
# modelled-on: chao-ji/tf-transformerxl-language-model https://github.com/chao-ji/tf-transformerxl-language-model/commit/889d96d64e98fffe6fecf590b704df4a840ada2f
# label: correct
# class: clean
# pattern: a TensorFlow 2 Transformer-XL language model (segment-level recurrence with cached memories, relative positions): get_look_ahead_mask builds a float mask of shape [1, 1, q_len, m_len + q_len] as concat([zeros(q_len, m_len), band_part(ones, 0, -1) - band_part(ones, 0, 0)]), 1 marking the keys to drop; Attention projects queries from the current segment and keys / values from concat([memory, query]) with per-head (split) projections of size_per_head = hidden_size // num_heads, forms content and position scores with tf.einsum('NQHS,NRHS->NHQR', ...) and tf.einsum('NQHS,RHS->NHQR', ...), relative-shifts the position scores, divides their sum by size_per_head ** 0.5, adds token_mask * NEG_INF and takes tf.nn.softmax(axis=3)
# why: correct: the mask is 0 on every memory column and on the query's own and earlier positions and 1 strictly above the diagonal of the segment block, so each query sees the cached memory and its past and NEG_INF only lands on the future (the offset by m_len is built in, which is what a cached causal mask needs); the scale is one head's width; axis 3 of [batch, heads, q_len, m_len + q_len] is the reference (key) axis; the einsum contracts the per-head features, so no explicit transpose is needed
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT008
# source: https://github.com/chao-ji/tf-transformerxl-language-model https://github.com/chao-ji/tf-transformerxl-language-model/commit/889d96d64e98fffe6fecf590b704df4a840ada2f model.py, utils.py
import tensorflow as tf

from commons.beam_search import NEG_INF
from commons.layers import Projection


def get_look_ahead_mask(q_seq_len, m_seq_len):
  """[1, 1, q_seq_len, m_seq_len + q_seq_len]: 0 for memory and past tokens, 1 for future tokens (to be masked)."""
  mask = tf.ones([q_seq_len, q_seq_len])
  mask_u = tf.linalg.band_part(mask, 0, -1)
  mask_dia = tf.linalg.band_part(mask, 0, 0)
  mask_pad = tf.zeros([q_seq_len, m_seq_len])
  look_ahead_mask = tf.concat([mask_pad, mask_u - mask_dia], 1)
  return look_ahead_mask[tf.newaxis, tf.newaxis, :, :]


def rel_shift(inputs):
  """Left-shifts row i of each [q_seq_len, r_seq_len] slice by q_seq_len - 1 - i positions."""
  batch_size, num_heads, q_seq_len, r_seq_len = tf.unstack(tf.shape(inputs))
  padded = tf.pad(inputs, [[0, 0], [0, 0], [0, 0], [1, 0]])
  padded = tf.reshape(padded, [batch_size, num_heads, r_seq_len + 1, q_seq_len])
  return tf.reshape(padded[:, :, 1:], [batch_size, num_heads, q_seq_len, r_seq_len])


class Attention(tf.keras.layers.Layer):
  """Multi-headed relative attention of TransformerXL; content and position biases come from the caller."""

  def __init__(self, hidden_size, num_heads, dropout_rate_attention):
    super(Attention, self).__init__()
    self._hidden_size = hidden_size
    self._num_heads = num_heads
    self._size_per_head = hidden_size // num_heads

    self._dense_layer_query = Projection(num_heads, self._size_per_head, mode='split')
    self._dense_layer_key_content = Projection(num_heads, self._size_per_head, mode='split')
    self._dense_layer_value = Projection(num_heads, self._size_per_head, mode='split')
    self._dense_layer_key_position = Projection(num_heads, self._size_per_head, mode='split')
    self._dense_layer_output = Projection(num_heads, self._size_per_head, mode='merge')
    self._attention_dropout_layer = tf.keras.layers.Dropout(dropout_rate_attention)

  def call(self, query_seqs, memory_seqs, positional_encoding, token_mask, content_bias, position_bias, training=False):
    # [batch_size, m_seq_len + q_seq_len, hidden_size]
    reference_seqs = tf.concat([memory_seqs, query_seqs], axis=1)

    query = self._dense_layer_query(query_seqs)
    key_content = self._dense_layer_key_content(reference_seqs)
    key_position = self._dense_layer_key_position(positional_encoding[tf.newaxis])[0]
    value = self._dense_layer_value(reference_seqs)

    # [batch_size, num_heads, q_seq_len, m_seq_len + q_seq_len]
    content = tf.einsum('NQHS,NRHS->NHQR', query + content_bias, key_content)
    positions = tf.einsum('NQHS,RHS->NHQR', query + position_bias, key_position)
    positions = rel_shift(positions)

    attention_weights = (content + positions) / (self._size_per_head ** 0.5)
    attention_weights += token_mask * NEG_INF
    attention_weights = tf.nn.softmax(attention_weights, axis=3)
    attention_weights = self._attention_dropout_layer(attention_weights, training=training)

    # [batch_size, q_seq_len, num_heads, size_per_head]
    outputs = tf.einsum('NHQR,NRHS->NQHS', attention_weights, value)
    return self._dense_layer_output(outputs)


def decoder_attention(attention, inputs, memories, positional_encoding, content_bias, position_bias, training):
  q_seq_len, m_seq_len = tf.shape(inputs)[1], tf.shape(memories)[1]
  look_ahead_mask = get_look_ahead_mask(q_seq_len, m_seq_len)
  return attention(inputs, memories, positional_encoding, look_ahead_mask, content_bias, position_bias, training)
