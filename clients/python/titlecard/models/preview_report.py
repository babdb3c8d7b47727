from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.preview_report_images_item import PreviewReportImagesItem
    from ..models.preview_report_page import PreviewReportPage
    from ..models.preview_report_platforms_item import PreviewReportPlatformsItem
    from ..models.preview_report_problems_item import PreviewReportProblemsItem
    from ..models.preview_report_tags_type_0 import PreviewReportTagsType0


T = TypeVar("T", bound="PreviewReport")


@_attrs_define
class PreviewReport:
    """
    Attributes:
        id (str): lpv_…
        url (str):
        final_url (str): The page after redirects.
        checked_at (str):
        expires_at (str): A day after the check: the report and its mock-ups are gone then.
        page (PreviewReportPage):
        tags (None | PreviewReportTagsType0):
        images (list[PreviewReportImagesItem]):
        platforms (list[PreviewReportPlatformsItem]):
        problems (list[PreviewReportProblemsItem]):
    """

    id: str
    url: str
    final_url: str
    checked_at: str
    expires_at: str
    page: PreviewReportPage
    tags: None | PreviewReportTagsType0
    images: list[PreviewReportImagesItem]
    platforms: list[PreviewReportPlatformsItem]
    problems: list[PreviewReportProblemsItem]

    def to_dict(self) -> dict[str, Any]:
        from ..models.preview_report_tags_type_0 import PreviewReportTagsType0

        id = self.id

        url = self.url

        final_url = self.final_url

        checked_at = self.checked_at

        expires_at = self.expires_at

        page = self.page.to_dict()

        tags: dict[str, Any] | None
        if isinstance(self.tags, PreviewReportTagsType0):
            tags = self.tags.to_dict()
        else:
            tags = self.tags

        images = []
        for images_item_data in self.images:
            images_item = images_item_data.to_dict()
            images.append(images_item)

        platforms = []
        for platforms_item_data in self.platforms:
            platforms_item = platforms_item_data.to_dict()
            platforms.append(platforms_item)

        problems = []
        for problems_item_data in self.problems:
            problems_item = problems_item_data.to_dict()
            problems.append(problems_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "finalUrl": final_url,
                "checkedAt": checked_at,
                "expiresAt": expires_at,
                "page": page,
                "tags": tags,
                "images": images,
                "platforms": platforms,
                "problems": problems,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preview_report_images_item import PreviewReportImagesItem
        from ..models.preview_report_page import PreviewReportPage
        from ..models.preview_report_platforms_item import PreviewReportPlatformsItem
        from ..models.preview_report_problems_item import PreviewReportProblemsItem
        from ..models.preview_report_tags_type_0 import PreviewReportTagsType0

        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        final_url = d.pop("finalUrl")

        checked_at = d.pop("checkedAt")

        expires_at = d.pop("expiresAt")

        page = PreviewReportPage.from_dict(d.pop("page"))

        def _parse_tags(data: object) -> None | PreviewReportTagsType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = PreviewReportTagsType0.from_dict(data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PreviewReportTagsType0, data)

        tags = _parse_tags(d.pop("tags"))

        images = []
        _images = d.pop("images")
        for images_item_data in _images:
            images_item = PreviewReportImagesItem.from_dict(images_item_data)

            images.append(images_item)

        platforms = []
        _platforms = d.pop("platforms")
        for platforms_item_data in _platforms:
            platforms_item = PreviewReportPlatformsItem.from_dict(platforms_item_data)

            platforms.append(platforms_item)

        problems = []
        _problems = d.pop("problems")
        for problems_item_data in _problems:
            problems_item = PreviewReportProblemsItem.from_dict(problems_item_data)

            problems.append(problems_item)

        preview_report = cls(
            id=id,
            url=url,
            final_url=final_url,
            checked_at=checked_at,
            expires_at=expires_at,
            page=page,
            tags=tags,
            images=images,
            platforms=platforms,
            problems=problems,
        )

        return preview_report
