from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.usage_tier import UsageTier

if TYPE_CHECKING:
    from ..models.usage_period import UsagePeriod
    from ..models.usage_usage import UsageUsage


T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """
    Attributes:
        period (UsagePeriod):
        usage (UsageUsage):
        tier (UsageTier): Subscription tier: free, pro or agency
    """

    period: UsagePeriod
    usage: UsageUsage
    tier: UsageTier

    def to_dict(self) -> dict[str, Any]:
        period = self.period.to_dict()

        usage = self.usage.to_dict()

        tier = self.tier.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "period": period,
                "usage": usage,
                "tier": tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage_period import UsagePeriod
        from ..models.usage_usage import UsageUsage

        d = dict(src_dict)
        period = UsagePeriod.from_dict(d.pop("period"))

        usage = UsageUsage.from_dict(d.pop("usage"))

        tier = UsageTier(d.pop("tier"))

        usage = cls(
            period=period,
            usage=usage,
            tier=tier,
        )

        return usage
