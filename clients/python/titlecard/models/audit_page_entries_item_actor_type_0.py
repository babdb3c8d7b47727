from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AuditPageEntriesItemActorType0")


@_attrs_define
class AuditPageEntriesItemActorType0:
    """
    Attributes:
        id (str):
        email (None | str):
    """

    id: str
    email: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email: None | str
        email = self.email

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        audit_page_entries_item_actor_type_0 = cls(
            id=id,
            email=email,
        )

        return audit_page_entries_item_actor_type_0
