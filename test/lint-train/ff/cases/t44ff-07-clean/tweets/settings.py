DATA_CSV = "data/tweets.csv"
GLOVE_TXT = "data/glove.6B.100d.txt"
BEST_CKPT = "outputs/best.keras"

VOCAB = 50000
SEQ_LEN = 60
EMB_DIM = 100
RNN_UNITS = 128

BATCH = 512
EPOCHS = 20
LR = 2e-4
