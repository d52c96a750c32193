"""jsonstream: JSON text a value at a time, the same text as json.dumps (a large report is never held whole)."""

import json

import pytest

from ascend_doctor import jsonstream
from ascend_doctor.jsonstream import Rows, pieces

VALUES = [
    {}, [], "x", 3, None, 1.5,
    {"lit": [["ab\u00e9", [1, 2]], ["c", []]], "pre": {"7": [["x", "y"]], "8": []}, "hs": {"l1": [[None, 1, [3]]]}},
    [[1, [2, [3, {"k": "v"}]]], {"k": {"z": 1.5, "t": True}}],
    {"s": "\udcff tail", 5: "int key", True: [None], None: {"a": {1: 2}}, 2.5: "float key", "\u6545\u969c": "\u4e2d"},
]


@pytest.mark.parametrize("obj", VALUES)
@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("separators", [(", ", ": "), (",", ":")])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_pieces_join_to_json_dumps(obj, ascii_only, separators, depth, monkeypatch):
    monkeypatch.setattr(jsonstream, "PIECE", 5)
    got = list(pieces(obj, ensure_ascii=ascii_only, separators=separators, depth=depth))
    want = json.dumps(obj, ensure_ascii=ascii_only, separators=separators)
    assert "".join(got) == want
    assert len(got) > 1 or len(want) <= 5


def test_rows_are_made_only_when_the_text_reaches_them(monkeypatch):
    monkeypatch.setattr(jsonstream, "PIECE", 1)
    made = []

    def make(n):
        made.append(n)
        return {"n": n, "t": "\u6545\u969c" * n}

    doc = {"head": 1, "rows": Rows(range(4), make), "tail": Rows([], make)}
    texts = pieces(doc, ensure_ascii=False)
    seen = ""
    while '"n": 1' not in seen:
        seen += next(texts)
    assert made == [0, 1]  # the rows after it are not made yet
    seen += "".join(texts)
    assert made == [0, 1, 2, 3]
    assert json.loads(seen) == {"head": 1, "rows": [make(n) for n in range(4)], "tail": []}
    assert len(doc["rows"]) == 4
    # rows below the walked levels are encoded whole, as the list they stand for; other objects are still refused
    assert "".join(pieces([[Rows([1, 2], str)]], depth=1)) == json.dumps([[["1", "2"]]])
    with pytest.raises(TypeError):
        "".join(pieces([[object()]], depth=1))
