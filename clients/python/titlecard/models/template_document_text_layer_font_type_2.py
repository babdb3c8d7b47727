from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TemplateDocumentTextLayerFontType2")


@_attrs_define
class TemplateDocumentTextLayerFontType2:
    """
    Attributes:
        custom (str):
    """

    custom: str

    def to_dict(self) -> dict[str, Any]:
        custom = self.custom

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "custom": custom,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        custom = d.pop("custom")

        template_document_text_layer_font_type_2 = cls(
            custom=custom,
        )

        return template_document_text_layer_font_type_2
