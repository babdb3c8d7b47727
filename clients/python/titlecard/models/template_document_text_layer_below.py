from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.template_document_text_layer_below_weight import (
    TemplateDocumentTextLayerBelowWeight,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateDocumentTextLayerBelow")


@_attrs_define
class TemplateDocumentTextLayerBelow:
    """A second paragraph set below the first in the same box (the built-ins' subtitle).

    Attributes:
        content (str): Text with {{variables}}.
        scale (float | Unset): Size as a fraction of the text above. Default: 0.45.
        min_size (int | Unset): Smallest size, px. Default: 18.
        max_lines (int | Unset):  Default: 3.
        weight (TemplateDocumentTextLayerBelowWeight | Unset):  Default: TemplateDocumentTextLayerBelowWeight.REGULAR.
        line_height (float | Unset): Multiple of the size. Default: 1.3.
        gap (float | Unset): Space above it, multiple of the size of the text above. Default: 0.4.
    """

    content: str
    scale: float | Unset = 0.45
    min_size: int | Unset = 18
    max_lines: int | Unset = 3
    weight: TemplateDocumentTextLayerBelowWeight | Unset = (
        TemplateDocumentTextLayerBelowWeight.REGULAR
    )
    line_height: float | Unset = 1.3
    gap: float | Unset = 0.4

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        scale = self.scale

        min_size = self.min_size

        max_lines = self.max_lines

        weight: str | Unset = UNSET
        if not isinstance(self.weight, Unset):
            weight = self.weight.value

        line_height = self.line_height

        gap = self.gap

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content": content,
            }
        )
        if scale is not UNSET:
            field_dict["scale"] = scale
        if min_size is not UNSET:
            field_dict["minSize"] = min_size
        if max_lines is not UNSET:
            field_dict["maxLines"] = max_lines
        if weight is not UNSET:
            field_dict["weight"] = weight
        if line_height is not UNSET:
            field_dict["lineHeight"] = line_height
        if gap is not UNSET:
            field_dict["gap"] = gap

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        content = d.pop("content")

        scale = d.pop("scale", UNSET)

        min_size = d.pop("minSize", UNSET)

        max_lines = d.pop("maxLines", UNSET)

        _weight = d.pop("weight", UNSET)
        weight: TemplateDocumentTextLayerBelowWeight | Unset
        if isinstance(_weight, Unset):
            weight = UNSET
        else:
            weight = TemplateDocumentTextLayerBelowWeight(_weight)

        line_height = d.pop("lineHeight", UNSET)

        gap = d.pop("gap", UNSET)

        template_document_text_layer_below = cls(
            content=content,
            scale=scale,
            min_size=min_size,
            max_lines=max_lines,
            weight=weight,
            line_height=line_height,
            gap=gap,
        )

        return template_document_text_layer_below
