from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TemplateDocumentTextLayerAnchor")


@_attrs_define
class TemplateDocumentTextLayerAnchor:
    """Centre the text on this point of the canvas, moved inside its box where needed.

    Attributes:
        x (float):
        y (float):
    """

    x: float
    y: float

    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        x = d.pop("x")

        y = d.pop("y")

        template_document_text_layer_anchor = cls(
            x=x,
            y=y,
        )

        return template_document_text_layer_anchor
