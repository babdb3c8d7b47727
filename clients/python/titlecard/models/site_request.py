from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SiteRequest")


@_attrs_define
class SiteRequest:
    """
    Attributes:
        origin (str): The site: scheme, host and port, such as https://blog.example.com (no path).
        preset (str): The preset that gives every page's card its design.
        name (str | Unset): What the fallback card says, 1 to 100 characters; default the origin's host.
        keep_query (bool | Unset): Whether a page URL keeps its query string; default false (dropped, so ?utm_… variants
            are one page).
        description (bool | Unset): Whether a page's og:description becomes the subtitle; default false.
        cards_per_hour (int | Unset): New cards the link may make per clock hour (UTC), 1 to 10000; default 30. Past it
            a page gets its earlier card or the fallback card, free.
        cards_per_month (int | Unset): New cards the link may make per calendar month (UTC), 1 to 100000; default 300.
            The owner quota still applies.
    """

    origin: str
    preset: str
    name: str | Unset = UNSET
    keep_query: bool | Unset = UNSET
    description: bool | Unset = UNSET
    cards_per_hour: int | Unset = UNSET
    cards_per_month: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        preset = self.preset

        name = self.name

        keep_query = self.keep_query

        description = self.description

        cards_per_hour = self.cards_per_hour

        cards_per_month = self.cards_per_month

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "origin": origin,
                "preset": preset,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if keep_query is not UNSET:
            field_dict["keepQuery"] = keep_query
        if description is not UNSET:
            field_dict["description"] = description
        if cards_per_hour is not UNSET:
            field_dict["cardsPerHour"] = cards_per_hour
        if cards_per_month is not UNSET:
            field_dict["cardsPerMonth"] = cards_per_month

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        origin = d.pop("origin")

        preset = d.pop("preset")

        name = d.pop("name", UNSET)

        keep_query = d.pop("keepQuery", UNSET)

        description = d.pop("description", UNSET)

        cards_per_hour = d.pop("cardsPerHour", UNSET)

        cards_per_month = d.pop("cardsPerMonth", UNSET)

        site_request = cls(
            origin=origin,
            preset=preset,
            name=name,
            keep_query=keep_query,
            description=description,
            cards_per_hour=cards_per_hour,
            cards_per_month=cards_per_month,
        )

        return site_request
