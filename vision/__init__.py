"""Camera frames in, observations out: dice faces, cards; enrollment; synthetic scenes.

Imports only numpy, OpenCV and PIL, never firmware or hw.
"""
