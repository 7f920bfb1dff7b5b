# case: t31x-03-mask
# modelled-on: daeheepark/SceneTransformer-pytorch https://github.com/daeheepark/SceneTransformer-pytorch/commit/e0f42615744c9b8b73281ad593ac88415a3afe99
# label: buggy
# class: real-bug
# pattern: a Scene Transformer re-implementation for Waymo motion forecasting: a collate function (another module) builds, per scene, roadgraph_valid (zeros of (GS, 1) set to True on the first valid_num samples, repeated over 91 time steps) and traffic_light_valid (state/valid > 0), plus agent-to-road and agent-to-light scene masks (1 = other scene); the encoder hands roadgraph_valid / traffic_light_valid to a cross-attention layer (a third module) as its padding_mask, which transposes it to (T, G) and passes it as key_padding_mask of a sequence-first nn.MultiheadAttention, with the scene mask as attn_mask
# why: buggy: nn.MultiheadAttention ignores keys where a boolean key_padding_mask is True, and these masks are True on the road-graph samples and traffic lights that exist, so each agent attends only to the zero-padded samples (and to nothing where every sample is valid, which gives NaN rows); the authors' fix ("fix nan bug") negates both masks in the collate function (roadgraph_valid = ~roadgraph_valid). The scene masks (1 = other scene, as attn_mask) are right
# source: https://github.com/daeheepark/SceneTransformer-pytorch https://github.com/daeheepark/SceneTransformer-pytorch/commit/e0f42615744c9b8b73281ad593ac88415a3afe99 datautil/waymo_dataset.py
import torch.nn as nn

from scene.layers import CrossAttLayerEnc


class SceneEncoder(nn.Module):
    def __init__(self, in_feat_dim, in_static_rg_dim, in_dynamic_rg_dim, time_steps=91, feature_dim=256, head_num=4):
        super().__init__()
        self.layer_A = nn.Sequential(nn.Linear(in_feat_dim, feature_dim), nn.ReLU())
        self.layer_B = nn.Sequential(nn.Linear(in_dynamic_rg_dim, feature_dim), nn.ReLU())
        self.layer_C = nn.Sequential(nn.Linear(in_static_rg_dim, feature_dim), nn.ReLU())
        self.layer_J = CrossAttLayerEnc(time_steps, feature_dim, head_num)
        self.layer_K = CrossAttLayerEnc(time_steps, feature_dim, head_num)

    def forward(self, state_feat, road_feat, roadgraph_valid, traffic_light_feat, traffic_light_valid,
                agent_rg_mask, agent_traffic_mask):
        A_ = self.layer_A(state_feat)
        B_ = self.layer_B(traffic_light_feat)
        C_ = self.layer_C(road_feat)
        output = self.layer_J(A_, C_, agent_rg_mask, roadgraph_valid)
        output = self.layer_K(output, B_, agent_traffic_mask, traffic_light_valid)
        return output
