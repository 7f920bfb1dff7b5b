class HParams:
    n_mels = 80
    E = 256                          # text-encoder width; the style embedding has this width too
    ref_enc_filters = [32, 32, 64, 64, 128, 128]
    token_num = 10                   # global style tokens
    num_heads = 8
