# case: t15h-08-clean
# modelled-on: lsr12345/image2latex-transformer-tensorflow2.x https://github.com/lsr12345/image2latex-transformer-tensorflow2.x/commit/543009f6b0f93ecadbb66352586d05c859c5c23f
# label: correct
# class: clean
# pattern: an image-to-LaTeX model whose CNN backbone uses a multi-aspect global context block (MASTER-style): channels are split into h heads moved to the batch axis, a 1x1 Conv2D(1) scores every spatial position, the scores are reshaped to (B*h, 1, H*W, 1), optionally divided by sqrt(C/h) ("scale variance"), softmaxed over axis=2 (the flattened positions) and contracted with the features transposed to (B*h, 1, C/h, H*W); the pooled context is added back through a bottleneck
# why: correct: the attention distribution is over the H*W positions, which sit on axis 2 of the (B*h, 1, H*W, 1) scores (the last axis has length 1, so -1 would be wrong); the [0, 1, 3, 2] transpose puts the positions last so that features @ weights sums over positions; dividing the per-position logits by sqrt of the per-head channel count is the paper's scaling, not a dot-product scale to compare with a key width
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/lsr12345/image2latex-transformer-tensorflow2.x https://github.com/lsr12345/image2latex-transformer-tensorflow2.x/commit/543009f6b0f93ecadbb66352586d05c859c5c23f model.py
import tensorflow as tf


class MultiAspectContext(tf.keras.layers.Layer):
    def __init__(self, inplanes, ratio=0.0625, headers=8, att_scale=True, **kwargs):
        super().__init__(**kwargs)
        assert inplanes % headers == 0 and inplanes >= 8
        self.headers = headers
        self.inplanes = inplanes
        self.att_scale = att_scale
        self.per_head = inplanes // headers
        self.score = tf.keras.layers.Conv2D(1, kernel_size=1, kernel_initializer=tf.initializers.he_normal())
        planes = int(inplanes * ratio)
        self.transform = tf.keras.Sequential(
            [
                tf.keras.layers.Conv2D(planes, kernel_size=1),
                tf.keras.layers.LayerNormalization([1, 2, 3]),
                tf.keras.layers.ReLU(),
                tf.keras.layers.Conv2D(inplanes, kernel_size=1),
            ]
        )

    def pool(self, inputs):
        B, H, W, C = tf.shape(inputs)[0], tf.shape(inputs)[1], tf.shape(inputs)[2], tf.shape(inputs)[3]
        x = tf.reshape(inputs, (B, H, W, self.headers, self.per_head))
        x = tf.transpose(x, perm=(0, 3, 1, 2, 4))  # (B, h, H, W, C/h)
        x = tf.reshape(x, (B * self.headers, H, W, self.per_head))

        feats = tf.reshape(x, (B * self.headers, 1, H * W, self.per_head))
        feats = tf.transpose(feats, perm=[0, 1, 3, 2])  # (B*h, 1, C/h, H*W)

        logits = tf.reshape(self.score(x), (B * self.headers, 1, H * W, 1))
        if self.att_scale and self.headers > 1:
            logits = logits / tf.sqrt(tf.cast(self.per_head, tf.float32))
        weights = tf.keras.activations.softmax(logits, axis=2)  # over the H*W positions

        context = tf.matmul(feats, weights)  # (B*h, 1, C/h, 1)
        context = tf.reshape(context, (B, 1, C, 1))
        return tf.transpose(context, perm=(0, 1, 3, 2))  # (B, 1, 1, C)

    def call(self, inputs):
        return inputs + self.transform(self.pool(inputs))
