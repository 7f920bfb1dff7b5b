# pytest configuration for the recorder's own tests (run with each interpreter that has torch:
# /usr/bin/python3 -m pytest test/python, and the Debian sid root's python3 for torch 2.x).
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
if RECORDER_DIR not in sys.path:
    sys.path.insert(0, RECORDER_DIR)

collect_ignore = ["programs", "unseen-programs"]
