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

T = TypeVar("T", bound="TemplateDocumentVariablesTextVariable")


@_attrs_define
class TemplateDocumentVariablesTextVariable:
    """
    Attributes:
        type_ (Literal['text']):
        required (bool | Unset):  Default: False.
        default (str | Unset):
        max_length (int | Unset):  Default: 200.
    """

    type_: Literal["text"]
    required: bool | Unset = False
    default: str | Unset = UNSET
    max_length: int | Unset = 200

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        required = self.required

        default = self.default

        max_length = self.max_length

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if required is not UNSET:
            field_dict["required"] = required
        if default is not UNSET:
            field_dict["default"] = default
        if max_length is not UNSET:
            field_dict["maxLength"] = max_length

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["text"], d.pop("type"))
        if type_ != "text":
            raise ValueError(f"type must match const 'text', got '{type_}'")

        required = d.pop("required", UNSET)

        default = d.pop("default", UNSET)

        max_length = d.pop("maxLength", UNSET)

        template_document_variables_text_variable = cls(
            type_=type_,
            required=required,
            default=default,
            max_length=max_length,
        )

        return template_document_variables_text_variable
