def get_settings():
    return {
        "batch_size": 128,
        "lr": 1e-3,
        "seq_len": 200,  # events per training window, SOS and EOS included
        "d_model": 512,
        "num_heads": 8,
        "depth": 6,
        "d_ff": 2048,
        "dropout": 0.1,
    }
