"""Signed render links, built without calling the server (docs/render-links.md).

The one hand-written module of the package; scripts/python-client.sh generates the rest. The
canonical form is the server's (src/domain/render-links/canonical.ts):

- query: the parameters (title, subtitle?, image?, exp?, key, and f.<name> for each field of a
  template's variables) sorted by name, each name=value with
  RFC 3986 percent-encoding of its UTF-8 bytes (only A-Z a-z 0-9 - . _ ~ left as they are), joined by &;
- canonical: ``/r/<preset>.<ext>?<query>``;
- signature: base64url without padding of HMAC-SHA256(secret, canonical) (RFC 2104, RFC 4648 section 5).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime
from typing import Literal
from urllib.parse import quote

__all__ = ["sign_render_url"]

_EXTENSIONS = {"png": "png", "jpeg": "jpg", "webp": "webp"}


def sign_render_url(
    base_url: str,
    preset: str,
    title: str,
    key_id: str,
    secret: str,
    subtitle: str | None = None,
    image: str | None = None,
    fmt: Literal["png", "jpeg", "webp"] = "png",
    expires: datetime | float | None = None,
    fields: dict[str, str] | None = None,
) -> str:
    """A signed render link: ``<base_url>/r/<preset>.<ext>?<query>&sig=<signature>``.

    Args:
        base_url: PUBLIC_URL of the Titlecard server, e.g. ``https://cards.example.com`` (trailing
            slashes are dropped).
        preset: the preset id, ``pre_`` and 22 base62 characters.
        title: the card's title.
        key_id: the signing key's id, ``key_…``.
        secret: the signing key's secret, ``tcs_…``.
        subtitle: the card's subtitle, if any.
        image: an asset id (``ast_…``) or an https URL of the background; default the preset's.
        fmt: the output format, ``png`` (default), ``jpeg`` or ``webp``.
        expires: when the link expires, a datetime or Unix seconds; None: never (until its key is
            revoked).
        fields: values of the variables of the preset's template (``tpl_…``), each sent as
            ``f.<name>``; none by default.

    Raises:
        KeyError: for a ``fmt`` other than png, jpeg and webp. Nothing else: the server judges the
            link when it is fetched.
    """
    ext = _EXTENSIONS[fmt]
    exp: str | None = None
    if expires is not None:
        exp = str(
            int(expires.timestamp() if isinstance(expires, datetime) else expires)
        )
    params = {
        "title": title,
        "subtitle": subtitle,
        "image": image,
        "exp": exp,
        "key": key_id,
        **{f"f.{name}": value for name, value in (fields or {}).items()},
    }
    query = "&".join(
        f"{quote(name, safe='')}={quote(value, safe='')}"
        for name, value in sorted(params.items())
        if value is not None
    )
    canonical = f"/r/{preset}.{ext}?{query}"
    digest = hmac.new(secret.encode(), canonical.encode(), hashlib.sha256).digest()
    signature = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    return f"{base_url.rstrip('/')}{canonical}&sig={signature}"
