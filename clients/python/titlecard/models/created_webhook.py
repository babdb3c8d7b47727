from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreatedWebhook")


@_attrs_define
class CreatedWebhook:
    """
    Attributes:
        id (str):
        url (str):
        created_at (str):
        secret (str): whsec_ and base64: the signing secret, shown only here.
    """

    id: str
    url: str
    created_at: str
    secret: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        created_at = self.created_at

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "createdAt": created_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        created_at = d.pop("createdAt")

        secret = d.pop("secret")

        created_webhook = cls(
            id=id,
            url=url,
            created_at=created_at,
            secret=secret,
        )

        return created_webhook
