# case: b41-04-clean
# modelled-on: milmor/diffusion-transformer-keras https://github.com/milmor/diffusion-transformer-keras/commit/22a459a0bae2a7b71606e871eff315ee625c5e8f
# label: correct
# class: clean
# pattern: Keras (tf.keras layers) diffusion transformer block whose self-attention is Linformer attention: heads split to (batch, heads, tokens, head_dim), keys and values projected along the token axis to k landmarks by a Dense applied to their transpose (and transposed back), scores tf.matmul(q, k, transpose_b=True) / sqrt(head_dim), softmax over axis -1 (the landmarks); the block is modulated by adaptive layer norm and a learned per-sample gate
# why: correct: after the two transposes the projected keys are (batch, heads, k, head_dim) again, so transpose_b=True gives (tokens, k) scores and the softmax over the last axis normalises each query over the k landmarks, as Linformer prescribes; the scale is the square root of one head's width; there is no padding or causal mask in a patch-image diffusion model
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/milmor/diffusion-transformer-keras https://github.com/milmor/diffusion-transformer-keras/commit/22a459a0bae2a7b71606e871eff315ee625c5e8f dit.py
import tensorflow as tf
from tensorflow.keras import layers


class LowRankSelfAttention(layers.Layer):
    def __init__(self, width, heads, landmarks, dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        assert width % heads == 0
        self.width, self.heads = width, heads
        self.head_dim = width // heads
        self.q_proj, self.k_proj, self.v_proj = (layers.Dense(width) for _ in range(3))
        self.key_landmarks = layers.Dense(landmarks)
        self.value_landmarks = layers.Dense(landmarks)
        self.attn_drop = layers.Dropout(dropout)
        self.out_proj = layers.Dense(width)

    def _heads(self, x, batch):
        x = tf.reshape(x, (batch, -1, self.heads, self.head_dim))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def _along_tokens(self, dense, x):
        # (b, h, n, d) -> (b, h, d, n) -> Dense on n -> (b, h, d, k) -> (b, h, k, d)
        return tf.transpose(dense(tf.transpose(x, [0, 1, 3, 2])), [0, 1, 3, 2])

    def call(self, x, training=False):
        batch = tf.shape(x)[0]
        q = self._heads(self.q_proj(x), batch)
        k = self._along_tokens(self.key_landmarks, self._heads(self.k_proj(x), batch))
        v = self._along_tokens(self.value_landmarks, self._heads(self.v_proj(x), batch))

        logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.head_dim, tf.float32))
        probs = self.attn_drop(tf.nn.softmax(logits, axis=-1), training=training)
        mixed = tf.transpose(tf.matmul(probs, v), perm=[0, 2, 1, 3])
        return self.out_proj(tf.reshape(mixed, (batch, -1, self.width)))


class AdaptiveNorm(layers.Layer):
    def __init__(self, eps=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.norm = layers.LayerNormalization(epsilon=eps, center=False, scale=False)

    def build(self, input_shape):
        self.to_scale = layers.Dense(input_shape[-1])
        self.to_shift = layers.Dense(input_shape[-1])

    def call(self, x, cond):
        scale = tf.expand_dims(self.to_scale(cond), 1)
        shift = tf.expand_dims(self.to_shift(cond), 1)
        return self.norm(x) * (1.0 + scale) + shift


class Gate(layers.Layer):
    def build(self, input_shape):
        self.to_gate = layers.Dense(input_shape[-1])

    def call(self, x, cond):
        return x * tf.expand_dims(self.to_gate(cond), 1)


class DiffusionBlock(layers.Layer):
    def __init__(self, width, heads=4, mlp_width=512, landmarks=64, **kwargs):
        super().__init__(**kwargs)
        self.attn = LowRankSelfAttention(width, heads, landmarks)
        self.mlp = tf.keras.Sequential([layers.Dense(mlp_width, activation="gelu"), layers.Dense(width)])
        self.norm_attn, self.norm_mlp = AdaptiveNorm(), AdaptiveNorm()
        self.gate_attn, self.gate_mlp = Gate(), Gate()

    def call(self, tokens, cond, training=False):
        h = tokens + self.gate_attn(self.attn(self.norm_attn(tokens, cond), training=training), cond)
        return h + self.gate_mlp(self.mlp(self.norm_mlp(h, cond)), cond)
