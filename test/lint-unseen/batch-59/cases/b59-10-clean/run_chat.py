"""Builds the chatbot graph for training or for beam-search answering and feeds one batch."""

import numpy as np
import tensorflow as tf

from seq2seq_model import ChatSeq2Seq


def pad_batch(sequences, pad_id=0):
    lengths = np.array([len(s) for s in sequences], dtype=np.int32)
    batch = np.full((len(sequences), lengths.max()), pad_id, dtype=np.int32)
    for i, s in enumerate(sequences):
        batch[i, : len(s)] = s
    return batch, lengths


def build(vocab_size, mode="train", beam_width=0, attention="bahdanau"):
    tf.reset_default_graph()
    return ChatSeq2Seq(
        vocab_size=vocab_size,
        batch_size=32 if mode == "train" else 1,
        mode=mode,
        beam_width=beam_width,
        attention_type=attention,
        hidden_units=256,
        depth=2,
        bidirectional=True,
    )


def answer(sess, model, question_ids):
    questions, lengths = pad_batch([question_ids])
    feed = {model.encoder_inputs: questions, model.encoder_inputs_length: lengths}
    return sess.run(model.decoder_pred_decode, feed)
