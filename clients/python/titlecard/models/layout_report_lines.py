from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LayoutReportLines")


@_attrs_define
class LayoutReportLines:
    """
    Attributes:
        title (list[str]): The title as set, one string a line.
        subtitle (list[str]): The subtitle as set; empty without one.
    """

    title: list[str]
    subtitle: list[str]

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        subtitle = self.subtitle

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "subtitle": subtitle,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = cast(list[str], d.pop("title"))

        subtitle = cast(list[str], d.pop("subtitle"))

        layout_report_lines = cls(
            title=title,
            subtitle=subtitle,
        )

        return layout_report_lines
