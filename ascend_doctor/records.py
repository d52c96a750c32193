"""Dataclass-style records without the start-up cost of `dataclasses`.

`dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`: ~5 ms) and compiles an
`__init__`, `__repr__` and `__eq__` from source for every class (~0.3 ms each): with the ~30
classes of the facts, the findings and the run, that was a fifth of a `check` run's start-up.
`dataclass` here builds the same methods from closures over the field list, with nothing to
compile. It covers what the package's records use, with the dataclasses meaning:

* fields from the class annotations in order (a base record's first), defaults, `field(default=...,
  default_factory=..., repr=..., compare=...)`; a field without a default after one with a default
  is a TypeError when the class is defined, as is a list, dict or set default;
* `__init__` (positional or keyword arguments, then `__post_init__` if the class has one),
  `__repr__` (`Name(a=1, b='x')`), `__eq__` (same class, equal fields), `__hash__ = None` unless the
  class sets one, `__match_args__`; `frozen=True`: assignment raises FrozenInstanceError and
  instances hash by their fields;
* `fields`, `is_dataclass`, `replace` and `MISSING`, which also accept classes made by the
  standard `dataclasses` (imported only when one of those is met).

Not supported (an error when used, not a silent difference): ClassVar, InitVar and KW_ONLY
annotations, `init=False` fields, `order`; `slots=True` only with `compiled=True` (the class is made again
with `__slots__`, what `dataclasses`' `slots=True` does from Python 3.10: records held by the ten thousand,
such as the processes of a cluster-wide triage merge, carry no instance dict).

`__init__` checks its arguments per call, which costs a few microseconds more than a compiled one.
Records made by the thousand in a loop (rank-table problems, triage events, the records a node summary
decodes) ask for `@dataclass(compiled=True)`: their `__init__` is the one the standard `dataclasses` compiles
for the same fields (~0.3 ms when the class is defined, as fast per call), the rest is made here. So every
record of the package is declared here, and `dataclasses` is imported only by this module, only when a
compiled record is defined (never on the check path).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Tuple

__all__ = ["MISSING", "Field", "FrozenInstanceError", "dataclass", "field", "fields", "is_dataclass", "replace"]

_FIELDS = "__record_fields__"


class _MissingType:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _MissingType()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class Field:
    __slots__ = ("name", "type", "default", "default_factory", "repr", "compare")

    def __init__(self, default=MISSING, default_factory=MISSING, repr=True, compare=True):  # noqa: A002
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, repr={self.repr}, compare={self.compare})")


def field(*, default=MISSING, default_factory=MISSING, repr=True, compare=True) -> Any:  # noqa: A002
    """A field's options, as dataclasses.field (default, default_factory, repr, compare)."""
    return Field(default, default_factory, repr, compare)


def _annotation_kind(annotation: Any) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    for kind in ("ClassVar", "InitVar", "KW_ONLY"):
        if kind in text:
            return kind
    return ""


def _collect_fields(cls: type) -> Dict[str, Field]:
    collected: Dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        base_fields = base.__dict__.get(_FIELDS)
        if base_fields:
            collected.update(base_fields)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        kind = _annotation_kind(annotation)
        if kind:
            raise TypeError(f"{cls.__qualname__}.{name}: {kind} fields are not supported by ascend_doctor.records")
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        f.name, f.type = name, annotation
        if isinstance(f.default, (list, dict, set)):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        if f.default is MISSING:
            if isinstance(value, Field):  # only a factory: nothing stays on the class
                delattr(cls, name)
        else:
            setattr(cls, name, f.default)
        collected[name] = f
    seen_default = None
    for f in collected.values():
        if f.default is MISSING and f.default_factory is MISSING:
            if seen_default is not None:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
        else:
            seen_default = f.name
    return collected


def _make_init(cls: type, all_fields: Tuple[Field, ...], frozen: bool) -> Callable:
    names = tuple(f.name for f in all_fields)
    n = len(names)
    known = frozenset(names)
    # Every field in order (so an instance's __dict__ lists them in order, as a compiled __init__ would),
    # holding its default; the factories and the required fields are filled in per call.
    template = {f.name: f.default for f in all_fields}
    factories = tuple((f.name, f.default_factory) for f in all_fields if f.default_factory is not MISSING)
    required = tuple(f.name for f in all_fields if f.default is MISSING and f.default_factory is MISSING)
    post_init = hasattr(cls, "__post_init__")
    # A field name the class (or a base) also defines as a property or other data descriptor is set through
    # it, one by one, as the generated __init__ of dataclasses does; otherwise the fields go into __dict__ at
    # once (which is also what a frozen record needs: no __setattr__ on the way).
    direct = not any(hasattr(getattr(cls, name, None), "__set__") for name in names)
    assign = object.__setattr__ if frozen else setattr
    qualname = cls.__qualname__

    def __init__(self, *args, **kwargs):
        if args:
            if len(args) > n:
                raise TypeError(f"{qualname}.__init__() takes {n + 1} positional arguments but "
                                f"{len(args) + 1} were given")
            for name, value in zip(names, args):
                if name in kwargs:
                    raise TypeError(f"{qualname}.__init__() got multiple values for argument {name!r}")
                kwargs[name] = value
        if not known.issuperset(kwargs):
            unknown = next(k for k in kwargs if k not in known)
            raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument {unknown!r}")
        for name in required:
            if name not in kwargs:
                raise TypeError(f"{qualname}.__init__() missing 1 required positional argument: {name!r}")
        values = dict(template)
        values.update(kwargs)
        for name, factory in factories:
            if name not in kwargs:
                values[name] = factory()
        if direct:
            self.__dict__.update(values)
        else:
            for name, value in values.items():
                assign(self, name, value)
        if post_init:
            self.__post_init__()

    return __init__


