# case: mask-google-bert-tf1-adder
# modelled-on: google-research/bert https://github.com/google-research/bert/blob/master/modeling.py
# label: correct
# pattern: TF1 BERT attention layer on 2-D (batch*seq, width) tensors: heads are split by reshape/transpose, scores use tf.matmul(..., transpose_b=True), the (1 = attend) attention mask becomes an additive -10000 "adder", and tf.nn.softmax is called without an axis
# why: transpose_b=True contracts the last axes of q and k, the scale is 1/sqrt(size_per_head), (1 - mask) * -10000 only penalises padding, and tf.nn.softmax defaults to the last (key) axis; BERT runs in float32 here, where -10000 is plenty
# looks-like: ATT001, ATT002, ATT005, ATT007
import math

import tensorflow as tf


def get_shape_list(tensor, expected_rank=None, name=None):
  shape = tensor.shape.as_list()
  non_static_indexes = []
  for (index, dim) in enumerate(shape):
    if dim is None:
      non_static_indexes.append(index)
  if not non_static_indexes:
    return shape
  dyn_shape = tf.shape(tensor)
  for index in non_static_indexes:
    shape[index] = dyn_shape[index]
  return shape


def dropout(input_tensor, dropout_prob):
  if dropout_prob is None or dropout_prob == 0.0:
    return input_tensor
  return tf.nn.dropout(input_tensor, 1.0 - dropout_prob)


def create_initializer(initializer_range=0.02):
  return tf.truncated_normal_initializer(stddev=initializer_range)


def create_attention_mask_from_input_mask(from_tensor, to_mask):
  """Create 3D attention mask from a 2D tensor mask."""
  from_shape = get_shape_list(from_tensor, expected_rank=[2, 3])
  batch_size = from_shape[0]
  from_seq_length = from_shape[1]

  to_shape = get_shape_list(to_mask, expected_rank=2)
  to_seq_length = to_shape[1]

  to_mask = tf.cast(
      tf.reshape(to_mask, [batch_size, 1, to_seq_length]), tf.float32)

  broadcast_ones = tf.ones(
      shape=[batch_size, from_seq_length, 1], dtype=tf.float32)

  mask = broadcast_ones * to_mask
  return mask


def attention_layer(from_tensor,
                    to_tensor,
                    attention_mask=None,
                    num_attention_heads=1,
                    size_per_head=512,
                    attention_probs_dropout_prob=0.0,
                    initializer_range=0.02,
                    batch_size=None,
                    from_seq_length=None,
                    to_seq_length=None):
  """Performs multi-headed attention from `from_tensor` to `to_tensor`."""

  def transpose_for_scores(input_tensor, batch_size, num_attention_heads,
                           seq_length, width):
    output_tensor = tf.reshape(
        input_tensor, [batch_size, seq_length, num_attention_heads, width])

    output_tensor = tf.transpose(output_tensor, [0, 2, 1, 3])
    return output_tensor

  from_tensor_2d = from_tensor
  to_tensor_2d = to_tensor

  query_layer = tf.layers.dense(
      from_tensor_2d,
      num_attention_heads * size_per_head,
      name="query",
      kernel_initializer=create_initializer(initializer_range))

  key_layer = tf.layers.dense(
      to_tensor_2d,
      num_attention_heads * size_per_head,
      name="key",
      kernel_initializer=create_initializer(initializer_range))

  value_layer = tf.layers.dense(
      to_tensor_2d,
      num_attention_heads * size_per_head,
      name="value",
      kernel_initializer=create_initializer(initializer_range))

  query_layer = transpose_for_scores(query_layer, batch_size,
                                     num_attention_heads, from_seq_length,
                                     size_per_head)

  key_layer = transpose_for_scores(key_layer, batch_size, num_attention_heads,
                                   to_seq_length, size_per_head)

  # Take the dot product between "query" and "key" to get the raw
  # attention scores.
  attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
  attention_scores = tf.multiply(attention_scores,
                                 1.0 / math.sqrt(float(size_per_head)))

  if attention_mask is not None:
    attention_mask = tf.expand_dims(attention_mask, axis=[1])

    # Since attention_mask is 1.0 for positions we want to attend and 0.0 for
    # masked positions, this operation will create a tensor which is 0.0 for
    # positions we want to attend and -10000.0 for masked positions.
    adder = (1.0 - tf.cast(attention_mask, tf.float32)) * -10000.0

    # Since we are adding it to the raw scores before the softmax, this is
    # effectively the same as removing these entirely.
    attention_scores += adder

  # Normalize the attention scores to probabilities.
  attention_probs = tf.nn.softmax(attention_scores)

  # This is actually dropping out entire tokens to attend to, which might
  # seem a bit unusual, but is taken from the original Transformer paper.
  attention_probs = dropout(attention_probs, attention_probs_dropout_prob)

  value_layer = tf.reshape(
      value_layer,
      [batch_size, to_seq_length, num_attention_heads, size_per_head])

  value_layer = tf.transpose(value_layer, [0, 2, 1, 3])

  context_layer = tf.matmul(attention_probs, value_layer)

  context_layer = tf.transpose(context_layer, [0, 2, 1, 3])

  context_layer = tf.reshape(
      context_layer,
      [batch_size * from_seq_length, num_attention_heads * size_per_head])

  return context_layer
