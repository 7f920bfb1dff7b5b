# case: b59-10-clean
# modelled-on: qhduan/just_another_seq2seq https://github.com/qhduan/just_another_seq2seq/commit/ac9be1b1599c05e0802824afa8a351dcb9ba936e
# label: correct
# class: clean
# pattern: the decoder cell of a TensorFlow 1 chatbot seq2seq model (a folder: `run_chat.py` pads question batches, passes their true lengths and builds the graph with or without beam search): the encoder outputs of a bidirectional RNN go to `tf.contrib.seq2seq` Bahdanau or Luong attention with `memory_sequence_length` set to the question lengths; for beam search the outputs, the final state and the lengths are all tiled by the beam width before the attention mechanism is built, and the attention wrapper's initial state is cloned from the encoder state
# why: correct: `memory_sequence_length` makes the attention mechanism mask the padded encoder steps itself (score mask before its softmax), and the lengths come from the padding function; under beam search the memory, the lengths and the state are tiled with the same `tile_batch` multiplier, so every beam hypothesis is masked with its own question's length; the scores and their normalisation are the library's, over the memory axis
# looks-like: ATT002, ATT006
# source: https://github.com/qhduan/just_another_seq2seq https://github.com/qhduan/just_another_seq2seq/commit/ac9be1b1599c05e0802824afa8a351dcb9ba936e sequence_to_sequence.py
import tensorflow as tf
from tensorflow.contrib import seq2seq
from tensorflow.contrib.rnn import LSTMCell, MultiRNNCell, ResidualWrapper
from tensorflow.contrib.seq2seq import AttentionWrapper, BahdanauAttention, LuongAttention
from tensorflow.python.ops import array_ops


class ChatSeq2Seq:
    def __init__(self, vocab_size, batch_size, mode="train", beam_width=0, attention_type="bahdanau",
                 hidden_units=256, depth=2, bidirectional=True, use_residual=False, time_major=False):
        assert attention_type.lower() in ("bahdanau", "luong")
        self.vocab_size = vocab_size
        self.batch_size = batch_size
        self.mode = mode
        self.beam_width = beam_width
        self.use_beamsearch = beam_width > 0 and mode != "train"
        self.attention_type = attention_type
        self.hidden_units = hidden_units
        self.depth = depth
        self.bidirectional = bidirectional
        self.use_residual = use_residual
        self.time_major = time_major
        self.encoder_inputs = tf.placeholder(tf.int32, shape=(None, None), name="encoder_inputs")
        self.encoder_inputs_length = tf.placeholder(tf.int32, shape=(None,), name="encoder_inputs_length")

    def _cell(self):
        cell = LSTMCell(self.hidden_units)
        return ResidualWrapper(cell) if self.use_residual else cell

    def decoder_cell(self, encoder_outputs, encoder_state):
        lengths = self.encoder_inputs_length
        batch_size = self.batch_size
        if self.bidirectional:
            encoder_state = encoder_state[-self.depth:]
        if self.time_major:
            encoder_outputs = tf.transpose(encoder_outputs, (1, 0, 2))

        # Beam search decodes beam_width hypotheses per question: every per-question tensor is tiled.
        if self.use_beamsearch:
            encoder_outputs = seq2seq.tile_batch(encoder_outputs, multiplier=self.beam_width)
            encoder_state = seq2seq.tile_batch(encoder_state, multiplier=self.beam_width)
            lengths = seq2seq.tile_batch(self.encoder_inputs_length, multiplier=self.beam_width)
            batch_size *= self.beam_width

        mechanism_cls = LuongAttention if self.attention_type.lower() == "luong" else BahdanauAttention
        self.attention_mechanism = mechanism_cls(
            num_units=self.hidden_units,
            memory=encoder_outputs,
            memory_sequence_length=lengths,
        )

        cell = MultiRNNCell([self._cell() for _ in range(self.depth)])

        def feed_attention(inputs, attention):
            joined = array_ops.concat([inputs, attention], -1)
            if not self.use_residual:
                return joined
            return tf.layers.Dense(self.hidden_units, use_bias=False, name="attention_input_proj")(joined)

        cell = AttentionWrapper(
            cell=cell,
            attention_mechanism=self.attention_mechanism,
            attention_layer_size=self.hidden_units,
            alignment_history=self.mode != "train" and not self.use_beamsearch,
            cell_input_fn=feed_attention,
            name="attention_wrapper",
        )
        initial = cell.zero_state(batch_size, tf.float32).clone(cell_state=encoder_state)
        return cell, initial
