"""The scenario book: the spec and the corpus as a static site (t42 book, --report-html)."""
