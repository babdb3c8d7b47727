from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingViewSeats")


@_attrs_define
class BillingViewSeats:
    """
    Attributes:
        used (int):
        limit (int):
    """

    used: int
    limit: int

    def to_dict(self) -> dict[str, Any]:
        used = self.used

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "used": used,
                "limit": limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        used = d.pop("used")

        limit = d.pop("limit")

        billing_view_seats = cls(
            used=used,
            limit=limit,
        )

        return billing_view_seats
