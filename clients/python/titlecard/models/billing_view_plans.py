from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.billing_view_plans_agency import BillingViewPlansAgency
    from ..models.billing_view_plans_pro import BillingViewPlansPro


T = TypeVar("T", bound="BillingViewPlans")


@_attrs_define
class BillingViewPlans:
    """The plans on offer, by tier and interval: their prices, as Stripe has them

    Attributes:
        pro (BillingViewPlansPro):
        agency (BillingViewPlansAgency):
    """

    pro: BillingViewPlansPro
    agency: BillingViewPlansAgency

    def to_dict(self) -> dict[str, Any]:
        pro = self.pro.to_dict()

        agency = self.agency.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pro": pro,
                "agency": agency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_view_plans_agency import BillingViewPlansAgency
        from ..models.billing_view_plans_pro import BillingViewPlansPro

        d = dict(src_dict)
        pro = BillingViewPlansPro.from_dict(d.pop("pro"))

        agency = BillingViewPlansAgency.from_dict(d.pop("agency"))

        billing_view_plans = cls(
            pro=pro,
            agency=agency,
        )

        return billing_view_plans
