"""Training configuration (TinyStories)."""


class Config:
    vocab_size = 50257
    d_model = 512
    num_layers = 8
    num_q_heads = 8
    num_kv_heads = 2
    max_seq_len = 512
    dropout = 0.1

    batch_size = 4
    gradient_accumulation_steps = 8
    learning_rate = 3e-4
    weight_decay = 0.1
    warmup_steps = 500
    max_steps = 5000

    log_interval = 50
    eval_interval = 500
    save_interval = 1000
    checkpoint_dir = "./checkpoints"
