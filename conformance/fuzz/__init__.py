"""Differential fuzzing: random matches through an implementation and the reference."""
