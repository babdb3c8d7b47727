from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.image_detail_format import ImageDetailFormat

T = TypeVar("T", bound="ImageDetail")


@_attrs_define
class ImageDetail:
    """
    Attributes:
        id (str):
        title (str):
        subtitle (None | str): null when the image has none.
        url (str):
        thumbnail_url (str):
        width (int):
        height (int):
        format_ (ImageDetailFormat):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    title: str
    subtitle: None | str
    url: str
    thumbnail_url: str
    width: int
    height: int
    format_: ImageDetailFormat
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        subtitle: None | str
        subtitle = self.subtitle

        url = self.url

        thumbnail_url = self.thumbnail_url

        width = self.width

        height = self.height

        format_ = self.format_.value

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "subtitle": subtitle,
                "url": url,
                "thumbnailUrl": thumbnail_url,
                "width": width,
                "height": height,
                "format": format_,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        def _parse_subtitle(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subtitle = _parse_subtitle(d.pop("subtitle"))

        url = d.pop("url")

        thumbnail_url = d.pop("thumbnailUrl")

        width = d.pop("width")

        height = d.pop("height")

        format_ = ImageDetailFormat(d.pop("format"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        image_detail = cls(
            id=id,
            title=title,
            subtitle=subtitle,
            url=url,
            thumbnail_url=thumbnail_url,
            width=width,
            height=height,
            format_=format_,
            created_at=created_at,
        )

        return image_detail
