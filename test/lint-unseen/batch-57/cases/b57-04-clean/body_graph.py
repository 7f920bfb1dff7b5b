import torch


def arm_adjacency(n_nodes: int, gripper: bool = True, gripper_sees_all: bool = True) -> torch.Tensor:
    """0/1 adjacency of a serial arm: joint i is linked to joint i + 1; the last node is the gripper."""
    adj = torch.zeros(n_nodes, n_nodes)
    chain = n_nodes - 2 if gripper else n_nodes - 1
    for i in range(chain):
        adj[i, i + 1] = 1
        adj[i + 1, i] = 1
    if gripper:
        if gripper_sees_all:
            adj[-1, :-1] = 1
            adj[:-1, -1] = 1
        else:
            adj[-1, -2] = 1
            adj[-2, -1] = 1
    return adj
