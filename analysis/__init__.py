"""locksim's analysis: plots and reports from the files the simulator writes (traces, verdicts, sweep CSVs).

Commands (run from the repository root with an interpreter that has matplotlib and pandas — Debian's
``/usr/bin/python3`` — or after ``pip install ./analysis``): ``timeline`` draws one run, ``sweep_plots``
draws a sweep's curves and heat maps, ``compare_plot`` the verdict matrix of ``locksim compare``,
``efficiency_plot`` a transactional sweep's rollbacks and wasted work, and ``report`` writes the
design-review HTML page. Each calls ``dependencies.exit_if_missing`` first, so a Python without the
libraries gets one line saying what to install.

Modules they share: ``trace`` (with ``trace_records``) reads traces and verdicts, ``sweep_data``,
``provenance`` and ``units`` read sweeps, ``style`` holds the shared look, the ``timeline_*`` modules
model, lay out and paint a run, and ``search_report`` is the report's search section.
"""
