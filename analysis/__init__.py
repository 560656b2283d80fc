"""locksim's analysis: plots and reports from the files the simulator writes (traces, verdicts, sweep CSVs).

Modules: ``trace`` reads traces and verdicts, ``style`` holds the shared look,
``timeline`` draws one run.
"""
