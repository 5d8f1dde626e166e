"""Run and judge: each scenario's steps sent through an adapter, each reply judged."""
