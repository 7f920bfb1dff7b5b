from keras import backend as K

# Convention: 0 = hidden, 1 = may contribute.


def left_context_mask(query_len, key_len):
    # each query sees the keys before it and itself: a lower-triangular 0/1 matrix
    key_idx = K.expand_dims(K.arange(0, key_len), axis=0)
    query_idx = K.expand_dims(K.arange(0, query_len), axis=-1)
    return K.cast(key_idx <= query_idx, K.floatx())