def _compile_init(cls: type, all_fields: Tuple[Field, ...], frozen: bool) -> Callable:
    """The same __init__ as _make_init, compiled: made by the standard dataclasses' code generator for a shadow
    class with these fields (so the package itself compiles no source), as fast per call as theirs."""
    import dataclasses  # only where a record made by the thousand is defined (never on the check path)

    namespace: Dict[str, Any] = {"__annotations__": {f.name: f.type for f in all_fields}}
    for f in all_fields:
        if f.default_factory is not MISSING:
            namespace[f.name] = dataclasses.field(default_factory=f.default_factory)
        elif f.default is not MISSING:
            namespace[f.name] = f.default
    if hasattr(cls, "__post_init__"):
        namespace["__post_init__"] = cls.__post_init__  # the generated __init__ calls self.__post_init__()
    shadow = dataclasses.dataclass(type(cls.__name__, (), namespace), repr=False, eq=False, frozen=frozen)
    return shadow.__dict__["__init__"]


def _process(cls: type, frozen: bool, eq: bool, repr: bool, compiled: bool = False,  # noqa: A002
             slots: bool = False) -> type:
    if slots and not compiled:
        raise TypeError(f"{cls.__qualname__}: slots=True needs compiled=True (an __init__ that sets attributes)")
    if slots and frozen:
        raise TypeError(f"{cls.__qualname__}: slots=True with frozen=True is not supported")
    collected = _collect_fields(cls)
    setattr(cls, _FIELDS, collected)
    all_fields = tuple(collected.values())
    shown = tuple(f.name for f in all_fields if f.repr)
    compared = tuple(f.name for f in all_fields if f.compare)

    def put(name: str, method: Callable) -> None:  # like dataclasses: a method the class defines stays
        if name not in cls.__dict__:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)

    put("__init__", (_compile_init if compiled else _make_init)(cls, all_fields, frozen))

    if repr:
        def __repr__(self):
            return (f"{self.__class__.__qualname__}("
                    + ", ".join(f"{name}={getattr(self, name)!r}" for name in shown) + ")")

        put("__repr__", __repr__)

    if eq:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return tuple(getattr(self, n) for n in compared) == tuple(getattr(other, n) for n in compared)
            return NotImplemented

        put("__eq__", __eq__)

    if frozen:
        if "__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__:
            raise TypeError(f"cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__qualname__}")

        def __setattr__(self, name, value):
            if name in collected:
                raise FrozenInstanceError(f"cannot assign to field {name!r}")
            object.__setattr__(self, name, value)

        def __delattr__(self, name):
            if name in collected:
                raise FrozenInstanceError(f"cannot delete field {name!r}")
            object.__delattr__(self, name)

        put("__setattr__", __setattr__)
        put("__delattr__", __delattr__)

    if "__hash__" not in cls.__dict__:
        if eq and frozen:
            cls.__hash__ = lambda self: hash(tuple(getattr(self, n) for n in compared))
        elif eq:
            cls.__hash__ = None
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(f.name for f in all_fields)
    return _slotted(cls, tuple(collected)) if slots else cls


def _slotted(cls: type, names: Tuple[str, ...]) -> type:
    """`cls` made again with `__slots__` = its own fields (the defaults live in the compiled __init__)."""
    own = tuple(n for n in names if not any(n in getattr(b, "__slots__", ()) for b in cls.__mro__[1:]))
    namespace = {k: v for k, v in cls.__dict__.items() if k not in own and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = own
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def dataclass(cls=None, *, frozen: bool = False, eq: bool = True, repr: bool = True,  # noqa: A002
              compiled: bool = False, slots: bool = False):
    """@dataclass / @dataclass(frozen=True, eq=..., repr=..., compiled=...): see the module docstring."""
    def wrap(c):
        return _process(c, frozen, eq, repr, compiled, slots)

    return wrap if cls is None else wrap(cls)


def _stdlib_record(class_or_instance: Any) -> bool:
    cls = class_or_instance if isinstance(class_or_instance, type) else type(class_or_instance)
    return hasattr(cls, "__dataclass_fields__")


def is_dataclass(obj: Any) -> bool:
    """A record class or instance (of this module or of the standard dataclasses)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, _FIELDS) or hasattr(cls, "__dataclass_fields__")


def fields(class_or_instance: Any) -> Tuple[Any, ...]:
    """The fields of a record class or instance, in order (a TypeError for anything else)."""
    cls = class_or_instance if isinstance(class_or_instance, type) else type(class_or_instance)
    found = getattr(cls, _FIELDS, None)
    if found is not None:
        return tuple(found.values())
    if _stdlib_record(cls):
        import dataclasses

        return dataclasses.fields(class_or_instance)
    raise TypeError("must be called with a dataclass type or instance")


def replace(obj: Any, **changes: Any) -> Any:
    """A copy of a record instance with some fields changed (dataclasses.replace)."""
    if isinstance(obj, type) or not hasattr(type(obj), _FIELDS):
        if _stdlib_record(obj) and not isinstance(obj, type):
            import dataclasses

            return dataclasses.replace(obj, **changes)
        raise TypeError("replace() should be called on dataclass instances")
    for f in fields(obj):
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
