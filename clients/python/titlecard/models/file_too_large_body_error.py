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

T = TypeVar("T", bound="FileTooLargeBodyError")


@_attrs_define
class FileTooLargeBodyError:
    """
    Attributes:
        code (Literal['FILE_TOO_LARGE']):
        message (str):
    """

    code: Literal["FILE_TOO_LARGE"]
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = cast(Literal["FILE_TOO_LARGE"], d.pop("code"))
        if code != "FILE_TOO_LARGE":
            raise ValueError(f"code must match const 'FILE_TOO_LARGE', got '{code}'")

        message = d.pop("message")

        file_too_large_body_error = cls(
            code=code,
            message=message,
        )

        file_too_large_body_error.additional_properties = d
        return file_too_large_body_error

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
