import sys

import torch
import torchaudio

from .nets import ConvGRU, FrameEnergy, PoolAndClassify

N_MELS, HID, LAYERS, CLASSES = 40, 64, 2, 2
KERNEL, STRIDE = (20, 5), (8, 2)


def run(path, warmup=41):
    encoder = ConvGRU(N_MELS, HID, KERNEL, STRIDE, LAYERS).eval()
    energy = FrameEnergy(HID * 2).eval()
    pool = PoolAndClassify(HID * 2, CLASSES).eval()
    wav, sr = torchaudio.load(path)
    mel = torch.log(torchaudio.transforms.MelSpectrogram(sample_rate=48000, n_mels=N_MELS)(wav.squeeze()) + 1e-9)
    mel = mel.unsqueeze(0)
    probs = []
    with torch.no_grad():
        state = torch.zeros(LAYERS * 2, 1, HID)
        frames, state = encoder(mel[:, :, :warmup], state)
        scores = [energy(f) for f in frames]
        probs.append(pool(torch.cat(scores, dim=1), frames).exp()[..., 1])
        hop = KERNEL[1]
        for t in range(warmup, mel.shape[-1] - hop, hop):
            scores, frames = scores[1:], frames[1:]
            new, state = encoder(mel[:, :, t:t + hop], state)
            frames = torch.cat([frames, new])
            scores.append(energy(new.squeeze(0)))
            probs.append(pool(torch.cat(scores, dim=1), frames).exp()[..., 1])
    return probs


if __name__ == "__main__":
    print(max(float(p) for p in run(sys.argv[1])))
