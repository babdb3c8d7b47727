from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.token_list_entry_scopes_type_0_item import TokenListEntryScopesType0Item

T = TypeVar("T", bound="TokenListEntry")


@_attrs_define
class TokenListEntry:
    """
    Attributes:
        id (str):
        name (str):
        last_used_at (datetime.datetime | None):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        scopes (list[TokenListEntryScopesType0Item] | None): Its scopes; null for a token made before scopes, which has
            every scope of its member's role
        user_id (str): The member who made it
    """

    id: str
    name: str
    last_used_at: datetime.datetime | None
    created_at: datetime.datetime
    scopes: list[TokenListEntryScopesType0Item] | None
    user_id: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        created_at = self.created_at.isoformat()

        scopes: list[str] | None
        if isinstance(self.scopes, list):
            scopes = []
            for scopes_type_0_item_data in self.scopes:
                scopes_type_0_item = scopes_type_0_item_data.value
                scopes.append(scopes_type_0_item)

        else:
            scopes = self.scopes

        user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "lastUsedAt": last_used_at,
                "createdAt": created_at,
                "scopes": scopes,
                "userId": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("lastUsedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_scopes(data: object) -> list[TokenListEntryScopesType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                scopes_type_0 = []
                _scopes_type_0 = data
                for scopes_type_0_item_data in _scopes_type_0:
                    scopes_type_0_item = TokenListEntryScopesType0Item(
                        scopes_type_0_item_data
                    )

                    scopes_type_0.append(scopes_type_0_item)

                return scopes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[TokenListEntryScopesType0Item] | None, data)

        scopes = _parse_scopes(d.pop("scopes"))

        user_id = d.pop("userId")

        token_list_entry = cls(
            id=id,
            name=name,
            last_used_at=last_used_at,
            created_at=created_at,
            scopes=scopes,
            user_id=user_id,
        )

        return token_list_entry
