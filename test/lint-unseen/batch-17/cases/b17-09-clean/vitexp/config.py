VIT_CONFIG = {
    "model_dim": 256,
    "num_heads": 4,
    "ff_dim": 512,
    "num_encoder_blocks": 6,
    "attention_dropout_prob": 0.1,
    "pre_norm": True,
    "hierarchical": True,
}
