"""Bone lists of the skeleton layouts the recogniser is trained on (0-based joint ids)."""


def _shift(pairs, base):
    return [(i - base, j - base) for (i, j) in pairs]


class Skeleton:
    def __init__(self, layout="hands27"):
        if layout == "hands27":
            n = 27
            # arms, then the two hands (wrist -> finger roots -> tips), ids start at 5
            bones = _shift([(5, 6), (5, 7), (6, 8), (8, 10), (7, 9), (9, 11),
                            (12, 13), (12, 14), (12, 16), (12, 18), (12, 20),
                            (14, 15), (16, 17), (18, 19), (20, 21),
                            (22, 23), (22, 24), (22, 26), (22, 28), (22, 30),
                            (24, 25), (26, 27), (28, 29), (30, 31),
                            (10, 12), (11, 22)], 5)
        elif layout == "openpose18":
            n = 18
            bones = [(4, 3), (3, 2), (7, 6), (6, 5), (13, 12), (12, 11), (10, 9), (9, 8),
                     (11, 5), (8, 2), (5, 1), (2, 1), (0, 1), (15, 0), (14, 0), (17, 15), (16, 14)]
        elif layout == "ntu25":
            n = 25
            bones = _shift([(1, 2), (2, 21), (3, 21), (4, 3), (5, 21), (6, 5), (7, 6), (8, 7),
                            (9, 21), (10, 9), (11, 10), (12, 11), (13, 1), (14, 13), (15, 14),
                            (16, 15), (17, 1), (18, 17), (19, 18), (20, 19), (22, 23), (23, 8),
                            (24, 25), (25, 12)], 1)
        else:
            raise ValueError(layout)
        self.num_joints = n
        self.bones = bones
        self.self_links = [(i, i) for i in range(n)]
        self.reverse = [(j, i) for (i, j) in bones]
