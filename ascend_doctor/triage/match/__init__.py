"""The matching engine: every signature of the knowledge base over gigabytes of logs at once.

Every signature is reduced to literal anchors, one of which MUST appear in any line it
matches (an all_of alternative's most selective literal; a regex's required literals, worked
out from the parsed regex, or given by hand in the data). A finder (Hyperscan, an RE2 set, or
pure-Python regex passes) locates the anchors in multi-megabyte chunks of bytes; only lines
holding one reach the signatures' exact matchers (`kb/model.py`, `Signature.bytes_matcher`),
so noise lines never enter Python code.

- `codes`: a bare code counts only in an error context (what a signature's line means);
- `literals`: the required literals of a regex and what an anchor costs;
- `translate`: a signature's regex as a Hyperscan expression;
- `gates`: the two-level scan (gate words and long anchors over every byte, the whole database over the lines
  they mark; which expression is behind a gate, proved from its parse);
- `finders`: Hyperscan, RE2 and Python finders, and the plan of what they look for;
- `cache`: the plan and the compiled Hyperscan database kept between runs;
- `scanner`: `Scanner`, the one object `triage`, `kb match` and the events prefilter use.
"""
