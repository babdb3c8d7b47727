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

T = TypeVar("T", bound="QuotaErrorBody")


@_attrs_define
class QuotaErrorBody:
    """
    Attributes:
        error (Literal['Rate limit exceeded']):
        message (str):
        retry_after (int): Seconds until the quota resets.
    """

    error: Literal["Rate limit exceeded"]
    message: str
    retry_after: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error

        message = self.message

        retry_after = self.retry_after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "message": message,
                "retryAfter": retry_after,
            }
        )

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

        quota_error_body = cls(
            error=error,
            message=message,
            retry_after=retry_after,
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
