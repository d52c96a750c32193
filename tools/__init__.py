"""Build-time and maintenance tools: run from a source checkout or by setup.py, never shipped in the wheel."""
