import torch


class ModelSettings:
    """Hyper-parameters of the de-en translation model (FSMT tokenizer, pad id 1)."""

    def __init__(self, vocab_size, max_len=128, d_model=512, n_head=8, n_layer=6, d_ff=2048,
                 dropout=0.1, pad_id=1, warmup_steps=4000):
        self.vocab_size = vocab_size
        self.max_len = max_len
        self.d_model = d_model
        self.n_head = n_head
        self.n_layer = n_layer
        self.d_ff = d_ff
        self.dropout = dropout
        self.pad_id = pad_id
        self.warmup_steps = warmup_steps
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
