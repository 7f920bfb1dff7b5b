from model import TextDecoder


def no_cache_loop(decoder: TextDecoder, emb, tokens, n):
    for _ in range(n):
        logits = decoder(emb(tokens))
        tokens = logits[:, -1:].argmax(-1)
    return tokens
