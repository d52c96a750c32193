"""The language of what the doctor prints: English (the message ids) or Chinese (zh_CN catalog).

One place decides the language and translates. Code marks user-visible text the gettext way:

    from .i18n import _, N_, ngettext
    summary = _("npu-smi lists {count} NPUs but {nodes} /dev/davinci nodes").format(count=n, nodes=m)
    TITLE = N_("NPU driver installed")     # at import time: marked only, translated where shown: _(TITLE)

- Placeholders are named (`{count}`), never positional and never built by concatenation: Chinese puts
  the words in another order, so a whole sentence is one message.
- A fix line is one message, its command part written as is: "npu-smi info   # run it by hand" becomes
  "npu-smi info   # 手动运行，看它是否返回" — tests/test_i18n.py checks the command part is unchanged.
- Ids, statuses, JSON keys and enum values are never translated.

The catalogs: ascend_doctor/locale/zh_CN/*.po (one source file per area, so parallel work does not
collide), compiled into locale/zh_CN/LC_MESSAGES/ascend_doctor.mo when the wheel is built (setup.py,
ascend_doctor/catalog.py). A source checkout has no .mo: the .po files are read directly.

English imports nothing here beyond `os`: the catalog is loaded only when Chinese is chosen.
"""

from __future__ import annotations

import os
from typing import List, Mapping, Optional

LANGS = ("en", "zh")
DOMAIN = "ascend_doctor"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
CATALOG_LOCALE = {"zh": "zh_CN"}  # our language code -> the gettext locale directory

_lang = "en"
_catalog = None  # the loaded translations of _lang (None for English)
_loaded = {}  # (lang, LOCALE_DIR) -> its catalog, read once per process
_deferred = 0  # > 0 while checks and the planner run: _() gives a Text (i18n_text), worded by the renderer


class LanguageError(ValueError):
    """A language name that is neither en nor zh."""


def normalize(value: str, source: str) -> str:
    """'zh', 'zh_CN', 'zh-CN.UTF-8', 'ZH' -> 'zh'; 'en', 'en_US', 'C', 'POSIX' -> 'en'. `source` names where the
    value came from for the one-line error ("--lang", "ASCEND_DOCTOR_LANG")."""
    v = value.strip().lower().replace("-", "_")
    if v.startswith("zh"):
        return "zh"
    if v.startswith("en") or v in ("c", "posix"):
        return "en"
    raise LanguageError(f"{source} is {value!r}, expected zh or en")


