from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SiteBudgetRequest")


@_attrs_define
class SiteBudgetRequest:
    """
    Attributes:
        cards_per_hour (int | Unset): New cards the link may make per clock hour (UTC), 1 to 10000; default 30. Past it
            a page gets its earlier card or the fallback card, free.
        cards_per_month (int | Unset): New cards the link may make per calendar month (UTC), 1 to 100000; default 300.
            The owner quota still applies.
    """

    cards_per_hour: int | Unset = UNSET
    cards_per_month: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        cards_per_hour = self.cards_per_hour

        cards_per_month = self.cards_per_month

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if cards_per_hour is not UNSET:
            field_dict["cardsPerHour"] = cards_per_hour
        if cards_per_month is not UNSET:
            field_dict["cardsPerMonth"] = cards_per_month

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cards_per_hour = d.pop("cardsPerHour", UNSET)

        cards_per_month = d.pop("cardsPerMonth", UNSET)

        site_budget_request = cls(
            cards_per_hour=cards_per_hour,
            cards_per_month=cards_per_month,
        )

        return site_budget_request
