from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.template_document_text_layer_font_type_1_system import (
    TemplateDocumentTextLayerFontType1System,
)

T = TypeVar("T", bound="TemplateDocumentTextLayerFontType1")


@_attrs_define
class TemplateDocumentTextLayerFontType1:
    """
    Attributes:
        system (TemplateDocumentTextLayerFontType1System):
    """

    system: TemplateDocumentTextLayerFontType1System

    def to_dict(self) -> dict[str, Any]:
        system = self.system.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "system": system,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        system = TemplateDocumentTextLayerFontType1System(d.pop("system"))

        template_document_text_layer_font_type_1 = cls(
            system=system,
        )

        return template_document_text_layer_font_type_1
