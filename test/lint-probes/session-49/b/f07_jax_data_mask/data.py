import numpy as np


def batches(examples, batch_size, max_len):
    for i in range(0, len(examples), batch_size):
        chunk = examples[i : i + batch_size]
        tokens = np.zeros((len(chunk), max_len), dtype=np.int32)
        for j, ex in enumerate(chunk):
            tokens[j, : len(ex)] = ex[:max_len]
        yield {"tokens": tokens, "mask": tokens != 0}
