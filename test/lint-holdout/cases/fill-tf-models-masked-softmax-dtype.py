# case: fill-tf-models-masked-softmax-dtype
# modelled-on: tensorflow/models https://github.com/tensorflow/models/blob/master/official/nlp/modeling/layers/masked_softmax.py
# label: correct
# pattern: Keras masked-softmax layer used by the Model Garden attention layers: the keep-mask (1 = attend) becomes an additive "adder" whose magnitude depends on the score dtype (float16 min for half precision, -1e9 otherwise), and the softmax axes are a constructor argument defaulting to the last axis
# why: (1 - mask) * large_negative only penalises masked positions, the constant is chosen so it fits the dtype actually used (so -1e9 never meets float16), and normalization_axes=(-1,) is the key axis
# looks-like: ATT007, ATT002, ATT001
import tensorflow as tf, tf_keras


def _large_compatible_negative(tensor_type):
  """Large negative number as Tensor.

  This function is necessary because the standard value for epsilon
  in this module (-1e9) cannot be represented using tf.float16

  Args:
    tensor_type: a dtype to determine the type.

  Returns:
    a large negative number.
  """
  if tensor_type == tf.float16:
    return tf.float16.min
  return -1e9


@tf_keras.utils.register_keras_serializable(package='Text')
class MaskedSoftmax(tf_keras.layers.Layer):
  """Performs a softmax with optional masking on a tensor.

  Args:
    mask_expansion_axes: Any axes that should be padded on the mask tensor.
    normalization_axes: On which axes the softmax should perform.
  """

  def __init__(self,
               mask_expansion_axes=None,
               normalization_axes=None,
               **kwargs):
    self._mask_expansion_axes = mask_expansion_axes
    if normalization_axes is None:
      self._normalization_axes = (-1,)
    else:
      self._normalization_axes = normalization_axes
    super().__init__(**kwargs)

  def call(self, scores, mask=None):

    if mask is not None:
      for _ in range(len(scores.shape) - len(mask.shape)):
        mask = tf.expand_dims(mask, axis=self._mask_expansion_axes)

      # Since attention_mask is 1.0 for positions we want to attend and 0.0 for
      # masked positions, this operation will create a tensor which is 0.0 for
      # positions we want to attend and -10000.0 for masked positions.
      adder = (1.0 - tf.cast(mask, scores.dtype)) * _large_compatible_negative(
          scores.dtype)
      # Since we are adding it to the raw scores before the softmax, this is
      # effectively the same as removing these entirely.
      scores += adder

    if len(self._normalization_axes) == 1:
      return tf.nn.softmax(scores, axis=self._normalization_axes[0])
    else:
      return tf.exp(scores - tf.reduce_logsumexp(
          scores, axis=self._normalization_axes, keepdims=True))

  def get_config(self):
    config = {
        'mask_expansion_axes': self._mask_expansion_axes,
        'normalization_axes': self._normalization_axes
    }
    base_config = super().get_config()
    return dict(list(base_config.items()) + list(config.items()))


class DotProductAttention(tf_keras.layers.Layer):
  """Scaled dot-product attention over [batch, heads, seq, dim] inputs."""

  def __init__(self, dropout_rate=0.0, **kwargs):
    super().__init__(**kwargs)
    self._masked_softmax = MaskedSoftmax(mask_expansion_axes=[1])
    self._dropout = tf_keras.layers.Dropout(rate=dropout_rate)

  def call(self, query, key, value, attention_mask=None, training=None):
    depth = tf.cast(tf.shape(query)[-1], query.dtype)
    query = tf.multiply(query, 1.0 / tf.math.sqrt(depth))
    attention_scores = tf.einsum('BNTH,BNFH->BNFT', key, query)
    attention_scores = self._masked_softmax(attention_scores, attention_mask)
    attention_scores_dropout = self._dropout(attention_scores, training=training)
    return tf.einsum('BNFT,BNTH->BNFH', attention_scores_dropout, value)
