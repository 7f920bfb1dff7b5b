import tensorflow as tf


class Captioner(tf.keras.Model):
    def __init__(self, cnn, encoder, decoder):
        super().__init__()
        self.cnn = cnn
        self.encoder = encoder
        self.decoder = decoder
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")

    def masked_loss(self, y_true, y_pred, mask):
        loss = self.loss(y_true, y_pred)
        mask = tf.cast(mask, dtype=loss.dtype)
        return tf.reduce_sum(loss * mask) / tf.reduce_sum(mask)

    def loss_for(self, feats, captions, training=True):
        memory = self.encoder(feats, training=training)
        y_in = captions[:, :-1]
        y_true = captions[:, 1:]
        mask = y_true != 0
        y_pred = self.decoder(y_in, memory, training=training, mask=mask)
        return self.masked_loss(y_true, y_pred, mask)

    def train_step(self, batch):
        images, captions = batch
        feats = self.cnn(images)
        with tf.GradientTape() as tape:
            loss = self.loss_for(feats, captions)
        weights = self.encoder.trainable_variables + self.decoder.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, weights), weights))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}
