from keras import backend as K


def k_dot(x, v):
    """(batch, steps, d) . (d,) -> (batch, steps) on TensorFlow; plain dot elsewhere."""
    if K.backend() == "tensorflow":
        return K.squeeze(K.dot(x, K.expand_dims(v)), axis=-1)
    return K.dot(x, v)
