class Config:
    """Hyper-parameters of the sentiment classifier (one object handed to every module)."""

    def __init__(self, vocab_size=50000, num_classes=2):
        self.vocab_size = vocab_size
        self.num_classes = num_classes
        self.d_model = 512
        self.size = 512
        self.n_heads = 8
        self.d_ff = 2048
        self.n_layers = 6
        self.dropout = 0.1
        self.max_len = 256
