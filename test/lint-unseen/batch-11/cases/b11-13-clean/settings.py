class Settings:
    VOCAB_SIZE = 50
    D_MODEL = 128
    NUM_LAYERS = 5
    NUM_HEADS = 4
    D_FF = 256
    MAX_LEN = 50
