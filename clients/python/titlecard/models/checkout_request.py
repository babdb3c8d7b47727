from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.checkout_request_interval import CheckoutRequestInterval
from ..models.checkout_request_tier import CheckoutRequestTier
from ..types import UNSET, Unset

T = TypeVar("T", bound="CheckoutRequest")


@_attrs_define
class CheckoutRequest:
    """
    Attributes:
        tier (CheckoutRequestTier): The plan: pro or agency
        interval (CheckoutRequestInterval | Unset): Billed monthly (the default) or yearly Default:
            CheckoutRequestInterval.MONTH.
    """

    tier: CheckoutRequestTier
    interval: CheckoutRequestInterval | Unset = CheckoutRequestInterval.MONTH
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tier = self.tier.value

        interval: str | Unset = UNSET
        if not isinstance(self.interval, Unset):
            interval = self.interval.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tier": tier,
            }
        )
        if interval is not UNSET:
            field_dict["interval"] = interval

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tier = CheckoutRequestTier(d.pop("tier"))

        _interval = d.pop("interval", UNSET)
        interval: CheckoutRequestInterval | Unset
        if isinstance(_interval, Unset):
            interval = UNSET
        else:
            interval = CheckoutRequestInterval(_interval)

        checkout_request = cls(
            tier=tier,
            interval=interval,
        )

        checkout_request.additional_properties = d
        return checkout_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
