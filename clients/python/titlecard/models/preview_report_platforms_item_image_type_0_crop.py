from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PreviewReportPlatformsItemImageType0Crop")


@_attrs_define
class PreviewReportPlatformsItemImageType0Crop:
    """The part of the image the platform shows at its aspect, px of the image.

    Attributes:
        x (int):
        y (int):
        width (int):
        height (int):
    """

    x: int
    y: int
    width: int
    height: int

    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        width = self.width

        height = self.height

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "x": x,
                "y": y,
                "width": width,
                "height": height,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        x = d.pop("x")

        y = d.pop("y")

        width = d.pop("width")

        height = d.pop("height")

        preview_report_platforms_item_image_type_0_crop = cls(
            x=x,
            y=y,
            width=width,
            height=height,
        )

        return preview_report_platforms_item_image_type_0_crop
