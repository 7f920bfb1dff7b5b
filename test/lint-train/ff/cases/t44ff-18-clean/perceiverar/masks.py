import flax
import flax.linen
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Masks:
    encoder: jnp.ndarray
    processor: jnp.ndarray


def seq_length(tokens):
    first_pad = jnp.argmax(tokens == 0)
    return jnp.where(jnp.logical_and(first_pad == 0, tokens[0] != 0), tokens.shape[0], first_pad)


def set_diagonal(a, val):
    i, j = jnp.diag_indices(min(a.shape[-2:]))
    return a.at[..., i, j].set(val)


def final_block_masks(inputs, n_latents, batch):
    """Latents sit on the last n_latents input positions; each may read inputs up to its own position."""
    input_id = jnp.broadcast_to(jnp.arange(inputs.shape[1], dtype=jnp.float32), (batch, inputs.shape[1]))

    @jax.vmap
    def last_steps(tokens):
        steps = seq_length(tokens) * jnp.ones([n_latents], dtype=jnp.int32)
        return jnp.maximum(steps + jnp.arange(-n_latents, 0), -1)   # -1 marks an unused latent

    latent_pos = last_steps(inputs)
    causal = flax.linen.make_attention_mask(latent_pos, input_id, pairwise_fn=jnp.greater_equal, dtype=inputs.dtype)
    real = flax.linen.make_attention_mask(jnp.ones([batch, n_latents], dtype=inputs.dtype), inputs > 0)
    encoder = causal * real
    processor = flax.linen.make_attention_mask(latent_pos, latent_pos, pairwise_fn=jnp.greater_equal, dtype=inputs.dtype)
    valid = flax.linen.make_attention_mask(jnp.ones([batch, n_latents]), (latent_pos >= 0).astype(latent_pos.dtype))
    processor = set_diagonal(flax.linen.combine_masks(processor, valid), 1.0)
    return Masks(encoder=encoder, processor=processor), latent_pos
