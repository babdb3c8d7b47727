from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.billing_view_plans_pro_month import BillingViewPlansProMonth
    from ..models.billing_view_plans_pro_year import BillingViewPlansProYear


T = TypeVar("T", bound="BillingViewPlansPro")


@_attrs_define
class BillingViewPlansPro:
    """
    Attributes:
        month (BillingViewPlansProMonth):
        year (BillingViewPlansProYear):
    """

    month: BillingViewPlansProMonth
    year: BillingViewPlansProYear

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
        from ..models.billing_view_plans_pro_month import BillingViewPlansProMonth
        from ..models.billing_view_plans_pro_year import BillingViewPlansProYear

        d = dict(src_dict)
        month = BillingViewPlansProMonth.from_dict(d.pop("month"))

        year = BillingViewPlansProYear.from_dict(d.pop("year"))

        billing_view_plans_pro = cls(
            month=month,
            year=year,
        )

        return billing_view_plans_pro
