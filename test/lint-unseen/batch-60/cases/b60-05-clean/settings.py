# Hyper-parameters shared by the model and the training script.
BATCH = 64
CLASSES = 10
SIDE = 28            # MNIST images are 28 x 28
CHANNELS = 1         # grey scale
PATCH = 7            # 4 x 4 grid of 7 x 7 patches
N_PATCHES = (SIDE // PATCH) ** 2
HEADS = 4
WIDTH = 20           # token width; each head gets WIDTH // HEADS = 5
DEPTH = 4
MLP_HIDDEN = 64
LR = 1e-3
EPOCHS = 5
