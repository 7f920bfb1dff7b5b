class Config:
    def __init__(self):
        self.vocab_size = 30000
        self.pad_id = 0
        self.embed_dim = 512
        self.model_dim = 512
        self.ffnn_dim = 2048
        self.num_blocks = 6
        self.model_dropout_ratio = 0.1
