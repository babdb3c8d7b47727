from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreatedToken")


@_attrs_define
class CreatedToken:
    """
    Attributes:
        id (str):
        name (str):
        token (str):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    name: str
    token: str
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        token = self.token

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "token": token,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        token = d.pop("token")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        created_token = cls(
            id=id,
            name=name,
            token=token,
            created_at=created_at,
        )

        return created_token
