from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TemplateDocumentTextLayerBox")


@_attrs_define
class TemplateDocumentTextLayerBox:
    """A rectangle in fractions of the canvas: {x, y, w, h}, each 0 to 1, within the canvas.

    Attributes:
        x (float): Left edge, fraction of the canvas width.
        y (float): Top edge, fraction of the canvas height.
        w (float): Width, fraction of the canvas width.
        h (float): Height, fraction of the canvas height.
    """

    x: float
    y: float
    w: float
    h: float

    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        w = self.w

        h = self.h

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "x": x,
                "y": y,
                "w": w,
                "h": h,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        x = d.pop("x")

        y = d.pop("y")

        w = d.pop("w")

        h = d.pop("h")

        template_document_text_layer_box = cls(
            x=x,
            y=y,
            w=w,
            h=h,
        )

        return template_document_text_layer_box
