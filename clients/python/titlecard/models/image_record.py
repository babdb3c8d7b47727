from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ImageRecord")


@_attrs_define
class ImageRecord:
    """
    Attributes:
        id (str):
        url (str):
        thumbnail_url (str):
        width (int):
        height (int):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    url: str
    thumbnail_url: str
    width: int
    height: int
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        thumbnail_url = self.thumbnail_url

        width = self.width

        height = self.height

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "thumbnailUrl": thumbnail_url,
                "width": width,
                "height": height,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        thumbnail_url = d.pop("thumbnailUrl")

        width = d.pop("width")

        height = d.pop("height")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        image_record = cls(
            id=id,
            url=url,
            thumbnail_url=thumbnail_url,
            width=width,
            height=height,
            created_at=created_at,
        )

        return image_record
