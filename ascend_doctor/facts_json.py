"""The facts as JSON and back: `to_jsonable`, and `from_jsonable` with a converter built once per record class
(a report is read thousands of times by `aggregate`), which names the first bad field (FactsError)."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Tuple, Union

from . import records


def to_jsonable(obj: Any) -> Any:
    if records.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in records.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    return obj


class FactsError(ValueError):
    """Facts JSON that does not have the shape of Facts: says where (facts.cann.installs[0].root) and what."""


_JSON_TYPES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def from_jsonable(tp: Any, value: Any, where: str) -> Any:
    """`value` (parsed JSON) as an instance of the annotated type `tp`: dataclasses (by field; unknown keys
    are ignored so newer reports read), Optional, List, Dict, str/int/float/bool and Any."""
    origin, args = getattr(tp, "__origin__", None), getattr(tp, "__args__", ())
    if tp is Any:
        return value
    if origin is Union:
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return from_jsonable(inner[0], value, where)
    if records.is_dataclass(tp):
        return _converter(tp)(value, where)
    if origin in (list, List):
        if not isinstance(value, list):
            raise FactsError(f"{where}: expected a list, got {type(value).__name__}")
        return [from_jsonable(args[0] if args else Any, v, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin in (dict, Dict):
        if not isinstance(value, dict):
            raise FactsError(f"{where}: expected an object, got {type(value).__name__}")
        return {str(k): from_jsonable(args[1] if args else Any, v, f"{where}.{k}") for k, v in value.items()}
    if tp in _JSON_TYPES:
        ok = isinstance(value, bool) if tp is bool else \
            isinstance(value, (int, float)) and not isinstance(value, bool) if tp is float else \
            isinstance(value, tp) and not isinstance(value, bool)
        if not ok:
            raise FactsError(f"{where}: expected {_JSON_TYPES[tp]}, got {value!r:.60}")
        return value
    return value


# A report is read thousands of times by `aggregate` (one per node): each dataclass gets a converter built once,
# one small step per field that checks the field's JSON type with `type(v) in ...` and hands anything unusual
# (a wrong type, a nested generic) to from_jsonable, which converts it or names the bad field. A converter can
# be built for some fields only (`only`, see Facts.from_json): a read-only view, whose unread list and object
# fields hold shared empty read-only values and whose read ones may be the JSON's own (no copies).
_CONVERTERS: Dict[Any, Any] = {}
_EMPTY_MAP: Any = None  # types.MappingProxyType({}), made with the first view
_MISSING = object()
_EXACT = (str, int, bool)
Only = Optional[Tuple[Tuple[str, Any], ...]]  # ((field, Only of its dataclass), ...); None: every field
_READERS: Dict[Any, Any] = {}  # (class, Facts.from_json's `only`) -> (its converter, the launch facts' converter)


def _converter(tp: type, only: Only = None, view: bool = False):
    conv = _CONVERTERS.get((tp, only, view))
    if conv is None:
        conv = _CONVERTERS[(tp, only, view)] = _build_converter(tp, only, view)
    return conv


def _only_tree(paths: Any) -> Only:
    """("driver.version", "npu.devices.name", "launch") -> (("driver", (("version", None),)), ...): hashable."""
    tree: Dict[str, Any] = {}
    for path in paths:
        node = tree
        parts = path.split(".")
        for i, part in enumerate(parts):
            if i == len(parts) - 1:
                node[part] = None  # the whole field
            elif node.get(part, {}) is not None:
                node = node.setdefault(part, {})
            else:
                break  # already read whole

    def freeze(node):
        return tuple(sorted((k, None if v is None else freeze(v)) for k, v in node.items()))

    return freeze(tree)


def _field_converter(name: str, hint: Any, sub: Only = None, view: bool = False):
    """(types taken as they are, fn(value, where) for anything else): the common JSON shapes are checked with
    `type(v) in ok` by the caller, lists and objects converted here, the rest by from_jsonable (which converts
    or names the bad field). ok is None for Any (everything taken). `sub`: the fields to read of a nested
    dataclass (None: all)."""
    suffix = "." + name

    def slow(v, where):
        return from_jsonable(hint, v, where + suffix)

    origin, args = getattr(hint, "__origin__", None), getattr(hint, "__args__", ())
    optional = origin is Union and type(None) in args and len(args) == 2
    inner = [a for a in args if a is not type(None)][0] if optional else hint
    i_origin, i_args = getattr(inner, "__origin__", None), getattr(inner, "__args__", ())
    item = i_args[-1] if i_args else None
    ok = {type(None)} if optional else set()
    if inner is Any:
        return None, slow
    if inner in _EXACT:
        return frozenset(ok | {inner}), slow
    if inner is float:
        return frozenset(ok | {float, int}), slow
    # a list's or an object's items: the types taken as they are (str, or str and None for Optional[str] ...)
    item_args = getattr(item, "__args__", ())
    item_ok = frozenset({item}) if item in _EXACT else \
        frozenset(item_args) if getattr(item, "__origin__", None) is Union and len(item_args) == 2 \
        and type(None) in item_args and any(a in _EXACT for a in item_args) else None
    resolved: List[Any] = []  # the nested converter, looked up on first use (types may refer to later ones)

    def nested(tp):
        if not resolved:
            resolved.append(_converter(tp, sub, view))
        return resolved[0]

    if records.is_dataclass(inner):
        def conv(v, where):
            return (resolved[0] if resolved else nested(inner))(v, where + suffix)
    elif i_origin in (list, List) and item_ok:
        def conv(v, where, _type=type):
            if _type(v) is list and all(_type(x) in item_ok for x in v):
                return v if view else list(v)
            return slow(v, where)
    elif i_origin in (list, List) and records.is_dataclass(item):
        def conv(v, where):
            if type(v) is not list:
                return slow(v, where)
            c, at = resolved[0] if resolved else nested(item), where + suffix
            try:
                return [c(x, at) for x in v]
            except FactsError:  # again, to name the item: converters have no side effects
                return [c(x, f"{at}[{i}]") for i, x in enumerate(v)]
    elif i_origin in (dict, Dict) and (item is Any or item_ok):
        def conv(v, where, _type=type):
            if _type(v) is dict and (item is Any or all(_type(x) in item_ok for x in v.values())):
                return v if view else dict(v)
            return slow(v, where)
    elif i_origin in (list, List) and getattr(item, "__origin__", None) in (dict, Dict) \
            and getattr(item, "__args__", (None, None))[1] is Any:
        def conv(v, where):
            if type(v) is list and all(type(x) is dict for x in v):
                return v if view else [dict(x) for x in v]
            return slow(v, where)
    else:
        conv = slow
    return frozenset(ok), conv


def _build_converter(tp: type, only: Only = None, view: bool = False):
    import typing

    hints = typing.get_type_hints(tp, vars(sys.modules[tp.__module__]))
    wanted = dict(only) if only is not None else None
    steps = []
    for f in records.fields(tp):
        required = f.default is records.MISSING and f.default_factory is records.MISSING
        if wanted is None or f.name in wanted or required:
            steps.append((f.name, *_field_converter(f.name, hints[f.name], wanted.get(f.name) if wanted else None,
                                                    view), required))

    make = _maker(tp, view)

    def convert(value, where, _missing=_MISSING, _type=type):  # builtins and globals bound as fast locals
        if _type(value) is not dict and not isinstance(value, dict):
            raise FactsError(f"{where}: expected an object, got {type(value).__name__}")
        kw = {}
        get = value.get
        for name, ok, conv, required in steps:
            v = get(name, _missing)
            if v is _missing:
                if required:
                    raise FactsError(f"{where}.{name}: missing (required)")
            elif ok is None or _type(v) in ok:
                kw[name] = v
            else:
                kw[name] = conv(v, where)
        return make(kw)

    return convert


def _maker(tp: type, view: bool = False):
    """fn(kw) -> a `tp` from field values already checked (names known, the required ones there): what the
    record's __init__ does without checking its arguments again (records.py: "a few microseconds more" per
    call, thousands of times in aggregate). A class with a __post_init__, a frozen one or one whose fields
    are properties, and the standard dataclasses, are made by calling the class. `view`: a list or object field
    not given holds a shared empty read-only value (no factory called)."""
    fields = records.fields(tp)
    if not hasattr(tp, "__record_fields__") or hasattr(tp, "__post_init__") or "__setattr__" in vars(tp) \
            or any(hasattr(getattr(tp, f.name, None), "__set__") for f in fields):
        return lambda kw: tp(**kw)
    template = {f.name: f.default for f in fields}  # in field order, as the record's __init__ leaves __dict__
    factories = tuple((f.name, f.default_factory) for f in fields if f.default_factory is not records.MISSING)
    if view:
        global _EMPTY_MAP
        if _EMPTY_MAP is None:
            import types

            _EMPTY_MAP = types.MappingProxyType({})
        empty = {list: (), dict: _EMPTY_MAP}
        template.update((name, empty[factory]) for name, factory in factories if factory in empty)
        factories = tuple((name, factory) for name, factory in factories if factory not in empty)
    new = object.__new__

    def make(kw):
        values = {**template, **kw}
        for name, factory in factories:
            if name not in kw:
                values[name] = factory()
        obj = new(tp)
        obj.__dict__ = values
        return obj

    return make
