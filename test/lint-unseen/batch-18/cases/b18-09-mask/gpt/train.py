import haiku as hk
import jax
import jax.numpy as jnp
import optax

from .nn import Model


def loss_fn(indices, vocab: int, model_dim: int, num_heads: int, num_layers: int):
    inputs, targets = indices[:, :-1], indices[:, 1:]
    seq_len = inputs.shape[1]
    mask = jnp.tril(jnp.full((1, 1, seq_len, seq_len), True, dtype=bool))
    logits = Model(vocab, model_dim, num_heads, num_layers)(inputs, is_training=True, mask=mask)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


def make_step(vocab, model_dim, num_heads, num_layers, optimizer):
    fn = hk.transform(lambda idx: loss_fn(idx, vocab, model_dim, num_heads, num_layers))

    def step(params, opt_state, rng, indices):
        loss, grads = jax.value_and_grad(fn.apply)(params, rng, indices)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return fn, step
