"""Load and validate: scenario files -> checked `Scenario` objects, and their selection."""
