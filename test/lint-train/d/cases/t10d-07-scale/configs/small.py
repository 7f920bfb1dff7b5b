class SmallConfig:
    image_size = 224
    patch_size = 16
    num_classes = 10
    dim = 384
    depth = 12
    heads = 6
    mlp_dim = 1536
    dropout = 0.1
    channels = 3
