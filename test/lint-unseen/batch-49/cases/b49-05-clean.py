# case: b49-05-clean
# modelled-on: giaiyer/simple-gpt-from-scratch https://github.com/giaiyer/simple-gpt-from-scratch/commit/67939780833f829d6f8f914d0549855cd04d0455
# label: correct
# class: clean
# pattern: a character-level mini GPT in TensorFlow 2 / Keras: one pre-norm block whose self-attention is tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=embed_dim) called with use_causal_mask=True, trained on fixed windows; the sampler left-pads short prompts with the space character up to the window, re-runs the full window every step and applies top-k by an additive -1e9 on the logits outside the k best
# why: correct: Keras MultiHeadAttention projects every head to key_dim and scales the queries by 1/sqrt(key_dim) itself, so key_dim=embed_dim only makes the heads wide, it does not change the scale's correctness; use_causal_mask=True builds the lower-triangular mask inside the layer for the window it is given; the padding id is the space character, a real token of the vocabulary, so a left-padded prompt is an ordinary text of spaces and needs no padding mask; the -1e9 is a top-k filter on vocabulary logits in float32, not an attention mask
# looks-like: ATT004, ATT007, ATT008
# source: https://github.com/giaiyer/simple-gpt-from-scratch https://github.com/giaiyer/simple-gpt-from-scratch/commit/67939780833f829d6f8f914d0549855cd04d0455 newgpt.py
import numpy as np
import tensorflow as tf

corpus = open("corpus.txt", encoding="utf-8").read().lower()
chars = sorted(set(corpus) | {" "})
to_id = {c: i for i, c in enumerate(chars)}
to_char = {i: c for c, i in to_id.items()}
SPACE_ID = to_id[" "]  # also used to left-pad short prompts
WINDOW = 32


def windows(ids, size):
    xs = [ids[i : i + size] for i in range(len(ids) - size)]
    ys = [ids[i + 1 : i + size + 1] for i in range(len(ids) - size)]
    return np.array(xs), np.array(ys)


class CharGPT(tf.keras.Model):
    def __init__(self, vocab, embed_dim=64, max_len=64):
        super().__init__()
        self.tok = tf.keras.layers.Embedding(vocab, embed_dim)
        self.pos = tf.keras.layers.Embedding(max_len, embed_dim)
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=embed_dim)
        self.norm_attn = tf.keras.layers.LayerNormalization(epsilon=1e-5)
        self.norm_ff = tf.keras.layers.LayerNormalization(epsilon=1e-5)
        self.norm_out = tf.keras.layers.LayerNormalization(epsilon=1e-5)
        self.ff = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(embed_dim)])
        self.lm = tf.keras.layers.Dense(vocab)

    def call(self, ids):
        t = tf.shape(ids)[1]
        h = self.tok(ids) + self.pos(tf.range(t))
        n = self.norm_attn(h)
        h = h + self.mha(query=n, value=n, key=n, use_causal_mask=True)
        h = h + self.ff(self.norm_ff(h))
        return self.lm(self.norm_out(h))


def sample(model, prompt, steps=200, temperature=0.7, top_k=None):
    ids = [to_id.get(c, SPACE_ID) for c in prompt.lower()]
    text = list(prompt)
    for _ in range(steps):
        window = ids[-WINDOW:]
        window = [SPACE_ID] * (WINDOW - len(window)) + window
        logits = model(tf.constant([window], dtype=tf.int32))[0, -1] / temperature
        if top_k is not None:
            _, best = tf.math.top_k(logits, k=top_k, sorted=False)
            keep = tf.scatter_nd(best[:, None], tf.ones_like(best, dtype=tf.float32), tf.shape(logits))
            logits = logits * keep + (1.0 - keep) * -1e9
        nxt = int(tf.random.categorical(logits[None, :], num_samples=1)[0, 0])
        ids.append(nxt)
        text.append(to_char.get(nxt, "?"))
    return "".join(text)


if __name__ == "__main__":
    x, y = windows([to_id[c] for c in corpus], WINDOW)
    model = CharGPT(len(chars), max_len=WINDOW)
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, epochs=200, batch_size=16)
    print(sample(model, "to be or not", top_k=5))
