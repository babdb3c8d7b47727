from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TemplateDocumentTextLayerFontSizeType1")


@_attrs_define
class TemplateDocumentTextLayerFontSizeType1:
    """
    Attributes:
        min_ (int):
        max_ (int):
    """

    min_: int
    max_: int

    def to_dict(self) -> dict[str, Any]:
        min_ = self.min_

        max_ = self.max_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "min": min_,
                "max": max_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        min_ = d.pop("min")

        max_ = d.pop("max")

        template_document_text_layer_font_size_type_1 = cls(
            min_=min_,
            max_=max_,
        )

        return template_document_text_layer_font_size_type_1
