from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ImagePageImagesItem")


@_attrs_define
class ImagePageImagesItem:
    """
    Attributes:
        id (str):
        title (str):
        url (str):
        thumbnail_url (str):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    title: str
    url: str
    thumbnail_url: str
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        url = self.url

        thumbnail_url = self.thumbnail_url

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "url": url,
                "thumbnailUrl": thumbnail_url,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        url = d.pop("url")

        thumbnail_url = d.pop("thumbnailUrl")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        image_page_images_item = cls(
            id=id,
            title=title,
            url=url,
            thumbnail_url=thumbnail_url,
            created_at=created_at,
        )

        return image_page_images_item
