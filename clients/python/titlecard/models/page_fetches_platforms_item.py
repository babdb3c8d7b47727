from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PageFetchesPlatformsItem")


@_attrs_define
class PageFetchesPlatformsItem:
    """
    Attributes:
        platform (str): x, facebook, linkedin, slack, discord, imessage, whatsapp, telegram, mastodon or bluesky.
        name (str):
        version (int): The version of the card it fetched last.
        fetched_at (datetime.datetime): ISO 8601 UTC timestamp
        current (bool): Whether it has the page's current card.
    """

    platform: str
    name: str
    version: int
    fetched_at: datetime.datetime
    current: bool

    def to_dict(self) -> dict[str, Any]:
        platform = self.platform

        name = self.name

        version = self.version

        fetched_at = self.fetched_at.isoformat()

        current = self.current

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "platform": platform,
                "name": name,
                "version": version,
                "fetchedAt": fetched_at,
                "current": current,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        platform = d.pop("platform")

        name = d.pop("name")

        version = d.pop("version")

        fetched_at = datetime.datetime.fromisoformat(d.pop("fetchedAt"))

        current = d.pop("current")

        page_fetches_platforms_item = cls(
            platform=platform,
            name=name,
            version=version,
            fetched_at=fetched_at,
            current=current,
        )

        return page_fetches_platforms_item
