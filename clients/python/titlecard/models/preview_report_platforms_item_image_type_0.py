from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.preview_report_platforms_item_image_type_0_crop import (
        PreviewReportPlatformsItemImageType0Crop,
    )


T = TypeVar("T", bound="PreviewReportPlatformsItemImageType0")


@_attrs_define
class PreviewReportPlatformsItemImageType0:
    """
    Attributes:
        url (str):
        width (int):
        height (int):
        crop (PreviewReportPlatformsItemImageType0Crop): The part of the image the platform shows at its aspect, px of
            the image.
    """

    url: str
    width: int
    height: int
    crop: PreviewReportPlatformsItemImageType0Crop

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        width = self.width

        height = self.height

        crop = self.crop.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "width": width,
                "height": height,
                "crop": crop,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preview_report_platforms_item_image_type_0_crop import (
            PreviewReportPlatformsItemImageType0Crop,
        )

        d = dict(src_dict)
        url = d.pop("url")

        width = d.pop("width")

        height = d.pop("height")

        crop = PreviewReportPlatformsItemImageType0Crop.from_dict(d.pop("crop"))

        preview_report_platforms_item_image_type_0 = cls(
            url=url,
            width=width,
            height=height,
            crop=crop,
        )

        return preview_report_platforms_item_image_type_0
