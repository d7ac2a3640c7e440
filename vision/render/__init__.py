"""Synthetic top-down camera frames for tests, benchmarks and the demo.

Every scene is drawn from a seed, so a test set is just a range of seeds.
"""
