"""records.py: the one record system of the package (the closure-built records and the compiled ones)."""

import os
import re

import pytest

from ascend_doctor import records
from ascend_doctor.records import FrozenInstanceError, dataclass, field
from tests.helpers import REPO


def _pair(**options):
    made = []
    for compiled in (False, True):
        @dataclass(compiled=compiled, **options)
        class Rec:
            a: int
            b: str = "x"
            c: list = field(default_factory=list)
            d: int = field(default=0, repr=False, compare=False)

        made.append(Rec)
    return made


@pytest.mark.parametrize("compiled", [False, True])
def test_both_kinds_of_record_behave_as_dataclasses(compiled):
    Rec = _pair()[compiled]
    r = Rec(1, c=[2])
    assert (r.a, r.b, r.c, r.d) == (1, "x", [2], 0) and list(vars(r)) == ["a", "b", "c", "d"]
    assert repr(r).endswith("Rec(a=1, b='x', c=[2])")
    assert Rec(1) == Rec(1, d=5) and Rec(1) != Rec(2) and Rec.__hash__ is None
    assert Rec(1).c is not Rec(1).c  # a fresh list each time
    assert [f.name for f in records.fields(r)] == ["a", "b", "c", "d"]
    assert records.replace(r, b="y") == Rec(1, "y", [2])
    with pytest.raises(TypeError):
        Rec()
    with pytest.raises(TypeError):
        Rec(1, zz=2)
    with pytest.raises(TypeError):
        Rec(1, "b", [], 0, "too many")


@pytest.mark.parametrize("compiled", [False, True])
def test_frozen_and_post_init(compiled):
    @dataclass(frozen=True, compiled=compiled)
    class Point:
        x: int
        y: int = 0

    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2
    assert hash(p) == hash(Point(1, 0))

    @dataclass(compiled=compiled)
    class Counted:
        n: int

        def __post_init__(self):
            self.double = 2 * self.n

    assert Counted(3).double == 6


def test_the_package_declares_every_record_here_and_only_records_imports_dataclasses():
    offenders = []
    for root, _dirs, files in os.walk(os.path.join(REPO, "ascend_doctor")):
        for name in files:
            path = os.path.join(root, name)
            if name.endswith(".py") and not path.endswith(os.path.join("ascend_doctor", "records.py")):
                if re.search(r"^\s*(from dataclasses import|import dataclasses)", open(path, encoding="utf-8").read(),
                             re.M):
                    offenders.append(os.path.relpath(path, REPO))
    assert not offenders, f"use ascend_doctor.records (compiled=True for records made by the thousand): {offenders}"
