"""A client library for accessing Titlecard API"""

from .client import AuthenticatedClient, Client
from .render_links import sign_render_url
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = (
    "AuthenticatedClient",
    "Client",
    "WebhookVerificationError",
    "sign_render_url",
    "verify_webhook",
)
