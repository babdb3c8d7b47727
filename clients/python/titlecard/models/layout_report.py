from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.layout_report_template_type_0_type_0 import LayoutReportTemplateType0Type0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.layout_report_layers_item import LayoutReportLayersItem
    from ..models.layout_report_lines import LayoutReportLines


T = TypeVar("T", bound="LayoutReport")


@_attrs_define
class LayoutReport:
    """
    Attributes:
        template (LayoutReportTemplateType0Type0 | None | str): The template laid out: a built-in (the one chosen for
            auto) or a template id; null when a position was used.
        font_size (int): Title size, px.
        subtitle_font_size (int | None): Subtitle size, px; null without a subtitle.
        lines (LayoutReportLines):
        line_count (int): Lines of title and subtitle together.
        truncated (bool): True when text was cut with an ellipsis to fit.
        fallback_fonts (list[str]): Fonts other than the chosen one that drew some glyph (another script, emoji), e.g.
            "Noto Sans JP".
        missing_characters (list[str]): Characters no bundled font covers: drawn as an empty box.
        layers (list[LayoutReportLayersItem] | Unset): With a template id: each text layer's report, in layer order. The
            fields above then describe the layer that sets {{title}}.
    """

    template: LayoutReportTemplateType0Type0 | None | str
    font_size: int
    subtitle_font_size: int | None
    lines: LayoutReportLines
    line_count: int
    truncated: bool
    fallback_fonts: list[str]
    missing_characters: list[str]
    layers: list[LayoutReportLayersItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        template: None | str
        if isinstance(self.template, LayoutReportTemplateType0Type0):
            template = self.template.value
        else:
            template = self.template

        font_size = self.font_size

        subtitle_font_size: int | None
        subtitle_font_size = self.subtitle_font_size

        lines = self.lines.to_dict()

        line_count = self.line_count

        truncated = self.truncated

        fallback_fonts = self.fallback_fonts

        missing_characters = self.missing_characters

        layers: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.layers, Unset):
            layers = []
            for layers_item_data in self.layers:
                layers_item = layers_item_data.to_dict()
                layers.append(layers_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "template": template,
                "fontSize": font_size,
                "subtitleFontSize": subtitle_font_size,
                "lines": lines,
                "lineCount": line_count,
                "truncated": truncated,
                "fallbackFonts": fallback_fonts,
                "missingCharacters": missing_characters,
            }
        )
        if layers is not UNSET:
            field_dict["layers"] = layers

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.layout_report_layers_item import LayoutReportLayersItem
        from ..models.layout_report_lines import LayoutReportLines

        d = dict(src_dict)

        def _parse_template(
            data: object,
        ) -> LayoutReportTemplateType0Type0 | None | str:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                template_type_0_type_0 = LayoutReportTemplateType0Type0(data)

                return template_type_0_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LayoutReportTemplateType0Type0 | None | str, data)

        template = _parse_template(d.pop("template"))

        font_size = d.pop("fontSize")

        def _parse_subtitle_font_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        subtitle_font_size = _parse_subtitle_font_size(d.pop("subtitleFontSize"))

        lines = LayoutReportLines.from_dict(d.pop("lines"))

        line_count = d.pop("lineCount")

        truncated = d.pop("truncated")

        fallback_fonts = cast(list[str], d.pop("fallbackFonts"))

        missing_characters = cast(list[str], d.pop("missingCharacters"))

        _layers = d.pop("layers", UNSET)
        layers: list[LayoutReportLayersItem] | Unset = UNSET
        if _layers is not UNSET:
            layers = []
            for layers_item_data in _layers:
                layers_item = LayoutReportLayersItem.from_dict(layers_item_data)

                layers.append(layers_item)

        layout_report = cls(
            template=template,
            font_size=font_size,
            subtitle_font_size=subtitle_font_size,
            lines=lines,
            line_count=line_count,
            truncated=truncated,
            fallback_fonts=fallback_fonts,
            missing_characters=missing_characters,
            layers=layers,
        )

        return layout_report
