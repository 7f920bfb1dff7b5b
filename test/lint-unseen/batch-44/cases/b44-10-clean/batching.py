from model import RegexDecoderGraph


class Batch:
    """Padded token rows plus the per-example lengths and 0/1 masks the graph's placeholders take."""

    def __init__(self, sentences, lengths):
        self.sentences = sentences
        self.lengths = lengths
        width = len(sentences[0])
        self.masks = []
        for n in lengths:
            self.masks.append([1] * n + [0] * (width - n))

    def feed(self, graph: RegexDecoderGraph):
        return {
            graph.tokens: self.sentences,
            graph.lengths: self.lengths,
            graph.masks: self.masks,
        }


def make_batches(examples, batch_size, max_len, pad_id=0):
    """Fixed-size batches padded to the graph's max_len (its placeholders have static shapes)."""
    for i in range(0, len(examples) - batch_size + 1, batch_size):
        chunk = [e[:max_len] for e in examples[i : i + batch_size]]
        rows = [e + [pad_id] * (max_len - len(e)) for e in chunk]
        yield Batch(rows, [len(e) for e in chunk])
