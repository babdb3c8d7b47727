from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.billing_view_interval_type_0 import BillingViewIntervalType0
from ..models.billing_view_tier import BillingViewTier

if TYPE_CHECKING:
    from ..models.billing_view_plans import BillingViewPlans
    from ..models.billing_view_seats import BillingViewSeats


T = TypeVar("T", bound="BillingView")


@_attrs_define
class BillingView:
    """
    Attributes:
        tier (BillingViewTier):
        status (None | str): Stripe's status of the subscription; null before any purchase
        interval (BillingViewIntervalType0 | None):
        current_period_end (datetime.datetime | None):
        cancel_at_period_end (bool):
        seats (BillingViewSeats):
        plans (BillingViewPlans): The plans on offer, by tier and interval: their prices, as Stripe has them
    """

    tier: BillingViewTier
    status: None | str
    interval: BillingViewIntervalType0 | None
    current_period_end: datetime.datetime | None
    cancel_at_period_end: bool
    seats: BillingViewSeats
    plans: BillingViewPlans

    def to_dict(self) -> dict[str, Any]:
        tier = self.tier.value

        status: None | str
        status = self.status

        interval: None | str
        if isinstance(self.interval, BillingViewIntervalType0):
            interval = self.interval.value
        else:
            interval = self.interval

        current_period_end: None | str
        if isinstance(self.current_period_end, datetime.datetime):
            current_period_end = self.current_period_end.isoformat()
        else:
            current_period_end = self.current_period_end

        cancel_at_period_end = self.cancel_at_period_end

        seats = self.seats.to_dict()

        plans = self.plans.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tier": tier,
                "status": status,
                "interval": interval,
                "currentPeriodEnd": current_period_end,
                "cancelAtPeriodEnd": cancel_at_period_end,
                "seats": seats,
                "plans": plans,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_view_plans import BillingViewPlans
        from ..models.billing_view_seats import BillingViewSeats

        d = dict(src_dict)
        tier = BillingViewTier(d.pop("tier"))

        def _parse_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status = _parse_status(d.pop("status"))

        def _parse_interval(data: object) -> BillingViewIntervalType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interval_type_0 = BillingViewIntervalType0(data)

                return interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingViewIntervalType0 | None, data)

        interval = _parse_interval(d.pop("interval"))

        def _parse_current_period_end(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                current_period_end_type_0 = datetime.datetime.fromisoformat(data)

                return current_period_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        current_period_end = _parse_current_period_end(d.pop("currentPeriodEnd"))

        cancel_at_period_end = d.pop("cancelAtPeriodEnd")

        seats = BillingViewSeats.from_dict(d.pop("seats"))

        plans = BillingViewPlans.from_dict(d.pop("plans"))

        billing_view = cls(
            tier=tier,
            status=status,
            interval=interval,
            current_period_end=current_period_end,
            cancel_at_period_end=cancel_at_period_end,
            seats=seats,
            plans=plans,
        )

        return billing_view
