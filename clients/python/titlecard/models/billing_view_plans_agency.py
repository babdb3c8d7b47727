from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingViewPlansAgency")


@_attrs_define
class BillingViewPlansAgency:
    """
    Attributes:
        month (str):
        year (str):
    """

    month: str
    year: str

    def to_dict(self) -> dict[str, Any]:
        month = self.month

        year = self.year

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "month": month,
                "year": year,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        month = d.pop("month")

        year = d.pop("year")

        billing_view_plans_agency = cls(
            month=month,
            year=year,
        )

        return billing_view_plans_agency
