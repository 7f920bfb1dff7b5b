import numpy as np
from tensorflow.keras.preprocessing.sequence import pad_sequences


class ConceptBatches:
    """Yields padded visit sequences; the padding id is the tokenizer's unused token."""

    def __init__(self, sequences, times, pad_id, max_len, batch_size):
        self.sequences = sequences
        self.times = times
        self.pad_id = pad_id
        self.max_len = max_len
        self.batch_size = batch_size

    def __iter__(self):
        for start in range(0, len(self.sequences), self.batch_size):
            seq = pad_sequences(self.sequences[start:start + self.batch_size], maxlen=self.max_len,
                                padding="post", value=self.pad_id)
            ts = pad_sequences(self.times[start:start + self.batch_size], maxlen=self.max_len,
                               padding="post", value=0)
            pad = (seq == self.pad_id).astype(int)  # 1 = padding position
            yield {"concept_ids": seq, "time_stamps": ts, "pad": pad}
