"""Verifying Titlecard's webhooks (docs/webhooks.md), hand-written beside the generated client.

Titlecard signs every delivery per the Standard Webhooks specification: the headers
``webhook-id``, ``webhook-timestamp`` and ``webhook-signature``, an HMAC-SHA256 under the
endpoint's ``whsec_…`` secret. This wraps the ``standardwebhooks`` package, which also refuses a
timestamp more than five minutes from now (a replayed delivery).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

__all__ = ("WebhookVerificationError", "verify_webhook")


def verify_webhook(payload: bytes | str, headers: Mapping[str, str], secret: str) -> dict[str, Any]:
    """Verify a delivery and return its event, ``{"type", "timestamp", "data"}``.

    ``payload`` is the request body exactly as received (bytes or text, not parsed JSON);
    ``headers`` the request's headers (any case); ``secret`` the endpoint's ``whsec_…`` (or, for a
    batch's ``webhookUrl``, the ``webhookSecret`` of its ``POST /batches`` answer). Raises
    ``WebhookVerificationError`` when a header is missing, the signature does not match, or the
    timestamp is more than five minutes off.
    """
    event = Webhook(secret).verify(payload, dict(headers))
    if not isinstance(event, dict):
        raise WebhookVerificationError("Expected a JSON object")
    return event
