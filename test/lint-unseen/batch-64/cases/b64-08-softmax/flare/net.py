import tensorflow as tf
from tensorflow.keras import layers

from flare.dual import ChannelAttention, PositionAttention


def build_classifier(height=128, width=128, bands=1, classes=2):
    """Conv backbone, then position and channel attention summed, then global pooling."""
    image = tf.keras.Input((height, width, bands))
    x = image
    for filters in (32, 64, 128):
        x = layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
        x = layers.BatchNormalization()(x)
        x = layers.MaxPooling2D()(x)
    fused = layers.Add()([PositionAttention()(x), ChannelAttention()(x)])
    pooled = layers.GlobalAveragePooling2D()(fused)
    pooled = layers.Dropout(0.3)(pooled)
    return tf.keras.Model(image, layers.Dense(classes, activation="softmax")(pooled))
