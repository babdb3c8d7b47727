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

from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateDocumentVariablesImageVariable")


@_attrs_define
class TemplateDocumentVariablesImageVariable:
    """
    Attributes:
        type_ (Literal['image']):
        required (bool | Unset):  Default: False.
    """

    type_: Literal["image"]
    required: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        required = self.required

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if required is not UNSET:
            field_dict["required"] = required

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["image"], d.pop("type"))
        if type_ != "image":
            raise ValueError(f"type must match const 'image', got '{type_}'")

        required = d.pop("required", UNSET)

        template_document_variables_image_variable = cls(
            type_=type_,
            required=required,
        )

        return template_document_variables_image_variable
