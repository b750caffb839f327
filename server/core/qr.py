"""A QR code of a text as SVG (segno's, pure Python): dark modules on white with the
standard quiet zone of four modules, sized by its ``viewBox`` so that it scales to the box
it is shown in.  Always a full QR code, never a Micro QR (which phones' cameras do not
read).  Pure: the same text gives the same image, so recent ones are kept."""

from __future__ import annotations

from functools import lru_cache

import segno

MAX_TEXT = 300  # characters: a link with a code is a tenth of that
QUIET_ZONE = 4  # modules of white around it, as the standard asks


@lru_cache(maxsize=512)
def svg(text: str) -> str:
    """An ``<svg>`` element of the code (no XML declaration: it goes inline in a page as
    it is, or alone as an ``image/svg+xml`` file)."""
    if not text or len(text) > MAX_TEXT:
        raise ValueError(f"a QR code's text has 1 to {MAX_TEXT} characters")
    drawn = segno.make(text, micro=False).svg_inline(
        border=QUIET_ZONE, dark="#000", light="#fff", omitsize=True, svgclass=None,
        lineclass=None,
    )  # fmt: skip
    return drawn.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" '
                         'shape-rendering="crispEdges" ', 1)  # fmt: skip
