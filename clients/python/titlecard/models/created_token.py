from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.created_token_scopes_item import CreatedTokenScopesItem

T = TypeVar("T", bound="CreatedToken")


@_attrs_define
class CreatedToken:
    """
    Attributes:
        id (str):
        name (str):
        token (str):
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        scopes (list[CreatedTokenScopesItem]):
        workspace_id (str): The workspace it acts in
    """

    id: str
    name: str
    token: str
    created_at: datetime.datetime
    scopes: list[CreatedTokenScopesItem]
    workspace_id: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        token = self.token

        created_at = self.created_at.isoformat()

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        workspace_id = self.workspace_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "token": token,
                "createdAt": created_at,
                "scopes": scopes,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        token = d.pop("token")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = CreatedTokenScopesItem(scopes_item_data)

            scopes.append(scopes_item)

        workspace_id = d.pop("workspaceId")

        created_token = cls(
            id=id,
            name=name,
            token=token,
            created_at=created_at,
            scopes=scopes,
            workspace_id=workspace_id,
        )

        return created_token
