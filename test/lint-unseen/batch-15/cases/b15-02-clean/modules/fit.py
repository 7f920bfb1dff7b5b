import numpy as np
import tensorflow as tf


def make_datasets(sequences, targets, batch_size, val_fraction=0.2):
    n_val = int(val_fraction * len(sequences))
    weights = np.where(targets != 0, 1.0, 0.0)
    pad_mask = (sequences != 0).astype(np.float32)  # 1 = real token, 0 = padding

    train = tf.data.Dataset.from_tensor_slices(
        ({"tokens": sequences[:-n_val], "pad_mask": pad_mask[:-n_val]}, targets[:-n_val], weights[:-n_val])
    )
    val = tf.data.Dataset.from_tensor_slices(
        ({"tokens": sequences[-n_val:], "pad_mask": pad_mask[-n_val:]}, targets[-n_val:], weights[-n_val:])
    )
    return train.batch(batch_size), val.batch(batch_size)


def train(model, sequences, targets, epochs, batch_size):
    train_ds, val_ds = make_datasets(sequences, targets, batch_size)
    return model.fit(train_ds, validation_data=val_ds, epochs=epochs)
