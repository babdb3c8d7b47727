from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="UsageUsage")


@_attrs_define
class UsageUsage:
    """
    Attributes:
        generated (int):
        limit (int):
        remaining (int):
        percent_used (float): 0 to 100, two decimals
    """

    generated: int
    limit: int
    remaining: int
    percent_used: float

    def to_dict(self) -> dict[str, Any]:
        generated = self.generated

        limit = self.limit

        remaining = self.remaining

        percent_used = self.percent_used

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generated": generated,
                "limit": limit,
                "remaining": remaining,
                "percentUsed": percent_used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        generated = d.pop("generated")

        limit = d.pop("limit")

        remaining = d.pop("remaining")

        percent_used = d.pop("percentUsed")

        usage_usage = cls(
            generated=generated,
            limit=limit,
            remaining=remaining,
            percent_used=percent_used,
        )

        return usage_usage
