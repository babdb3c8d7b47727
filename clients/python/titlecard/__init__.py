"""A client library for accessing Titlecard API"""

from .client import AuthenticatedClient, Client
from .render_links import sign_render_url

__all__ = (
    "AuthenticatedClient",
    "Client",
    "sign_render_url",
)
