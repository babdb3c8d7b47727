from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingViewPlansProYear")


@_attrs_define
class BillingViewPlansProYear:
    """
    Attributes:
        id (str): The Stripe price id
        amount (int | None): In the currency's minor unit (cents); null when Stripe did not say
        currency (None | str): ISO 4217, lower case (usd)
    """

    id: str
    amount: int | None
    currency: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        amount: int | None
        amount = self.amount

        currency: None | str
        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_amount(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        currency = _parse_currency(d.pop("currency"))

        billing_view_plans_pro_year = cls(
            id=id,
            amount=amount,
            currency=currency,
        )

        return billing_view_plans_pro_year
