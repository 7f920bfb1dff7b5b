# case: t31x-04-mask
# modelled-on: daeheepark/SceneTransformer-pytorch https://github.com/daeheepark/SceneTransformer-pytorch/commit/3e93b1c5e86284a5365b125f66edd9b93136db67
# label: correct
# class: fixed
# pattern: the same Scene Transformer encoder after the authors' "fix nan bug" commit: the collate function now negates both masks right after building them (roadgraph_valid = ~roadgraph_valid, traffic_light_valid = ~traffic_light_valid) but keeps their names, and the encoder and the cross-attention layer are unchanged: the "valid" tensors reach nn.MultiheadAttention as key_padding_mask, the scene masks as attn_mask
# why: correct: after the negation the tensors named *_valid are True on padded road-graph samples and missing traffic-light states, which is what a boolean key_padding_mask must be (True = ignore); every agent keeps its own scene's valid samples, so no row is fully masked unless a scene has no road graph at all; the names no longer say what the values are
# looks-like: ATT002, ATT007
# source: https://github.com/daeheepark/SceneTransformer-pytorch https://github.com/daeheepark/SceneTransformer-pytorch/commit/3e93b1c5e86284a5365b125f66edd9b93136db67 datautil/waymo_dataset.py
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
