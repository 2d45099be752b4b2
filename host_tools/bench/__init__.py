"""Benchmarks, arenas and soaks: how fast, how strong and how robust the firmware is."""
