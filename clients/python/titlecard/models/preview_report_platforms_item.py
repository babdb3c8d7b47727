from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.preview_report_platforms_item_card import PreviewReportPlatformsItemCard
from ..models.preview_report_platforms_item_platform import (
    PreviewReportPlatformsItemPlatform,
)
from ..models.preview_report_platforms_item_problems_item import (
    PreviewReportPlatformsItemProblemsItem,
)

if TYPE_CHECKING:
    from ..models.preview_report_platforms_item_image_type_0 import (
        PreviewReportPlatformsItemImageType0,
    )


T = TypeVar("T", bound="PreviewReportPlatformsItem")


@_attrs_define
class PreviewReportPlatformsItem:
    """
    Attributes:
        platform (PreviewReportPlatformsItemPlatform):
        name (str):
        card (PreviewReportPlatformsItemCard): large: the image wide above the text; small: a thumbnail beside it; text:
            no image; none: no preview.
        title (None | str): The title as the platform cuts it (an ellipsis past its length).
        description (None | str):
        domain (str):
        image (None | PreviewReportPlatformsItemImageType0):
        problems (list[PreviewReportPlatformsItemProblemsItem]):
        mockup_url (str): GET it (same token) for a PNG of the preview as the platform will show it; kept a day.
    """

    platform: PreviewReportPlatformsItemPlatform
    name: str
    card: PreviewReportPlatformsItemCard
    title: None | str
    description: None | str
    domain: str
    image: None | PreviewReportPlatformsItemImageType0
    problems: list[PreviewReportPlatformsItemProblemsItem]
    mockup_url: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.preview_report_platforms_item_image_type_0 import (
            PreviewReportPlatformsItemImageType0,
        )

        platform = self.platform.value

        name = self.name

        card = self.card.value

        title: None | str
        title = self.title

        description: None | str
        description = self.description

        domain = self.domain

        image: dict[str, Any] | None
        if isinstance(self.image, PreviewReportPlatformsItemImageType0):
            image = self.image.to_dict()
        else:
            image = self.image

        problems = []
        for problems_item_data in self.problems:
            problems_item = problems_item_data.value
            problems.append(problems_item)

        mockup_url = self.mockup_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "platform": platform,
                "name": name,
                "card": card,
                "title": title,
                "description": description,
                "domain": domain,
                "image": image,
                "problems": problems,
                "mockupUrl": mockup_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preview_report_platforms_item_image_type_0 import (
            PreviewReportPlatformsItemImageType0,
        )

        d = dict(src_dict)
        platform = PreviewReportPlatformsItemPlatform(d.pop("platform"))

        name = d.pop("name")

        card = PreviewReportPlatformsItemCard(d.pop("card"))

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        domain = d.pop("domain")

        def _parse_image(data: object) -> None | PreviewReportPlatformsItemImageType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                image_type_0 = PreviewReportPlatformsItemImageType0.from_dict(data)

                return image_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PreviewReportPlatformsItemImageType0, data)

        image = _parse_image(d.pop("image"))

        problems = []
        _problems = d.pop("problems")
        for problems_item_data in _problems:
            problems_item = PreviewReportPlatformsItemProblemsItem(problems_item_data)

            problems.append(problems_item)

        mockup_url = d.pop("mockupUrl")

        preview_report_platforms_item = cls(
            platform=platform,
            name=name,
            card=card,
            title=title,
            description=description,
            domain=domain,
            image=image,
            problems=problems,
            mockup_url=mockup_url,
        )

        return preview_report_platforms_item
