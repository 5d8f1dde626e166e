"""The scenario book: the spec and the corpus as a static site (t42 book, --report-html)."""

# What the plugin keeps of a scenario for the report (report.py): its head, and its steps
# up to this many characters of JSON. A valid file holds at most 1 MiB, but YAML aliases
# can repeat a large step a hundred thousand times; the steps past the budget are not
# drawn (build.py), and the page says how many. Here, so that neither imports the other
# for it.
KEPT_STEPS_CHARS = 1 << 20
