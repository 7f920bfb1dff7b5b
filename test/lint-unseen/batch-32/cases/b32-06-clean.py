# case: b32-06-clean
# modelled-on: IMvision12/keras-vision-models https://github.com/IMvision12/keras-vision-models/commit/012627e4f523191eb61750650fe5d3aa3010b4ed
# label: correct
# class: clean
# pattern: a Keras 3 (backend-agnostic keras.ops) port of the Swin Transformer's shifted-window attention: WindowAttention sets self.scale = qk_scale or head_dim ** -0.5, partitions the fused qkv Dense output into windows, unstacks q, k, v, multiplies q by the scale, swaps the last two axes of k with ops.swapaxes(k, -2, -1), adds a learned relative-position bias gathered with ops.take, adds the additive shift mask (0 inside a window region, a large negative value across regions, one per window) through a reshape to (-1, windows, heads, L, L) and back, then calls ops.softmax(attn) with its default axis
# why: correct: keras.ops.softmax defaults to axis=-1, the keys; q is scaled once by 1/sqrt(head_dim) (qk_scale is only an override); swapaxes(k, -2, -1) is the key transpose for (batch*windows, heads, L, head_dim); the shift mask is additive and is added to the logits before the softmax, so positions from another region get ~0 weight; the reshape round trip lines each window's mask up with its logits
# looks-like: ATT001, ATT004, ATT005, ATT006
# source: https://github.com/IMvision12/keras-vision-models https://github.com/IMvision12/keras-vision-models/commit/012627e4f523191eb61750650fe5d3aa3010b4ed kvmm/layers/window_attention.py
import keras
from keras import layers, ops

from .window_partition import WindowPartition
from .window_reverse import WindowReverse


@keras.saving.register_keras_serializable(package="kvmm")
class WindowAttention(layers.Layer):
    """Window-based multi-head self-attention with a relative position bias (Swin)."""

    def __init__(self, dim, num_heads, window_size, qkv_bias=True, qk_scale=None, attn_drop=0.0, proj_drop=0.0, block_prefix=None, **kwargs):
        super().__init__(**kwargs)
        assert dim % num_heads == 0, "dim should be divisible by num_heads"
        self.dim = dim
        self.num_heads = num_heads
        self.window_size = int(window_size)
        self.head_dim = dim // num_heads
        self.scale = qk_scale or self.head_dim**-0.5
        self.block_prefix = block_prefix if block_prefix is not None else "blocks"
        prefix = f"{self.block_prefix}_"

        self.qkv = layers.Dense(dim * 3, use_bias=qkv_bias, name=prefix + "attn_qkv")
        self.window_partition = WindowPartition(window_size=self.window_size, fused=True, num_heads=num_heads, qkv_mult=3)
        self.window_reverse = WindowReverse(window_size=self.window_size, fused=True, num_heads=num_heads)
        self.drop_attn = layers.Dropout(attn_drop)
        self.proj = layers.Dense(dim, name=prefix + "attn_proj")
        self.drop_proj = layers.Dropout(proj_drop)

    def build(self, input_shape):
        feature_dim = input_shape[0][-1]
        if feature_dim != self.dim:
            raise ValueError(f"Input feature dimension {feature_dim} must match layer dimension {self.dim}")
        self.qkv.build(input_shape[0])
        self.proj.build((input_shape[0][0], input_shape[0][1], input_shape[0][2], self.dim))
        self.relative_bias = self.add_weight(
            name=f"{self.block_prefix}_attn_relative_position_bias_table",
            shape=[(2 * self.window_size - 1) ** 2, self.num_heads],
            trainable=True,
        )
        self.built = True

    def with_mask(self, attn, mask, length):
        mask_windows = ops.shape(mask)[1]
        attn = ops.reshape(attn, [-1, mask_windows, self.num_heads, length, length])
        attn = attn + mask
        return ops.reshape(attn, [-1, self.num_heads, length, length])

    def call(self, inputs, training=None):
        inputs, window_size, relative_index, attention_mask = inputs
        height, width = ops.shape(inputs)[1:3]
        length = window_size**2

        qkv = self.window_partition(self.qkv(inputs), height=height, width=width)
        q, k, v = ops.unstack(qkv, 3)

        q = q * self.scale
        k = ops.swapaxes(k, -2, -1)
        attn = ops.matmul(q, k)

        bias = ops.take(self.relative_bias, relative_index, axis=0)
        bias = ops.transpose(ops.reshape(bias, [length, length, -1]), [2, 0, 1])
        attn = attn + bias[None]

        if attention_mask is not None:
            attn = self.with_mask(attn, attention_mask, length)

        attn = ops.softmax(attn)
        attn = self.drop_attn(attn, training=training)

        x = self.window_reverse(ops.matmul(attn, v), height=height, width=width)
        return self.drop_proj(self.proj(x), training=training)
