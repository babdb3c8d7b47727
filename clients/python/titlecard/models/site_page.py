from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SitePage")


@_attrs_define
class SitePage:
    """
    Attributes:
        url (str):
        title (None | str):
        subtitle (None | str):
        problem (None | str): Why the last check gave the fallback card; null when it went well.
        checked_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    url: str
    title: None | str
    subtitle: None | str
    problem: None | str
    checked_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        title: None | str
        title = self.title

        subtitle: None | str
        subtitle = self.subtitle

        problem: None | str
        problem = self.problem

        checked_at = self.checked_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "title": title,
                "subtitle": subtitle,
                "problem": problem,
                "checkedAt": checked_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_subtitle(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subtitle = _parse_subtitle(d.pop("subtitle"))

        def _parse_problem(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        problem = _parse_problem(d.pop("problem"))

        checked_at = datetime.datetime.fromisoformat(d.pop("checkedAt"))

        site_page = cls(
            url=url,
            title=title,
            subtitle=subtitle,
            problem=problem,
            checked_at=checked_at,
        )

        return site_page
