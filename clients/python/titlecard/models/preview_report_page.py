from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PreviewReportPage")


@_attrs_define
class PreviewReportPage:
    """
    Attributes:
        status (int): The HTTP status; 0 when there was no answer.
        content_type (None | str):
        bytes_ (int):
        ms (int):
        error (None | str):
    """

    status: int
    content_type: None | str
    bytes_: int
    ms: int
    error: None | str

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        content_type: None | str
        content_type = self.content_type

        bytes_ = self.bytes_

        ms = self.ms

        error: None | str
        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "contentType": content_type,
                "bytes": bytes_,
                "ms": ms,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = d.pop("status")

        def _parse_content_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content_type = _parse_content_type(d.pop("contentType"))

        bytes_ = d.pop("bytes")

        ms = d.pop("ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        preview_report_page = cls(
            status=status,
            content_type=content_type,
            bytes_=bytes_,
            ms=ms,
            error=error,
        )

        return preview_report_page
