from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_document_rect_layer_box import TemplateDocumentRectLayerBox


T = TypeVar("T", bound="TemplateDocumentRectLayer")


@_attrs_define
class TemplateDocumentRectLayer:
    """
    Attributes:
        type_ (Literal['rect']):
        box (TemplateDocumentRectLayerBox): A rectangle in fractions of the canvas: {x, y, w, h}, each 0 to 1, within
            the canvas.
        fill (Literal['auto'] | str | Unset): A hex colour, or auto: the photo's dominant colour, shaded for text.
            Default: '#000000'.
        radius (float | Unset): Corner radius, fraction of the shorter side (0.5: a circle or pill). Default: 0.0.
        opacity (float | Unset): Opacity, 0 to 1. Default: 1.0.
    """

    type_: Literal["rect"]
    box: TemplateDocumentRectLayerBox
    fill: Literal["auto"] | str | Unset = "#000000"
    radius: float | Unset = 0.0
    opacity: float | Unset = 1.0

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        box = self.box.to_dict()

        fill: Literal["auto"] | str | Unset
        if isinstance(self.fill, Unset):
            fill = UNSET
        else:
            fill = self.fill

        radius = self.radius

        opacity = self.opacity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "box": box,
            }
        )
        if fill is not UNSET:
            field_dict["fill"] = fill
        if radius is not UNSET:
            field_dict["radius"] = radius
        if opacity is not UNSET:
            field_dict["opacity"] = opacity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_rect_layer_box import (
            TemplateDocumentRectLayerBox,
        )

        d = dict(src_dict)
        type_ = cast(Literal["rect"], d.pop("type"))
        if type_ != "rect":
            raise ValueError(f"type must match const 'rect', got '{type_}'")

        box = TemplateDocumentRectLayerBox.from_dict(d.pop("box"))

        def _parse_fill(data: object) -> Literal["auto"] | str | Unset:
            if isinstance(data, Unset):
                return data
            fill_type_0 = cast(Literal["auto"], data)
            if fill_type_0 != "auto":
                raise ValueError(
                    f"fill_type_0 must match const 'auto', got '{fill_type_0}'"
                )
            return fill_type_0
            return cast(Literal["auto"] | str | Unset, data)

        fill = _parse_fill(d.pop("fill", UNSET))

        radius = d.pop("radius", UNSET)

        opacity = d.pop("opacity", UNSET)

        template_document_rect_layer = cls(
            type_=type_,
            box=box,
            fill=fill,
            radius=radius,
            opacity=opacity,
        )

        return template_document_rect_layer
