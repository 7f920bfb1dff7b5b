# case: t28u-10-clean
# modelled-on: pluu2/MLhelper https://github.com/pluu2/MLhelper/commit/6209201cb75109070fe70c097d5fedabe43dbd13
# label: correct
# class: clean
# pattern: a personal helper module (jax.numpy) for Hopfield-like "attention clustering" over image features: softmaxT(logits, temperature) normalises exp(logits / temperature) by its sum over axis=0; attention(q, k, temp) = softmaxT(jnp.dot(q, k.T)); attention_cluster / attention_dist take one query vector and the value rows, iterate query = att @ values `repeats` times, and finally reshape the weights to 1-D and take jnp.dot(att, values); no 1/sqrt(d), a temperature argument (default 1) instead
# why: correct: the query is one vector (d,) ("query is some vector"), so jnp.dot(q, k.T) is 1-D over the keys and axis=0 is the key axis, its only axis; the functions cannot run with several queries anyway (att.reshape(-1) is dotted with the (n, d) values, which needs exactly n weights); the retrieval is a modern-Hopfield update whose sharpness is the caller's temperature (inverse beta), not scaled dot-product attention between two sequences; k.T transposes the 2-D value matrix
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/pluu2/MLhelper https://github.com/pluu2/MLhelper/commit/6209201cb75109070fe70c097d5fedabe43dbd13 attention.py
import jax.numpy as jnp


def softmaxT(logits, temperature=1):  # default temperature is 1
    return jnp.exp(logits / temperature) / jnp.sum(jnp.exp(logits / temperature), axis=0)


def attention(q, k, temp=1):
    # q: (d,) one query; k: (n, d) -> weights (n,)
    return softmaxT(jnp.dot(q, k.T), temperature=temp)


def normalize_coordinate(indices):
    # pixel indices 0..N-1 -> 0..1
    return indices / jnp.max(indices)


def restore_coordinate(indices, original_indices):
    output = indices * jnp.max(original_indices)
    return output.astype("int32")


def generate_embeddings(indices, parameter):
    # learned positional embedding: flattened kernel indices times a parameter matrix
    indices = indices.reshape(len(indices), -1)
    return jnp.dot(indices, parameter.T)


def attention_cluster(query, values, temperature=1, repeats=1):
    """One head: the query vector is pulled towards the values it attends to, Hopfield style."""
    for _ in range(repeats):
        att = attention(query, values, temp=temperature)  # distribution over the value rows
        query = jnp.dot(att, values)  # (d,)
    att = att.reshape(-1)
    cluster = jnp.dot(att, values)
    return cluster


def attention_dist(query, values, temperature=1, repeats=1):
    """Same iteration, returning the final distribution over the values for inspection."""
    for _ in range(repeats):
        att = attention(query, values, temp=temperature)
        query = jnp.dot(att, values)
    return att
