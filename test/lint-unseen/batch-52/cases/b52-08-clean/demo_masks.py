import torch

from query_fusion import JointStreamFusion, QueryFusion


def build_masks(batch: int, n_img: int, n_txt: int, text_lengths):
    # True = real token, False = padding
    image_valid = torch.ones(batch, n_img, dtype=torch.bool)
    text_valid = torch.ones(batch, n_txt, dtype=torch.bool)
    for row, length in enumerate(text_lengths):
        text_valid[row, length:] = False
    return image_valid, text_valid


def run_demo():
    batch, n_img, n_txt = 2, 36, 20
    image = torch.randn(batch, n_img, 768)
    text = torch.randn(batch, n_txt, 768)
    image_valid, text_valid = build_masks(batch, n_img, n_txt, text_lengths=[15, 20])
    for fusion in (QueryFusion(depth=2), JointStreamFusion(depth=2)):
        fusion.eval()
        with torch.no_grad():
            fused = fusion(image, text, image_valid, text_valid)
        print(type(fusion).__name__, tuple(fused.shape), text_valid.sum(dim=1).tolist())


if __name__ == "__main__":
    run_demo()
