import torch.nn as nn

PAD = -1000


def collate_codes(batch):
    """batch: list of dicts of 1-D LongTensors (one entry per DFS-code edge).

    Each field is padded sequence-first, (max_edges, batch), with PAD after the real edges.
    """
    keys = batch[0].keys()
    return {key: nn.utils.rnn.pad_sequence([item[key] for item in batch], padding_value=PAD).clone() for key in keys}
