class Config:
    max_seq_len = 512
    d_model = 512
    d_ff = 2048
    dropout = 0.1
    num_heads = 8
    num_layers = 6
    vocab_size = 50257
    ignore_index = -100
