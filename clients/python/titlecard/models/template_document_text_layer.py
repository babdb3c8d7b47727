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

from ..models.template_document_text_layer_align import TemplateDocumentTextLayerAlign
from ..models.template_document_text_layer_font_type_0 import (
    TemplateDocumentTextLayerFontType0,
)
from ..models.template_document_text_layer_vertical_align import (
    TemplateDocumentTextLayerVerticalAlign,
)
from ..models.template_document_text_layer_weight import TemplateDocumentTextLayerWeight
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_document_text_layer_anchor import (
        TemplateDocumentTextLayerAnchor,
    )
    from ..models.template_document_text_layer_below import (
        TemplateDocumentTextLayerBelow,
    )
    from ..models.template_document_text_layer_box import TemplateDocumentTextLayerBox
    from ..models.template_document_text_layer_font_size_type_1 import (
        TemplateDocumentTextLayerFontSizeType1,
    )
    from ..models.template_document_text_layer_font_type_1 import (
        TemplateDocumentTextLayerFontType1,
    )
    from ..models.template_document_text_layer_font_type_2 import (
        TemplateDocumentTextLayerFontType2,
    )


T = TypeVar("T", bound="TemplateDocumentTextLayer")


@_attrs_define
class TemplateDocumentTextLayer:
    """
    Attributes:
        type_ (Literal['text']):
        content (str): Text with {{variables}}.
        box (TemplateDocumentTextLayerBox): A rectangle in fractions of the canvas: {x, y, w, h}, each 0 to 1, within
            the canvas.
        safe_zone (bool | Unset): Clip the box to the safe zone of the aspect (docs/api.md#generate-options: 5% margins,
            and the bottom 28% of og kept clear). Default: False.
        font (TemplateDocumentTextLayerFontType0 | TemplateDocumentTextLayerFontType1 |
            TemplateDocumentTextLayerFontType2 | Unset): As `font` in /generate; the request's font when unset.
        weight (TemplateDocumentTextLayerWeight | Unset):  Default: TemplateDocumentTextLayerWeight.BOLD.
        font_size (int | TemplateDocumentTextLayerFontSizeType1 | Unset): Size in px: a number, or {min, max} for the
            largest size in that range at which the text fits its box.
        max_lines (int | Unset): Most lines before the size goes down. Default: 4.
        line_height (float | Unset): Multiple of the size. Default: 1.15.
        align (TemplateDocumentTextLayerAlign | Unset): start and end are mirrored for right-to-left text; left and
            right are not. Default: TemplateDocumentTextLayerAlign.START.
        vertical_align (TemplateDocumentTextLayerVerticalAlign | Unset):  Default:
            TemplateDocumentTextLayerVerticalAlign.TOP.
        color (Literal['auto'] | str | Unset): A hex colour, or auto: chosen on the pixels beneath (WCAG 2 contrast
            ratio ≥ 4.5:1). Default: 'auto'.
        shadow (bool | Unset): A soft shadow; the request's textShadow when unset.
        below (TemplateDocumentTextLayerBelow | Unset): A second paragraph set below the first in the same box (the
            built-ins' subtitle).
        group (str | Unset): Text layers of one group share one size: the largest at which all of them fit.
        scale (float | Unset): In a group: size as a fraction of the group's size. Default: 1.0.
        min_size (int | Unset): In a group: smallest size, px.
        anchor (TemplateDocumentTextLayerAnchor | Unset): Centre the text on this point of the canvas, moved inside its
            box where needed.
    """

    type_: Literal["text"]
    content: str
    box: TemplateDocumentTextLayerBox
    safe_zone: bool | Unset = False
    font: (
        TemplateDocumentTextLayerFontType0
        | TemplateDocumentTextLayerFontType1
        | TemplateDocumentTextLayerFontType2
        | Unset
    ) = UNSET
    weight: TemplateDocumentTextLayerWeight | Unset = (
        TemplateDocumentTextLayerWeight.BOLD
    )
    font_size: int | TemplateDocumentTextLayerFontSizeType1 | Unset = UNSET
    max_lines: int | Unset = 4
    line_height: float | Unset = 1.15
    align: TemplateDocumentTextLayerAlign | Unset = TemplateDocumentTextLayerAlign.START
    vertical_align: TemplateDocumentTextLayerVerticalAlign | Unset = (
        TemplateDocumentTextLayerVerticalAlign.TOP
    )
    color: Literal["auto"] | str | Unset = "auto"
    shadow: bool | Unset = UNSET
    below: TemplateDocumentTextLayerBelow | Unset = UNSET
    group: str | Unset = UNSET
    scale: float | Unset = 1.0
    min_size: int | Unset = UNSET
    anchor: TemplateDocumentTextLayerAnchor | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_document_text_layer_font_size_type_1 import (
            TemplateDocumentTextLayerFontSizeType1,
        )
        from ..models.template_document_text_layer_font_type_1 import (
            TemplateDocumentTextLayerFontType1,
        )

        type_ = self.type_

        content = self.content

        box = self.box.to_dict()

        safe_zone = self.safe_zone

        font: dict[str, Any] | str | Unset
        if isinstance(self.font, Unset):
            font = UNSET
        elif isinstance(self.font, TemplateDocumentTextLayerFontType0):
            font = self.font.value
        elif isinstance(self.font, TemplateDocumentTextLayerFontType1):
            font = self.font.to_dict()
        else:
            font = self.font.to_dict()

        weight: str | Unset = UNSET
        if not isinstance(self.weight, Unset):
            weight = self.weight.value

        font_size: dict[str, Any] | int | Unset
        if isinstance(self.font_size, Unset):
            font_size = UNSET
        elif isinstance(self.font_size, TemplateDocumentTextLayerFontSizeType1):
            font_size = self.font_size.to_dict()
        else:
            font_size = self.font_size

        max_lines = self.max_lines

        line_height = self.line_height

        align: str | Unset = UNSET
        if not isinstance(self.align, Unset):
            align = self.align.value

        vertical_align: str | Unset = UNSET
        if not isinstance(self.vertical_align, Unset):
            vertical_align = self.vertical_align.value

        color: Literal["auto"] | str | Unset
        if isinstance(self.color, Unset):
            color = UNSET
        else:
            color = self.color

        shadow = self.shadow

        below: dict[str, Any] | Unset = UNSET
        if not isinstance(self.below, Unset):
            below = self.below.to_dict()

        group = self.group

        scale = self.scale

        min_size = self.min_size

        anchor: dict[str, Any] | Unset = UNSET
        if not isinstance(self.anchor, Unset):
            anchor = self.anchor.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "content": content,
                "box": box,
            }
        )
        if safe_zone is not UNSET:
            field_dict["safeZone"] = safe_zone
        if font is not UNSET:
            field_dict["font"] = font
        if weight is not UNSET:
            field_dict["weight"] = weight
        if font_size is not UNSET:
            field_dict["fontSize"] = font_size
        if max_lines is not UNSET:
            field_dict["maxLines"] = max_lines
        if line_height is not UNSET:
            field_dict["lineHeight"] = line_height
        if align is not UNSET:
            field_dict["align"] = align
        if vertical_align is not UNSET:
            field_dict["verticalAlign"] = vertical_align
        if color is not UNSET:
            field_dict["color"] = color
        if shadow is not UNSET:
            field_dict["shadow"] = shadow
        if below is not UNSET:
            field_dict["below"] = below
        if group is not UNSET:
            field_dict["group"] = group
        if scale is not UNSET:
            field_dict["scale"] = scale
        if min_size is not UNSET:
            field_dict["minSize"] = min_size
        if anchor is not UNSET:
            field_dict["anchor"] = anchor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_text_layer_anchor import (
            TemplateDocumentTextLayerAnchor,
        )
        from ..models.template_document_text_layer_below import (
            TemplateDocumentTextLayerBelow,
        )
        from ..models.template_document_text_layer_box import (
            TemplateDocumentTextLayerBox,
        )
        from ..models.template_document_text_layer_font_size_type_1 import (
            TemplateDocumentTextLayerFontSizeType1,
        )
        from ..models.template_document_text_layer_font_type_1 import (
            TemplateDocumentTextLayerFontType1,
        )
        from ..models.template_document_text_layer_font_type_2 import (
            TemplateDocumentTextLayerFontType2,
        )

        d = dict(src_dict)
        type_ = cast(Literal["text"], d.pop("type"))
        if type_ != "text":
            raise ValueError(f"type must match const 'text', got '{type_}'")

        content = d.pop("content")

        box = TemplateDocumentTextLayerBox.from_dict(d.pop("box"))

        safe_zone = d.pop("safeZone", UNSET)

        def _parse_font(
            data: object,
        ) -> (
            TemplateDocumentTextLayerFontType0
            | TemplateDocumentTextLayerFontType1
            | TemplateDocumentTextLayerFontType2
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                font_type_0 = TemplateDocumentTextLayerFontType0(data)

                return font_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                font_type_1 = TemplateDocumentTextLayerFontType1.from_dict(data)

                return font_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            font_type_2 = TemplateDocumentTextLayerFontType2.from_dict(data)

            return font_type_2

        font = _parse_font(d.pop("font", UNSET))

        _weight = d.pop("weight", UNSET)
        weight: TemplateDocumentTextLayerWeight | Unset
        if isinstance(_weight, Unset):
            weight = UNSET
        else:
            weight = TemplateDocumentTextLayerWeight(_weight)

        def _parse_font_size(
            data: object,
        ) -> int | TemplateDocumentTextLayerFontSizeType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                font_size_type_1 = TemplateDocumentTextLayerFontSizeType1.from_dict(
                    data
                )

                return font_size_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | TemplateDocumentTextLayerFontSizeType1 | Unset, data)

        font_size = _parse_font_size(d.pop("fontSize", UNSET))

        max_lines = d.pop("maxLines", UNSET)

        line_height = d.pop("lineHeight", UNSET)

        _align = d.pop("align", UNSET)
        align: TemplateDocumentTextLayerAlign | Unset
        if isinstance(_align, Unset):
            align = UNSET
        else:
            align = TemplateDocumentTextLayerAlign(_align)

        _vertical_align = d.pop("verticalAlign", UNSET)
        vertical_align: TemplateDocumentTextLayerVerticalAlign | Unset
        if isinstance(_vertical_align, Unset):
            vertical_align = UNSET
        else:
            vertical_align = TemplateDocumentTextLayerVerticalAlign(_vertical_align)

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

        shadow = d.pop("shadow", UNSET)

        _below = d.pop("below", UNSET)
        below: TemplateDocumentTextLayerBelow | Unset
        if isinstance(_below, Unset):
            below = UNSET
        else:
            below = TemplateDocumentTextLayerBelow.from_dict(_below)

        group = d.pop("group", UNSET)

        scale = d.pop("scale", UNSET)

        min_size = d.pop("minSize", UNSET)

        _anchor = d.pop("anchor", UNSET)
        anchor: TemplateDocumentTextLayerAnchor | Unset
        if isinstance(_anchor, Unset):
            anchor = UNSET
        else:
            anchor = TemplateDocumentTextLayerAnchor.from_dict(_anchor)

        template_document_text_layer = cls(
            type_=type_,
            content=content,
            box=box,
            safe_zone=safe_zone,
            font=font,
            weight=weight,
            font_size=font_size,
            max_lines=max_lines,
            line_height=line_height,
            align=align,
            vertical_align=vertical_align,
            color=color,
            shadow=shadow,
            below=below,
            group=group,
            scale=scale,
            min_size=min_size,
            anchor=anchor,
        )

        return template_document_text_layer
