from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TokenValidationUsage")


@_attrs_define
class TokenValidationUsage:
    """
    Attributes:
        month (str):
        quota (int):
        count (int):
        remaining (int):
    """

    month: str
    quota: int
    count: int
    remaining: int

    def to_dict(self) -> dict[str, Any]:
        month = self.month

        quota = self.quota

        count = self.count

        remaining = self.remaining

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "month": month,
                "quota": quota,
                "count": count,
                "remaining": remaining,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        month = d.pop("month")

        quota = d.pop("quota")

        count = d.pop("count")

        remaining = d.pop("remaining")

        token_validation_usage = cls(
            month=month,
            quota=quota,
            count=count,
            remaining=remaining,
        )

        return token_validation_usage
