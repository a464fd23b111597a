"""The report of one run: the terminal summary, results.json, summary.md, the job summary and report.html.

- `tables`: the summary tables of result records (terminal, Markdown and the page share their rows).
- `summary`: the report directory, written whole or not at all, and the terminal and job summaries.
- `page`: report.html, one self-contained page (plots embedded, history as inline SVG).

Importing this package imports nothing; the plugin imports `summary` and `page` only at the end of a run.
"""
