from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.validation_error_body_error_details_constraint import (
    ValidationErrorBodyErrorDetailsConstraint,
)

T = TypeVar("T", bound="ValidationErrorBodyErrorDetails")


@_attrs_define
class ValidationErrorBodyErrorDetails:
    """
    Attributes:
        field (str):
        constraint (ValidationErrorBodyErrorDetailsConstraint):
    """

    field: str
    constraint: ValidationErrorBodyErrorDetailsConstraint
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        constraint = self.constraint.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "field": field,
                "constraint": constraint,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        constraint = ValidationErrorBodyErrorDetailsConstraint(d.pop("constraint"))

        validation_error_body_error_details = cls(
            field=field,
            constraint=constraint,
        )

        validation_error_body_error_details.additional_properties = d
        return validation_error_body_error_details

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
