# case: b42-02-clean
# modelled-on: AhmedElbana22/Neural-Machine-Translation-with-Attention https://github.com/AhmedElbana22/Neural-Machine-Translation-with-Attention/commit/11b17d488eb28434e82040f7e537b5260e235658
# label: correct
# class: clean
# pattern: Keras LSTM translator with attention (a folder: the encoder, the cross-attention layer and the decoder, and the model that wires them): both embeddings use mask_zero=True, the encoder's bidirectional LSTM and the decoder's LSTM carry the padding mask along, and a one-head tf.keras.layers.MultiHeadAttention is called with query=decoder states and value=encoder states, with no explicit attention_mask and no explicit scale; the attention output is added to the query and layer-normalised
# why: correct: Keras layers propagate the mask made by Embedding(mask_zero=True) as _keras_mask, and MultiHeadAttention combines the query's and the value's propagated masks into its attention mask itself, so padded source tokens get no weight; MultiHeadAttention scales the query by 1/sqrt(key_dim) inside the layer and takes the softmax over the key axis; the decoder's own history is read by an LSTM, so no causal mask is needed for the cross-attention
# looks-like: ATT002, ATT003, ATT004
# source: https://github.com/AhmedElbana22/Neural-Machine-Translation-with-Attention https://github.com/AhmedElbana22/Neural-Machine-Translation-with-Attention/commit/11b17d488eb28434e82040f7e537b5260e235658 models/decoder.py
import tensorflow as tf

from layers import SourceReader, TargetWriter


class Seq2SeqTranslator(tf.keras.Model):
    def __init__(self, vocab, units):
        super().__init__()
        self.reader = SourceReader(vocab, units)
        self.writer = TargetWriter(vocab, units)

    def call(self, batch):
        src_ids, tgt_in = batch
        memory = self.reader(src_ids)
        return self.writer(memory, tgt_in)

    def greedy(self, src_ids, start_id, end_id, max_steps=50):
        memory = self.reader(src_ids)
        token = tf.fill([tf.shape(src_ids)[0], 1], start_id)
        state, out = None, []
        for _ in range(max_steps):
            log_probs, state = self.writer(memory, token, state=state, with_state=True)
            token = tf.argmax(log_probs[:, -1:, :], axis=-1, output_type=token.dtype)
            out.append(token)
            if tf.reduce_all(token == end_id):
                break
        return tf.concat(out, axis=1)
