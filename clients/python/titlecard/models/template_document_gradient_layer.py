from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.template_document_gradient_layer_direction import (
    TemplateDocumentGradientLayerDirection,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateDocumentGradientLayer")


@_attrs_define
class TemplateDocumentGradientLayer:
    """
    Attributes:
        type_ (Literal['gradient']):
        direction (TemplateDocumentGradientLayerDirection | Unset): to-top: from the bottom edge up past the text above
            it; to-bottom, to-left, to-right likewise; to-center: from both sides in (split); radial: a glow behind the
            text. Default: TemplateDocumentGradientLayerDirection.TO_TOP.
        color (Literal['auto'] | str | Unset): A hex colour, or auto: the photo's dominant colour shaded, at the weakest
            strength that gives the text above it 4.5:1. Default: 'auto'.
        opacity (float | Unset): Opacity, 0 to 1. Default: 1.0.
    """

    type_: Literal["gradient"]
    direction: TemplateDocumentGradientLayerDirection | Unset = (
        TemplateDocumentGradientLayerDirection.TO_TOP
    )
    color: Literal["auto"] | str | Unset = "auto"
    opacity: float | Unset = 1.0

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        color: Literal["auto"] | str | Unset
        if isinstance(self.color, Unset):
            color = UNSET
        else:
            color = self.color

        opacity = self.opacity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if direction is not UNSET:
            field_dict["direction"] = direction
        if color is not UNSET:
            field_dict["color"] = color
        if opacity is not UNSET:
            field_dict["opacity"] = opacity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["gradient"], d.pop("type"))
        if type_ != "gradient":
            raise ValueError(f"type must match const 'gradient', got '{type_}'")

        _direction = d.pop("direction", UNSET)
        direction: TemplateDocumentGradientLayerDirection | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = TemplateDocumentGradientLayerDirection(_direction)

        def _parse_color(data: object) -> Literal["auto"] | str | Unset:
            if isinstance(data, Unset):
                return data
            color_type_0 = cast(Literal["auto"], data)
            if color_type_0 != "auto":
                raise ValueError(
                    f"color_type_0 must match const 'auto', got '{color_type_0}'"
                )
            return color_type_0
            return cast(Literal["auto"] | str | Unset, data)

        color = _parse_color(d.pop("color", UNSET))

        opacity = d.pop("opacity", UNSET)

        template_document_gradient_layer = cls(
            type_=type_,
            direction=direction,
            color=color,
            opacity=opacity,
        )

        return template_document_gradient_layer
