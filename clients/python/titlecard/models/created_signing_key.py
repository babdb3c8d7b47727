from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreatedSigningKey")


@_attrs_define
class CreatedSigningKey:
    """
    Attributes:
        id (str):
        name (str):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        secret (str): The HMAC secret, shown once: tcs_ and 43 base62 characters.
    """

    id: str
    name: str
    created_at: datetime.datetime
    secret: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        created_at = self.created_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "createdAt": created_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        secret = d.pop("secret")

        created_signing_key = cls(
            id=id,
            name=name,
            created_at=created_at,
            secret=secret,
        )

        return created_signing_key
