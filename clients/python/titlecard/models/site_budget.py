from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SiteBudget")


@_attrs_define
class SiteBudget:
    """New cards the link may make, and what it made (docs/sites.md).

    Attributes:
        cards_per_hour (int):
        cards_per_month (int):
        this_hour (int): New cards made in this clock hour (UTC).
        this_month (int): New cards made in this calendar month (UTC).
    """

    cards_per_hour: int
    cards_per_month: int
    this_hour: int
    this_month: int

    def to_dict(self) -> dict[str, Any]:
        cards_per_hour = self.cards_per_hour

        cards_per_month = self.cards_per_month

        this_hour = self.this_hour

        this_month = self.this_month

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cardsPerHour": cards_per_hour,
                "cardsPerMonth": cards_per_month,
                "thisHour": this_hour,
                "thisMonth": this_month,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cards_per_hour = d.pop("cardsPerHour")

        cards_per_month = d.pop("cardsPerMonth")

        this_hour = d.pop("thisHour")

        this_month = d.pop("thisMonth")

        site_budget = cls(
            cards_per_hour=cards_per_hour,
            cards_per_month=cards_per_month,
            this_hour=this_hour,
            this_month=this_month,
        )

        return site_budget
