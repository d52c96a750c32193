"""The aggregate verdict's words, fixed at the door: `worded_result` (every aggregate renderer words the verdict with
it first) and the JSON document, which keeps beside its worded texts the message ids they were made from.

`aggregate.Aggregator.result()` holds its words as `i18n_text.Text`s: the verdict's problems, an unreadable report's
error, the nodes' finding titles, summaries, fix steps and evidence (a report/2 node's rebuilt from its message ids, a
report/1 node's `Stored`). The JSON says them in the language asked and adds

    "i18n": {"texts": {JSON Pointer: entry, ...}, "keys": {JSON Pointer of an object: {shown key: entry}}}

(entries as report/2 writes them, `i18n_text.to_i18n`), so `reworded(doc)` says a saved aggregate again in another
language exactly, without the phrase templates of report/1 files.
"""

from __future__ import annotations

import copy
import json
from itertools import chain
from typing import Any, Dict, Iterable

from ..i18n import get_lang
from ..jsonstream import pieces
from ..i18n_text import Text, from_i18n, worded

# The parts of a verdict that hold words (the rest is data: node names, counts, facts' English values that the
# renderers look up, statuses); the nodes list (thousands of rows) is never walked.
TEXT_KEYS = ("problems", "unreadable", "nodes_failing", "rank_table", "checks")


def worded_result(result: Dict[str, Any]) -> Dict[str, Any]:
    """`result` with its texts worded in the current language (a copy of the parts that hold words)."""
    out = dict(result)
    for key in TEXT_KEYS:
        if out.get(key) is not None:
            out[key] = worded(out[key])
    return out


def _pointer_key(key: Any) -> str:
    return str(worded(key)).replace("~", "~0").replace("/", "~1")


def _refs(value: Any, at: str, texts: Dict[str, Any], keys: Dict[str, Dict[str, Any]]) -> None:
    """Where the Texts in `value` are, as JSON Pointers (RFC 6901) into the worded document (an object's key as
    shown), each with its entry; and the objects whose keys are Texts (an evidence label made of a message)."""
    if isinstance(value, Text):
        texts[at] = value.to_i18n()
    elif isinstance(value, dict):
        labels = {worded(k): k.to_i18n() for k in value if isinstance(k, Text)}
        if labels:
            keys[at] = labels
        for k, v in value.items():
            _refs(v, f"{at}/{_pointer_key(k)}", texts, keys)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _refs(v, f"{at}/{i}", texts, keys)


def json_document(result: Dict[str, Any]) -> Dict[str, Any]:
    """The JSON document of `result`: worded in the current language, and "i18n" with the message of each text."""
    texts: Dict[str, Any] = {}
    keys: Dict[str, Dict[str, Any]] = {}
    doc = worded_result(result)
    for key in TEXT_KEYS:
        if result.get(key) is not None:
            _refs(result[key], "/" + key, texts, keys)
    if texts or keys:
        doc["i18n"] = {"texts": texts, **({"keys": keys} if keys else {})}
    return doc


def aggregate_json_pieces(result: Dict[str, Any], indent: Any = 1) -> Iterable[str]:
    """The JSON document as pieces of text to write one after the other (commands.common.write_output): compact
    (`indent` None, a large cluster's) a node at a time (jsonstream.pieces: the same text as one json.dumps, without
    its token list and its one string of the whole document), indented as one json.dumps."""
    doc = json_document(result)
    if indent is None:
        return chain(pieces(doc, ensure_ascii=False), ["\n"])
    return [json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"]


def _holder(doc: Any, pointer: str):
    """(the object or list a JSON Pointer's last step is in, that step), or (None, None) where it names nothing."""
    steps = [k.replace("~1", "/").replace("~0", "~") for k in str(pointer).split("/")[1:]]
    if not steps:
        return None, None
    holder = doc
    for step in steps[:-1]:
        holder = _step(holder, step)
        if holder is None:
            return None, None
    last = steps[-1]
    if isinstance(holder, list):
        return (holder, int(last)) if last.isdigit() and int(last) < len(holder) else (None, None)
    return (holder, last) if isinstance(holder, dict) and last in holder else (None, None)


def _step(holder: Any, step: str) -> Any:
    if isinstance(holder, dict):
        return holder.get(step)
    if isinstance(holder, list) and step.isdigit() and int(step) < len(holder):
        return holder[int(step)]
    return None


def reworded(doc: Dict[str, Any], kb=None) -> Dict[str, Any]:
    """A saved aggregate JSON document (`aggregate --format json`) in the current language, as a run in it writes
    it: each text its "i18n" names worded again from its message, whatever language the document was written in
    (a document without "i18n" keeps its words); the logs' problems from the knowledge base `kb` (default: the
    bundled one) by the signature fields they name, their root cause from its messages. Bad entries raise
    ValueError."""
    doc, headlines = _reworded_logs(doc, kb)
    refs = doc.get("i18n")
    if not isinstance(refs, dict):
        return dict(doc)
    texts, keys = refs.get("texts") or {}, refs.get("keys") or {}
    if not isinstance(texts, dict) or not isinstance(keys, dict):
        raise ValueError("field 'i18n' of an aggregate document is not an object of JSON Pointers")
    value = {k: copy.deepcopy(v) if k in TEXT_KEYS else v for k, v in doc.items() if k != "i18n"}
    for pointer, entry in texts.items():  # leaves first: their pointers name the keys as the document shows them
        holder, at = _holder(value, pointer)
        if holder is not None:
            holder[at] = _with_headline(from_i18n(entry), headlines)
    for pointer, labels in sorted(keys.items(), key=lambda item: -len(item[0])):  # the deepest objects first
        holder, at = _holder(value, pointer)
        target = holder[at] if holder is not None else None
        if isinstance(target, dict) and isinstance(labels, dict):
            holder[at] = {(from_i18n(labels[k]) if k in labels else k): v for k, v in target.items()}
    value["lang"] = get_lang()
    return json_document(value)


def _reworded_logs(doc: Dict[str, Any], kb) -> tuple:
    """(doc with its "logs" block in the current language, {the root-cause headline as written: as said now})."""
    logs = doc.get("logs")
    if not isinstance(logs, dict):
        return doc, {}
    from ..i18n_text import unmarked
    from .kb_text import reworded as kb_reworded
    from .triage_report import root_cause_headline

    if kb is None:
        from ..kb.load import load_knowledge_base

        kb = load_knowledge_base()
    out = dict(logs, problems=kb_reworded(logs.get("problems") or [], kb))
    rc, headlines = logs.get("root_cause"), {}
    if isinstance(rc, dict) and isinstance(rc.get("i18n"), dict):
        out["root_cause"] = rc = dict(rc, **worded({k: unmarked(v) for k, v in rc["i18n"].items()}))
        out["headline"] = root_cause_headline(rc)
        if isinstance(logs.get("headline"), str):
            headlines[logs["headline"]] = out["headline"]
    return dict(doc, logs=out), headlines


def _with_headline(text: Any, headlines: Dict[str, str]) -> Any:
    """The verdict's line for the logs (aggregate.LOGS_PROBLEM) with the headline said in the current language:
    its {what} was the headline worded when the document was written (a document before the headline kept its
    message: now {what} is that message, worded with the rest)."""
    from ..aggregate import LOGS_PROBLEM

    if (isinstance(text, Text) and text.msgid == LOGS_PROBLEM and not isinstance(text.params.get("what"), Text)
            and str(text.params.get("what")) in headlines):
        return Text(LOGS_PROBLEM, **dict(text.params, what=headlines[str(text.params["what"])]))
    return text
