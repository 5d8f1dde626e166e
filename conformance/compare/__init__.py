"""`t42 compare`: several engines over the same scenarios, side by side."""
