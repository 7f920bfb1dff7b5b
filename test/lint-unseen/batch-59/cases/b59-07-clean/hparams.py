"""Hyper-parameters of the point-cloud classifier (ModelNet40, 100 sampled points per shape)."""

SAMPLING = {
    "points_per_shape": 100,
    "batch_size": 256,
    "epochs": 300,
}

NETWORK = {
    "in_features": 3,  # x, y, z
    "n_classes": 40,
    "width": 128,
    "heads": 4,  # 32 features per head
    "encoder_layers": 2,
    "inducing_points": 16,  # None: plain set attention blocks
    "seeds": 1,
    "use_layer_norm": False,
}
