"""Hyper-parameters of the image-to-LaTeX model (a plain namespace, as in the project)."""


class HParams:
    embedding_dim = 80
    row_encoder_rnn_dim = 256  # each direction; the encoder emits 2 * 256 channels per location
    decoder_rnn_dim = 512
    use_attention = True
    flatten_image_features = False


class Config:
    vocab_size = 500
    max_generate_steps = 150


h_params = HParams()
config = Config()


def describe():
    return {
        "embedding_dim": h_params.embedding_dim,
        "row_encoder_rnn_dim": h_params.row_encoder_rnn_dim,
        "decoder_rnn_dim": h_params.decoder_rnn_dim,
        "use_attention": h_params.use_attention,
    }
