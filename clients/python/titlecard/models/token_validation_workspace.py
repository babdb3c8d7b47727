from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.token_validation_workspace_role import TokenValidationWorkspaceRole
from ..models.token_validation_workspace_scopes_item import (
    TokenValidationWorkspaceScopesItem,
)

T = TypeVar("T", bound="TokenValidationWorkspace")


@_attrs_define
class TokenValidationWorkspace:
    """The workspace the token acts in (docs/workspaces.md)

    Attributes:
        id (str):
        name (str):
        role (TokenValidationWorkspaceRole): The member's role there
        scopes (list[TokenValidationWorkspaceScopesItem]): What this token may do now: its scopes within the role
    """

    id: str
    name: str
    role: TokenValidationWorkspaceRole
    scopes: list[TokenValidationWorkspaceScopesItem]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        role = self.role.value

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "role": role,
                "scopes": scopes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        role = TokenValidationWorkspaceRole(d.pop("role"))

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = TokenValidationWorkspaceScopesItem(scopes_item_data)

            scopes.append(scopes_item)

        token_validation_workspace = cls(
            id=id,
            name=name,
            role=role,
            scopes=scopes,
        )

        return token_validation_workspace
