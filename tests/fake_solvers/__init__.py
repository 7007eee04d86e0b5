"""Fake solver programs and helpers for testing the external-solver adapters without binaries."""
