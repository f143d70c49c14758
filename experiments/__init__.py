"""Tournaments and studies for sixtysix, imported as ``sixtysix.experiments``: duplicate-deal
tournaments (``tournament``: configuration, schedule, rows, a process pool or Dask, replay),
their resumable Parquet store (``store``), summaries and ratings (``tournament_summary``) and
plots (``tournament_plots``), their counterparts for three and four seats (``table_tournament``,
``table_summary``, ``table_plots``), the exploitability of any agent on a mini preset
(``exploitability``), and the close-the-talon study (the ``closing_*`` modules: harvest
positions, value them, score agents). No compiled kernels live here (docs/architecture.md)."""
