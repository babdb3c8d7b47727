from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.validation_error_body_error_details import (
        ValidationErrorBodyErrorDetails,
    )


T = TypeVar("T", bound="ValidationErrorBodyError")


@_attrs_define
class ValidationErrorBodyError:
    """
    Attributes:
        code (Literal['VALIDATION_ERROR']):
        message (str):
        details (ValidationErrorBodyErrorDetails):
    """

    code: Literal["VALIDATION_ERROR"]
    message: str
    details: ValidationErrorBodyErrorDetails
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        details = self.details.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.validation_error_body_error_details import (
            ValidationErrorBodyErrorDetails,
        )

        d = dict(src_dict)
        code = cast(Literal["VALIDATION_ERROR"], d.pop("code"))
        if code != "VALIDATION_ERROR":
            raise ValueError(f"code must match const 'VALIDATION_ERROR', got '{code}'")

        message = d.pop("message")

        details = ValidationErrorBodyErrorDetails.from_dict(d.pop("details"))

        validation_error_body_error = cls(
            code=code,
            message=message,
            details=details,
        )

        validation_error_body_error.additional_properties = d
        return validation_error_body_error

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
