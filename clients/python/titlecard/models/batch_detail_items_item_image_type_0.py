from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BatchDetailItemsItemImageType0")


@_attrs_define
class BatchDetailItemsItemImageType0:
    """
    Attributes:
        id (str):
        url (str):
        thumbnail_url (str):
        width (float):
        height (float):
    """

    id: str
    url: str
    thumbnail_url: str
    width: float
    height: float

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        thumbnail_url = self.thumbnail_url

        width = self.width

        height = self.height

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "thumbnailUrl": thumbnail_url,
                "width": width,
                "height": height,
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

        batch_detail_items_item_image_type_0 = cls(
            id=id,
            url=url,
            thumbnail_url=thumbnail_url,
            width=width,
            height=height,
        )

        return batch_detail_items_item_image_type_0
