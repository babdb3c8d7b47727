from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.preview_report_problems_item_code import PreviewReportProblemsItemCode
from ..models.preview_report_problems_item_platforms_item import (
    PreviewReportProblemsItemPlatformsItem,
)
from ..models.preview_report_problems_item_severity import (
    PreviewReportProblemsItemSeverity,
)

T = TypeVar("T", bound="PreviewReportProblemsItem")


@_attrs_define
class PreviewReportProblemsItem:
    """
    Attributes:
        code (PreviewReportProblemsItemCode): Stable code (docs/previews.md#problems).
        severity (PreviewReportProblemsItemSeverity):
        message (str): What is wrong and how to fix it.
        platforms (list[PreviewReportProblemsItemPlatformsItem]): The platforms it concerns.
    """

    code: PreviewReportProblemsItemCode
    severity: PreviewReportProblemsItemSeverity
    message: str
    platforms: list[PreviewReportProblemsItemPlatformsItem]

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        severity = self.severity.value

        message = self.message

        platforms = []
        for platforms_item_data in self.platforms:
            platforms_item = platforms_item_data.value
            platforms.append(platforms_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "severity": severity,
                "message": message,
                "platforms": platforms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = PreviewReportProblemsItemCode(d.pop("code"))

        severity = PreviewReportProblemsItemSeverity(d.pop("severity"))

        message = d.pop("message")

        platforms = []
        _platforms = d.pop("platforms")
        for platforms_item_data in _platforms:
            platforms_item = PreviewReportProblemsItemPlatformsItem(platforms_item_data)

            platforms.append(platforms_item)

        preview_report_problems_item = cls(
            code=code,
            severity=severity,
            message=message,
            platforms=platforms,
        )

        return preview_report_problems_item
