from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.page_fetches_platforms_item import PageFetchesPlatformsItem


T = TypeVar("T", bound="PageFetches")


@_attrs_define
class PageFetches:
    """
    Attributes:
        url (str):
        title (None | str):
        current_version (int | None): The version of the page's current card (1 for its first); null while it has none.
        platforms (list[PageFetchesPlatformsItem]):
    """

    url: str
    title: None | str
    current_version: int | None
    platforms: list[PageFetchesPlatformsItem]

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        title: None | str
        title = self.title

        current_version: int | None
        current_version = self.current_version

        platforms = []
        for platforms_item_data in self.platforms:
            platforms_item = platforms_item_data.to_dict()
            platforms.append(platforms_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "title": title,
                "currentVersion": current_version,
                "platforms": platforms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.page_fetches_platforms_item import PageFetchesPlatformsItem

        d = dict(src_dict)
        url = d.pop("url")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_current_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        current_version = _parse_current_version(d.pop("currentVersion"))

        platforms = []
        _platforms = d.pop("platforms")
        for platforms_item_data in _platforms:
            platforms_item = PageFetchesPlatformsItem.from_dict(platforms_item_data)

            platforms.append(platforms_item)

        page_fetches = cls(
            url=url,
            title=title,
            current_version=current_version,
            platforms=platforms,
        )

        return page_fetches
