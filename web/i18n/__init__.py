"""Interface strings in Ukrainian, Russian and English (SPEC L1).

Decisions:
- The language is picked from the browser's preferred languages (the first of
  ``navigator.languages`` whose primary tag is uk, ru or en, or one of
  :data:`ALIASES`); Ukrainian is the fallback for every other language. The first
  paint (``web/boot/paint.js``, before Python) picks it by the same rule from the
  same data — :func:`first_paint_words`, shipped by ``tools/firstpaint.py`` — so
  the page never paints in one language and switches to another (issue 32). The player can switch it in Settings and the
  choice is remembered on this device (P2).
- Terms follow the rules text: "база" (foundation), "колода" (stock), "скид" (waste).
"""

from __future__ import annotations

from web.i18n import en, ru, uk

LANGS = ("uk", "ru", "en")
DEFAULT = "uk"
ALIASES = {"be": "ru"}  # Belarusian readers: Russian is the closer of the three

STRINGS: dict[str, dict[str, str]] = {"uk": uk.WORDS, "ru": ru.WORDS, "en": en.WORDS}


def pick_language(preferred: list[str] | tuple[str, ...] | None, saved: str | None = None) -> str:
    """The interface language: the saved choice, else the browser's, else Ukrainian (L1).

    >>> pick_language(["de-DE", "ru-RU", "en"])
    'ru'
    >>> pick_language(["fr"])
    'uk'
    >>> pick_language(["en-US"], saved="uk")
    'uk'
    """
    if saved in LANGS:
        return saved
    for tag in preferred or ():
        primary = str(tag).split("-")[0].split("_")[0].lower()
        if primary in LANGS:
            return primary
        if primary in ALIASES:
            return ALIASES[primary]
    return DEFAULT


def t(lang: str, key: str) -> str:
    """The string ``key`` in ``lang``; English, then the key itself, if missing."""
    table = STRINGS.get(lang) or STRINGS[DEFAULT]
    return table.get(key) or STRINGS["en"].get(key) or key


def variant_name(lang: str, draw: int, redeals: int | None) -> str:
    """Human name of a variant as in SPEC's variants table."""
    if redeals is None:
        return t(lang, "variant_classic1" if draw == 1 else "variant_classic3")
    if draw == 3 and redeals == 2:
        return {"uk": "Три карти, 3 проходи", "ru": "Три карты, 3 прохода", "en": "Turn Three"}.get(lang, "Turn Three")
    names = {
        "uk": f"Обмежена: по {'одній' if draw == 1 else 'три'}, перездач {redeals}",
        "ru": f"Ограниченная: по {'одной' if draw == 1 else 'три'}, пересдач {redeals}",
        "en": f"Limited: draw {draw}, {redeals} redeal{'s' if redeals != 1 else ''}",
    }
    return names.get(lang, names["en"])


def plural(lang: str, key: str, n: int) -> str:
    """``n`` with the string ``key``'s form for it: one form, or one|few|many
    (Ukrainian and Russian rules; English uses one|other|other)."""
    forms = t(lang, key).split("|")
    if len(forms) == 1:
        return forms[0].format(n=n)
    if lang == "en":
        i = 0 if n == 1 else 1
    elif n % 10 == 1 and n % 100 != 11:
        i = 0
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        i = 1
    else:
        i = 2
    return forms[i].format(n=n)


def variant_short(lang: str, draw: int, redeals: int | None) -> str:
    """The variant's name as the table shows it (issue 32): Classic draw 1 or 3,
    Turn Three, or the draw and the redeal limit.

    >>> [variant_short("en", 3, 2), variant_short("en", 1, 1), variant_short("uk", 3, 3)]
    ['Turn Three', 'Draw 1 · 1 redeal', 'По 3 · 3 перездачі']
    """
    if redeals is None:
        return t(lang, f"vs_classic{draw}")
    if (draw, redeals) == (3, 2):
        return t(lang, "vs_turn3")
    return t(lang, "vs_limited").format(draw=draw, redeals=plural(lang, "redeals_n", redeals))


def first_paint_words(keys: list[str]) -> dict[str, object]:
    """What the first paint needs to speak the page's language before Python: the
    rule's data (:func:`pick_language`: ``langs``, ``default``, ``aliases``) and
    the strings ``keys`` (the page's ``data-t`` labels) in every language."""
    return {"langs": list(LANGS), "default": DEFAULT, "aliases": ALIASES,
            "words": {lang: {k: t(lang, k) for k in keys} for lang in LANGS}}
