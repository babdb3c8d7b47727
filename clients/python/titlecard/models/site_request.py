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
    """

    origin: str
    preset: str
    name: str | Unset = UNSET
    keep_query: bool | Unset = UNSET
    description: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        preset = self.preset

        name = self.name

        keep_query = self.keep_query

        description = self.description

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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        origin = d.pop("origin")

        preset = d.pop("preset")

        name = d.pop("name", UNSET)

        keep_query = d.pop("keepQuery", UNSET)

        description = d.pop("description", UNSET)

        site_request = cls(
            origin=origin,
            preset=preset,
            name=name,
            keep_query=keep_query,
            description=description,
        )

        return site_request
