"""Model configuration (the values are the case's; the names are the project's)."""

embed_dim = 256
vt_heads = 4
vt_dense_dim = 1024
vt_num_patches = 64  # 8 x 8 board squares, one patch each
seq_length = 128  # move tokens that follow the board patches
de_heads = 8
de_dense_dim = 2048
dropout = 0.1


def total_length():
    return vt_num_patches + seq_length


def summary():
    return {
        "embed_dim": embed_dim,
        "vt_heads": vt_heads,
        "de_heads": de_heads,
        "total_length": total_length(),
    }
