"""The knowledge base: documented pitfalls (P01..P24) and known log signatures.

`data/knowledge_base.json` (rules in `data/knowledge_base.schema.json`) holds the pitfalls
and our first signatures; `data/kb/*.json` (rules in `data/kb_part.schema.json`) hold the
rest (issue 13: every training fault of ascend-fd, with English and Chinese texts); users
add files in the part format with `--kb FILE` or `$ASCEND_DOCTOR_KB`. One KnowledgeBase
serves the report's advice, `triage`, `kb` and the smoke stage classifier. The parts are
read on first use of `.signatures` (`check` needs only the pitfalls).

- `model`: pitfalls, signatures (what a signature matches on one line) and the KnowledgeBase;
- `load`: reading knowledge_base.json, the parts and the user's files;
- `peers`: an ascend-fd id only where the peer's own rule holds (data/ascend_fd_rules.json);
- `lookup`: the one index behind `explain`, `kb show` and the ids `triage` prints.

Scanning gigabytes of logs for every signature at once is the matching engine's job
(`ascend_doctor/triage/match/`), imported only when a signature is first matched.
"""