def from_locale(environ: Mapping[str, str]) -> str:
    """The language the POSIX locale asks for messages: the first set of LC_ALL, LC_MESSAGES, LANG (that is
    their precedence); zh_* -> zh, anything else (or nothing) -> en."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "zh" if value.strip().lower().startswith("zh") else "en"
    return "en"


def choose(flag: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """The language of this run: --lang, else ASCEND_DOCTOR_LANG, else the locale. A bad --lang or
    ASCEND_DOCTOR_LANG raises LanguageError (the CLI makes it a one-line error, exit 2)."""
    env = os.environ if environ is None else environ
    if flag:
        return normalize(flag, "--lang")
    if env.get("ASCEND_DOCTOR_LANG", "").strip():
        return normalize(env["ASCEND_DOCTOR_LANG"], "ASCEND_DOCTOR_LANG")
    return from_locale(env)


def set_lang(lang: str) -> None:
    """Translate from now on into `lang` ("en" or "zh"); loads the catalog once."""
    global _lang, _catalog
    if lang not in LANGS:
        raise LanguageError(f"language {lang!r}, expected one of {', '.join(LANGS)}")
    if lang == "en":
        _catalog = None
    else:  # the CLI sets the language twice per run (argparse's errors, then the parsed --lang): one read
        key = (lang, LOCALE_DIR)
        if key not in _loaded:
            _loaded[key] = load_catalog(lang)
        _catalog = _loaded[key]
    _lang = lang


def get_lang() -> str:
    return _lang


def html_lang(lang: Optional[str] = None) -> str:
    """The value of <html lang=...> for `lang` (default: the current language)."""
    return {"zh": "zh-CN"}.get(lang or _lang, "en")


def load_catalog(lang: str):
    """The translations of `lang`: gettext's reader on the compiled .mo (an installed wheel), else the .po
    sources read directly (a source checkout). Either answers gettext(msgid) and ngettext(s, p, n)."""
    locale = CATALOG_LOCALE[lang]
    mo = os.path.join(LOCALE_DIR, locale, "LC_MESSAGES", DOMAIN + ".mo")
    if os.path.exists(mo):
        import gettext

        return gettext.translation(DOMAIN, LOCALE_DIR, languages=[locale])
    from .catalog import read_po_dir

    return read_po_dir(os.path.join(LOCALE_DIR, locale))


def msgids() -> List[str]:
    """Every message the current language's catalog translates (none in English): the templates that another
    run's English text (a node's saved report) can be matched against to say it in this language."""
    if _catalog is None:
        return []
    table = getattr(_catalog, "_table", None)  # catalog.PoCatalog (a source checkout)
    if table is None:
        table = getattr(_catalog, "_catalog", {})  # gettext.GNUTranslations (the compiled .mo of a wheel)
    return [k for k in table if isinstance(k, str) and k and "\0" not in k]


class deferred:
    """`with deferred():` the words of what is made inside are fixed later, by the renderer: `_()` returns a Text
    of the message (its `.format(**params)` the formatted Text), `ngettext` a plural Text, `sentences` the Text
    of the sentences joined (ascend_doctor/i18n_text.py). doctor.evaluate runs the checks and the planner so."""

    def __enter__(self):
        global _deferred
        _deferred += 1
        return self

    def __exit__(self, *exc):
        global _deferred
        _deferred -= 1
        return False


def is_deferred() -> bool:
    return _deferred > 0


def translate(msgid: str) -> str:
    """`msgid` in the current language now (the renderer's word for a Text), deferred or not."""
    if _catalog is None or not msgid:
        return msgid
    return _catalog.gettext(msgid)


def translate_plural(singular: str, plural: str, n: int) -> str:
    if _catalog is None:
        return singular if n == 1 else plural
    return _catalog.ngettext(singular, plural, n)


def _(msgid: str) -> str:
    """`msgid` in the current language (itself in English, or where no translation is written); while wording is
    deferred, the message as a Text the renderer words."""
    if _deferred and msgid:
        from .i18n_text import Text

        return Text._make(msgid, {}, raw=True)
    if _catalog is None or not msgid:
        return msgid
    return _catalog.gettext(msgid)


def N_(msgid: str) -> str:
    """Marks `msgid` for translation where it is defined (import time); translate it where shown with _()."""
    return msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n` in the current language (Chinese has one form)."""
    if _deferred:
        from .i18n_text import Text

        return Text._make(singular, {}, plural, n, raw=True)
    if _catalog is None:
        return singular if n == 1 else plural
    return _catalog.ngettext(singular, plural, n)


def lookup(text: str) -> str:
    """`text` translated if it is a message of the catalog, else unchanged: for strings the renderers show that
    were made elsewhere from marked messages (evidence labels, fixed evidence values like "not found")."""
    if _deferred and isinstance(text, str) and text:
        from .i18n_text import Text

        return text if isinstance(text, Text) else Text._make(text, {}, raw=True)
    if getattr(text, "localized", None) is not None:  # a Text (i18n_text): its message, worded now
        return text.localized()
    if _catalog is None or not isinstance(text, str) or not text:
        return text
    return _catalog.gettext(text)


def sentences(*parts: str) -> str:
    """Whole sentences (each one message) as one text: a space between them in English, none in Chinese
    (its full stop 。 already separates). Empty parts are left out."""
    if _deferred:
        from .i18n_text import Joined

        return Joined([p for p in parts if p])
    return ("" if _lang == "zh" else " ").join(p for p in parts if p)
