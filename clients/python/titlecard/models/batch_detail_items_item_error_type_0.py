from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BatchDetailItemsItemErrorType0")


@_attrs_define
class BatchDetailItemsItemErrorType0:
    """
    Attributes:
        code (str):
        message (str):
        field (None | str):
    """

    code: str
    message: str
    field: None | str

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        field: None | str
        field = self.field

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "field": field,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        def _parse_field(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        field = _parse_field(d.pop("field"))

        batch_detail_items_item_error_type_0 = cls(
            code=code,
            message=message,
            field=field,
        )

        return batch_detail_items_item_error_type_0
