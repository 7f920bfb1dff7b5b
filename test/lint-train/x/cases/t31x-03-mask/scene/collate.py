import numpy as np
import torch


def scene_collate_fn(batch, GD=16, GS=1400, T=91):
    """Batches Waymo motion scenes: agents, static road-graph samples and traffic lights, with their masks."""
    states_batch, num_agents = [], []
    roadgraph_feat_batch, roadgraph_valid_batch = [], []
    traffic_light_feat_batch, traffic_light_valid_batch = [], []
    for data in batch:
        states_batch.append(data['states'])
        num_agents.append(len(data['states']))

        # static road graph: at most GS samples, True where a sample exists
        roadgraph_feat = data['roadgraph_xyz_dir'][data['roadgraph_valid'][:, 0] > 0.][:GS]
        valid_num = len(roadgraph_feat)
        roadgraph_feat = np.concatenate([roadgraph_feat, np.zeros((GS - valid_num, roadgraph_feat.shape[-1]))], axis=0)
        roadgraph_valid = np.zeros((GS, 1)).astype(np.bool_)
        roadgraph_valid[:valid_num, :] = True
        roadgraph_feat = np.repeat(roadgraph_feat[:, np.newaxis, :], T, axis=1)
        roadgraph_valid = np.repeat(roadgraph_valid, T, axis=1)  # (GS, T)

        # dynamic road graph: traffic lights over past, current and future steps
        traffic_light_feat = data['traffic_light_states']  # (GD, T, 3)
        traffic_light_valid = data['traffic_light_valid'] > 0.  # (GD, T)

        roadgraph_feat_batch.append(roadgraph_feat)
        roadgraph_valid_batch.append(roadgraph_valid)
        traffic_light_feat_batch.append(traffic_light_feat)
        traffic_light_valid_batch.append(traffic_light_valid)

    num_agents_accum = np.cumsum(np.insert(num_agents, 0, 0)).astype(np.int64)
    # 1 -> other scene (ignore attention) / 0 -> same scene (attend)
    agent_rg_mask = np.ones((num_agents_accum[-1], len(num_agents) * GS))
    agent_traffic_mask = np.ones((num_agents_accum[-1], len(num_agents) * GD))
    for i in range(len(num_agents)):
        agent_rg_mask[num_agents_accum[i]:num_agents_accum[i + 1], GS * i:GS * (i + 1)] = 0
        agent_traffic_mask[num_agents_accum[i]:num_agents_accum[i + 1], GD * i:GD * (i + 1)] = 0

    return (torch.FloatTensor(np.concatenate(states_batch, axis=0)),
            torch.FloatTensor(np.concatenate(roadgraph_feat_batch, axis=0)),
            torch.BoolTensor(np.concatenate(roadgraph_valid_batch, axis=0)),
            torch.FloatTensor(np.concatenate(traffic_light_feat_batch, axis=0)),
            torch.BoolTensor(np.concatenate(traffic_light_valid_batch, axis=0)),
            torch.BoolTensor(agent_rg_mask), torch.BoolTensor(agent_traffic_mask))
