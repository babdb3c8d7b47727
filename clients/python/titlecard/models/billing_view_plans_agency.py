from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.billing_view_plans_agency_month import BillingViewPlansAgencyMonth
    from ..models.billing_view_plans_agency_year import BillingViewPlansAgencyYear


T = TypeVar("T", bound="BillingViewPlansAgency")


@_attrs_define
class BillingViewPlansAgency:
    """
    Attributes:
        month (BillingViewPlansAgencyMonth):
        year (BillingViewPlansAgencyYear):
    """

    month: BillingViewPlansAgencyMonth
    year: BillingViewPlansAgencyYear

    def to_dict(self) -> dict[str, Any]:
        month = self.month.to_dict()

        year = self.year.to_dict()

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
        from ..models.billing_view_plans_agency_month import BillingViewPlansAgencyMonth
        from ..models.billing_view_plans_agency_year import BillingViewPlansAgencyYear

        d = dict(src_dict)
        month = BillingViewPlansAgencyMonth.from_dict(d.pop("month"))

        year = BillingViewPlansAgencyYear.from_dict(d.pop("year"))

        billing_view_plans_agency = cls(
            month=month,
            year=year,
        )

        return billing_view_plans_agency
