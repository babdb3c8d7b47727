from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LayoutReportLayersItem")


@_attrs_define
class LayoutReportLayersItem:
    """
    Attributes:
        layer (int): Index of the layer in the template's layers.
        font_size (int): Size of its first paragraph, px.
        lines (list[str]): Its text as set, one string a line (a `below` paragraph after).
        truncated (bool): True when its text was cut with an ellipsis to fit its box.
        fallback_fonts (list[str]): Fonts other than its own that drew some glyph.
        missing_characters (list[str]): Characters no bundled font covers.
        contrast (float | None): WCAG 2 contrast ratio reached behind it (10th percentile); null from POST /layout,
            which has no photo.
    """

    layer: int
    font_size: int
    lines: list[str]
    truncated: bool
    fallback_fonts: list[str]
    missing_characters: list[str]
    contrast: float | None

    def to_dict(self) -> dict[str, Any]:
        layer = self.layer

        font_size = self.font_size

        lines = self.lines

        truncated = self.truncated

        fallback_fonts = self.fallback_fonts

        missing_characters = self.missing_characters

        contrast: float | None
        contrast = self.contrast

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "layer": layer,
                "fontSize": font_size,
                "lines": lines,
                "truncated": truncated,
                "fallbackFonts": fallback_fonts,
                "missingCharacters": missing_characters,
                "contrast": contrast,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        layer = d.pop("layer")

        font_size = d.pop("fontSize")

        lines = cast(list[str], d.pop("lines"))

        truncated = d.pop("truncated")

        fallback_fonts = cast(list[str], d.pop("fallbackFonts"))

        missing_characters = cast(list[str], d.pop("missingCharacters"))

        def _parse_contrast(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        contrast = _parse_contrast(d.pop("contrast"))

        layout_report_layers_item = cls(
            layer=layer,
            font_size=font_size,
            lines=lines,
            truncated=truncated,
            fallback_fonts=fallback_fonts,
            missing_characters=missing_characters,
            contrast=contrast,
        )

        return layout_report_layers_item
