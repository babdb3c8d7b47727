from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TemplateDocumentSize")


@_attrs_define
class TemplateDocumentSize:
    """A canvas of its own instead of aspect, px: each side 200 to 2400, at most 4 megapixels. Used when the request names
    no aspect; its safe zone keeps 5% margins.

        Attributes:
            width (int):
            height (int):
    """

    width: int
    height: int

    def to_dict(self) -> dict[str, Any]:
        width = self.width

        height = self.height

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "width": width,
                "height": height,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        width = d.pop("width")

        height = d.pop("height")

        template_document_size = cls(
            width=width,
            height=height,
        )

        return template_document_size
