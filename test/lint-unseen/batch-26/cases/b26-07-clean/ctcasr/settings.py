class Settings:
    def __init__(self):
        self.n_mels = 80
        self.downsample = 4  # the conv front end divides the frame count by 4
        self.hid_dim = 512
        self.n_layer = 12
        self.nhead = 8
        self.dropout = 0.1
        self.vocab_size = 29


cfg = Settings()
