"""The spec as data: where it lives, its rule and code index, its JSON Schemas."""
