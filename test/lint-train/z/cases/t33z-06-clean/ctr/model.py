import tensorflow as tf
from tensorflow import keras

from ctr.layers import MLP, DIENAttention, InterestEvolve, InterestExtract, LocalActivationUnit, masked_history_mean


class BaseModel(keras.Model):
    def __init__(self, item_vocab, item_dim, cat_vocab, cat_dim, mlp_units):
        super().__init__()
        self.mlp = MLP(mlp_units, 'sigmoid')
        self.item_embedding = keras.layers.Embedding(item_vocab, item_dim, mask_zero=True)
        self.cat_embedding = keras.layers.Embedding(cat_vocab, cat_dim, mask_zero=True)

    def embed(self, item, cat):
        return tf.concat([self.item_embedding(item), self.cat_embedding(cat)], axis=-1)

    def call(self, inputs, training=False, mask=None):
        mask = self.item_embedding.compute_mask(inputs['his_item'])  # (batch, his_len) bool, True = real item
        target = tf.squeeze(self.embed(inputs['target_item'], inputs['target_cat']), axis=1)
        history = self.embed(inputs['his_item'], inputs['his_cat'])
        return self.mlp(tf.concat([target, masked_history_mean(history, mask)], axis=-1), training=training)


class DIN(BaseModel):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.activation_unit = LocalActivationUnit()

    def call(self, inputs, training=False, mask=None):
        mask = self.item_embedding.compute_mask(inputs['his_item'])
        target = self.embed(inputs['target_item'], inputs['target_cat'])
        history = self.embed(inputs['his_item'], inputs['his_cat'])
        interest = self.activation_unit((target, history), mask=mask)
        target = tf.squeeze(target, axis=1)
        return self.mlp(tf.concat([target, interest], axis=-1), training=training)


class DIEN(BaseModel):
    def __init__(self, extract_units, evolve_units, **kwargs):
        super().__init__(**kwargs)
        self.extract = InterestExtract(extract_units)
        self.attention = DIENAttention()
        self.evolve = InterestEvolve(evolve_units)

    def call(self, inputs, training=False, mask=None):
        mask = self.item_embedding.compute_mask(inputs['his_item'])
        target = self.embed(inputs['target_item'], inputs['target_cat'])
        history = self.embed(inputs['his_item'], inputs['his_cat'])
        hidden = self.extract(history, training=training, mask=mask)
        scores = self.attention((target, hidden), training=training, mask=mask)  # (batch, his_len, 1)
        interest = self.evolve((hidden, scores), training=training, mask=mask)
        target = tf.squeeze(target, axis=1)
        return self.mlp(tf.concat([target, interest], axis=-1))
