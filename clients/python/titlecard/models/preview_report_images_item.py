from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PreviewReportImagesItem")


@_attrs_define
class PreviewReportImagesItem:
    """
    Attributes:
        url (str):
        status (int | None):
        content_type (None | str):
        format_ (None | str): What its bytes are (jpeg, png, webp, gif…); null when not an image.
        width (int | None):
        height (int | None):
        bytes_ (int | None):
        ms (int):
        error (None | str):
    """

    url: str
    status: int | None
    content_type: None | str
    format_: None | str
    width: int | None
    height: int | None
    bytes_: int | None
    ms: int
    error: None | str

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        status: int | None
        status = self.status

        content_type: None | str
        content_type = self.content_type

        format_: None | str
        format_ = self.format_

        width: int | None
        width = self.width

        height: int | None
        height = self.height

        bytes_: int | None
        bytes_ = self.bytes_

        ms = self.ms

        error: None | str
        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "status": status,
                "contentType": content_type,
                "format": format_,
                "width": width,
                "height": height,
                "bytes": bytes_,
                "ms": ms,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status = _parse_status(d.pop("status"))

        def _parse_content_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content_type = _parse_content_type(d.pop("contentType"))

        def _parse_format_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        format_ = _parse_format_(d.pop("format"))

        def _parse_width(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        width = _parse_width(d.pop("width"))

        def _parse_height(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        height = _parse_height(d.pop("height"))

        def _parse_bytes_(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        bytes_ = _parse_bytes_(d.pop("bytes"))

        ms = d.pop("ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        preview_report_images_item = cls(
            url=url,
            status=status,
            content_type=content_type,
            format_=format_,
            width=width,
            height=height,
            bytes_=bytes_,
            ms=ms,
            error=error,
        )

        return preview_report_images_item
