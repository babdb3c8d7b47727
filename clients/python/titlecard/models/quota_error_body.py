from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="QuotaErrorBody")


@_attrs_define
class QuotaErrorBody:
    """
    Attributes:
        error (Literal['Rate limit exceeded']):
        message (str):
        retry_after (int): Seconds until the quota resets.
        upgrade_url (str | Unset): Ours, with billing on (docs/billing.md): where the owner buys a larger plan.
    """

    error: Literal["Rate limit exceeded"]
    message: str
    retry_after: int
    upgrade_url: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error

        message = self.message

        retry_after = self.retry_after

        upgrade_url = self.upgrade_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "message": message,
                "retryAfter": retry_after,
            }
        )
        if upgrade_url is not UNSET:
            field_dict["upgradeUrl"] = upgrade_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        error = cast(Literal["Rate limit exceeded"], d.pop("error"))
        if error != "Rate limit exceeded":
            raise ValueError(
                f"error must match const 'Rate limit exceeded', got '{error}'"
            )

        message = d.pop("message")

        retry_after = d.pop("retryAfter")

        upgrade_url = d.pop("upgradeUrl", UNSET)

        quota_error_body = cls(
            error=error,
            message=message,
            retry_after=retry_after,
            upgrade_url=upgrade_url,
        )

        quota_error_body.additional_properties = d
        return quota_error_body

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
